"""A component of the bot's Discord side and its part in the bot's life, and the one list of
them that ``TabulaBot.setup_hook`` wires.

A component (``ChallengeUI``, ``GameDriver``, ``ClockUI``...) owns the button shapes it
answers (``routes``), the sweeps it runs (``start``, at setup), what it finishes after a crash
(``recover``, on the first ``on_ready``) and how it stops (``stop``, at close). It subclasses
:class:`Component` and overrides only what it has; the rest are the no-ops here.

:class:`Components` runs the list: its routes for the router, ``start`` in list order,
``recover`` in list order (a failure is logged and the next one still recovers) and ``stop``
in reverse, so a component is stopped after everything listed behind it, which may lean on
it, and only if its ``start`` was reached.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from bot.ui.buttons import Route

log = logging.getLogger(__name__)


class Component:
    """What ``setup_hook`` wires of a component, each part a no-op unless overridden.
    ``stop`` must hold also when ``recover`` never ran (the bot closed before its first
    ready)."""

    routes: Sequence[Route[Any]] = ()

    def start(self) -> None:
        """Start the component's sweeps and tasks (at setup, once the commands are synced)."""

    async def recover(self) -> None:
        """Finish what a crash left half done, on the first ready (the gateway is up)."""

    async def stop(self) -> None:
        """Stop what ``start`` and ``recover`` started (at close, before the gateway)."""


def name_of(component: Component) -> str:
    return type(component).__name__


class Components:
    """The bot's components, in the order they start and recover (and stop in reverse)."""

    def __init__(self, components: Sequence[Component]) -> None:
        self.components = tuple(components)
        self._started: list[Component] = []

    @property
    def routes(self) -> list[Route[Any]]:
        """Every component's routes (a shape claimed twice goes to the later component)."""
        return [route for component in self.components for route in component.routes]

    def start(self) -> None:
        """Start each in order. A start that raises ends setup (the bot does not run half
        started); ``stop`` then unwinds the ones reached, that one included."""
        for component in self.components:
            self._started.append(component)
            component.start()

    async def recover(self) -> None:
        """Each one's recovery in order. One that fails is logged and the others still run:
        a component's sweep finishes the same work later, and those behind it (a redraw of
        the boards, the resume sweep) must not wait for the database to come back."""
        for component in self.components:
            try:
                await component.recover()
            except Exception:
                log.exception(
                    "%s: start-up recovery failed; its sweeps try again", name_of(component)
                )

    async def stop(self) -> None:
        """Stop, in reverse, every component whose start was reached; one stop that fails is
        logged and the others still stop (what a stop leaves running ends with the loop)."""
        while self._started:
            component = self._started.pop()
            try:
                await component.stop()
            except Exception:
                log.exception("%s: stopping failed", name_of(component))


__all__ = ["Component", "Components"]
