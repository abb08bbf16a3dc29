"""The frame around every button click, whichever component owns the button.

A click is refused with "restarting" once shutdown has begun, tracked so that shutdown waits
for it, answered in the one place that turns errors into replies when it fails, and logged
once on the access log with where its time went (``book``).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from typing import Any

import aiohttp
import discord

from bot.service.outages import CLICK_DATABASE_SECONDS, interactive
from bot.ui.buttons import F, Handler
from bot.ui.replies import reply_error
from bot.vocabulary.errors import TabulaError

access_log = logging.getLogger("tabula.access")
log = logging.getLogger(__name__)

# Where a click's time went, for its access-log line: the acknowledgement, the service (store),
# the renders and the Discord calls that show the result. Set per click; AI tasks get a fresh
# context so their work is not booked to the click that woke them.
_phases: contextvars.ContextVar[dict[str, float] | None] = contextvars.ContextVar(
    "tabula_phases", default=None
)


def book(phase: str, since: float) -> float:
    """Add the time since ``since`` to ``phase`` of the current click; returns now."""
    now = time.perf_counter()
    phases = _phases.get()
    if phases is not None:
        phases[phase] = phases.get(phase, 0.0) + (now - since) * 1000
    return now


def book_ms(phase: str, ms: float) -> None:
    """Add ``ms`` to ``phase`` of the current click (for costs measured elsewhere, such as
    the CPU time of a render in its thread)."""
    phases = _phases.get()
    if phases is not None:
        phases[phase] = phases.get(phase, 0.0) + ms


class Clicks:
    def __init__(self) -> None:
        self.draining = False
        # Clicks and AI moves under way: shutdown waits for them (see drain).
        self._busy: set[asyncio.Task[Any]] = set()

    def track(self, task: asyncio.Task[Any] | None) -> None:
        if task is not None:
            self._busy.add(task)
            task.add_done_callback(self._busy.discard)

    async def drain(self, grace: float) -> None:
        """Start no new clicks; wait up to ``grace`` seconds for those under way, and for the
        refusals of clicks that arrive meanwhile (their replies must go out before the HTTP
        session closes)."""
        self.draining = True
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        while self._busy:
            remaining = deadline - loop.time()
            if remaining <= 0:
                log.warning(
                    "shutdown: after %g s, clicks or AI moves still under way: %d; stopping "
                    "anyway (the restarted bot finishes them)",
                    grace,
                    len(self._busy),
                )
                break
            await asyncio.wait(set(self._busy), timeout=remaining)

    def guard(
        self,
        handler: Handler[F],
        *,
        kind: str,
        database_seconds: float | None = CLICK_DATABASE_SECONDS,
    ) -> Handler[F]:
        """``handler`` inside the frame: refusals answered, the click logged.
        ``database_seconds``: the click's database work (up to its first commit) ends that
        long after the click, in time for its answer to reach Discord within 3 s, whatever
        the database does; None for a handler that answers first and then works for long
        before it writes (a review's analysis)."""

        async def guarded(
            interaction: discord.Interaction[Any], fields: F, on_message: bool
        ) -> None:
            started = time.perf_counter()
            outcome = "ok"
            phases: dict[str, float] = {}
            _phases.set(phases)
            self.track(asyncio.current_task())
            try:
                if self.draining:  # shutting down: the restarted bot takes the next click
                    raise TabulaError("error.restarting")
                if database_seconds is None:
                    await handler(interaction, fields, on_message)
                else:
                    with interactive(database_seconds):
                        await handler(interaction, fields, on_message)
            except Exception as error:
                try:
                    outcome = await reply_error(interaction, error, context=f"{kind} {fields}")
                except (discord.HTTPException, aiohttp.ClientError) as failed:
                    # Discord did not take the answer (the connection dropped, the
                    # interaction expired): nothing more can be said to this clicker.
                    outcome = "unanswered"
                    log.warning("could not answer a click (%s): %r", kind, failed)
            finally:
                access_log.info(
                    "interaction game=%s user=%s action=%s outcome=%s latency_ms=%.1f%s",
                    fields.target,
                    interaction.user.id,
                    fields.action,
                    outcome,
                    (time.perf_counter() - started) * 1000,
                    "".join(f" {name}_ms={ms:.1f}" for name, ms in phases.items()),
                )

        return guarded
