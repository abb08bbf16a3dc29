"""The one helper for periodic work: a failed round never ends the loop (that is how the bot
heals), expected faults are logged in one line, unexpected ones with their traceback, and a
round never sees the context (a click's database deadline) of whoever started the loop."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.periodic import Periodic
from bot.storage.database import deadline_in
from bot.storage.engine import request_deadline
from bot.ui.ai_seats import AI_RETRY_MOST, ai_backoff


class Expected(Exception):
    pass


async def test_failed_rounds_are_logged_and_the_loop_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    seen: list[object] = []

    async def work() -> None:
        seen.append(request_deadline())
        if len(seen) == 1:
            raise Expected("the database is away")
        if len(seen) == 2:
            raise RuntimeError("a bug")

    loop = Periodic("test-sweep", work, every=0.01, expected=lambda e: isinstance(e, Expected))
    with caplog.at_level(logging.WARNING, logger="bot.periodic"), deadline_in(5.0):
        loop.start()
    for _ in range(200):
        if len(seen) >= 4:
            break
        await asyncio.sleep(0.01)
    await loop.stop()
    assert len(seen) >= 4 and loop.failures == 2
    assert seen == [None] * len(seen)  # the starter's deadline did not leak in
    expected, bug = caplog.records[0], caplog.records[1]
    assert "the database is away" in expected.getMessage() and expected.exc_info is None
    assert bug.levelno == logging.ERROR and bug.exc_info is not None


def test_ai_retries_back_off_to_a_few_seconds_at_most() -> None:
    pauses = [ai_backoff(n) for n in range(1, 30)]
    assert all(0 < p <= AI_RETRY_MOST for p in pauses)
    assert pauses[0] <= 0.25  # the first retry comes soon


async def test_the_first_round_waits_and_stop_ends_the_loop_cleanly() -> None:
    rounds: list[float] = []
    loop_time = asyncio.get_running_loop().time
    started = loop_time()

    async def work() -> None:
        rounds.append(loop_time() - started)
        await asyncio.sleep(0.005)  # a round under way when stop() comes is cancelled

    loop = Periodic("test-sweep", work, every=0.01, first_delay=0.05)
    loop.start()
    loop.start()  # idempotent: still one loop
    for _ in range(200):
        if len(rounds) >= 3:
            break
        await asyncio.sleep(0.01)
    await loop.stop()
    assert rounds[0] >= 0.05 and loop.failures == 0
    done = len(rounds)
    await asyncio.sleep(0.05)
    assert len(rounds) == done, "no rounds after stop"
    assert not [t for t in asyncio.all_tasks() if t.get_name() == "test-sweep"]
    await loop.stop()  # stopping again is harmless
