"""The components' lifecycle (``bot.ui.component``): routes gathered from the list, ``start``
and ``recover`` in its order, ``stop`` in reverse; a recovery that fails is logged and the
others still recover; a stop reaches every component whose start was reached, also when a
start further down the list failed."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.ui.buttons import LEADERBOARD, PUZZLE, LeaderboardPage, PuzzleAnswer, Route
from bot.ui.component import Component, Components


async def ignore(*_: Any) -> None:
    """A handler that is never called here."""


class Recording(Component):
    """A component that writes what it was asked to do into ``calls``."""

    def __init__(
        self,
        name: str,
        calls: list[str],
        *,
        routes: list[Route[Any]] | None = None,
        fails: str = "",
    ) -> None:
        self.name = name
        self.calls = calls
        self.fails = fails
        if routes is not None:
            self.routes = routes

    def _do(self, step: str) -> None:
        self.calls.append(f"{step} {self.name}")
        if step == self.fails:
            raise RuntimeError(f"{self.name} cannot {step}")

    def start(self) -> None:
        self._do("start")

    async def recover(self) -> None:
        self._do("recover")

    async def stop(self) -> None:
        self._do("stop")


def recording(names: str, calls: list[str], **fails: str) -> list[Recording]:
    return [Recording(name, calls, fails=fails.get(name, "")) for name in names.split()]


async def test_start_and_recover_in_order_and_stop_in_reverse() -> None:
    calls: list[str] = []
    components = Components(recording("a b c", calls))
    components.start()
    await components.recover()
    await components.stop()
    assert calls == [
        "start a", "start b", "start c",
        "recover a", "recover b", "recover c",
        "stop c", "stop b", "stop a",
    ]  # fmt: skip


async def test_a_failed_recovery_is_logged_and_the_others_still_recover(
    caplog: pytest.LogCaptureFixture,
) -> None:
    calls: list[str] = []
    components = Components(recording("a b c", calls, b="recover"))
    components.start()
    with caplog.at_level(logging.ERROR, logger="bot.ui.component"):
        await components.recover()
    assert calls[3:] == ["recover a", "recover b", "recover c"]
    [failure] = caplog.records
    assert "Recording" in failure.getMessage() and "recovery failed" in failure.getMessage()
    assert failure.exc_info is not None and "b cannot recover" in str(failure.exc_info[1])


async def test_a_failed_start_ends_setup_and_stop_unwinds_what_started() -> None:
    calls: list[str] = []
    components = Components(recording("a b c", calls, b="start"))
    with pytest.raises(RuntimeError, match="b cannot start"):
        components.start()
    await components.stop()
    # c never started, so it has nothing to stop; b may have started something before failing.
    assert calls == ["start a", "start b", "stop b", "stop a"]


async def test_a_failed_stop_is_logged_and_the_others_still_stop(
    caplog: pytest.LogCaptureFixture,
) -> None:
    calls: list[str] = []
    components = Components(recording("a b c", calls, b="stop"))
    components.start()
    with caplog.at_level(logging.ERROR, logger="bot.ui.component"):
        await components.stop()
    assert calls[3:] == ["stop c", "stop b", "stop a"]
    assert [r.getMessage() for r in caplog.records] == ["Recording: stopping failed"]
    await components.stop()  # stopped once: a second close stops nothing again
    assert len(calls) == 6


async def test_routes_come_from_the_list_in_its_order() -> None:
    calls: list[str] = []
    page: Route[LeaderboardPage] = Route(LEADERBOARD, ignore)
    answer: Route[PuzzleAnswer] = Route(PUZZLE, ignore)
    components = Components(
        [
            Recording("a", calls, routes=[page]),
            Recording("b", calls),
            Recording("c", calls, routes=[answer]),
        ]
    )
    assert components.routes == [page, answer]
    assert calls == []  # gathering the routes starts nothing


async def test_a_component_declares_only_what_it_has() -> None:
    class RoutesOnly(Component):
        def __init__(self) -> None:
            self.routes = [Route(PUZZLE, ignore)]

    only = RoutesOnly()
    components = Components([only, Component()])
    assert [route.shape for route in components.routes] == [PUZZLE]
    components.start()
    await components.recover()
    await components.stop()
