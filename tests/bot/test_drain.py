"""Shutdown's drain (bot/ui/clicks.py): it waits for the clicks under way, including those
that arrive while it waits (their refusals must go out before the HTTP session closes), and
no longer than its grace."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.ui.clicks import Clicks


async def test_drain_waits_for_a_click_that_arrives_while_it_waits() -> None:
    clicks = Clicks()
    finished: list[str] = []

    async def click(name: str, seconds: float) -> None:
        clicks.track(asyncio.current_task())
        await asyncio.sleep(seconds)
        finished.append(name)

    first = asyncio.create_task(click("under way", 0.05))
    await asyncio.sleep(0)  # it has started and is tracked
    drain = asyncio.create_task(clicks.drain(grace=5.0))
    await asyncio.sleep(0.01)
    assert clicks.draining
    late = asyncio.create_task(click("arrived meanwhile", 0.2))  # outlives the first
    await drain
    assert finished == ["under way", "arrived meanwhile"]
    await asyncio.gather(first, late)


async def test_drain_gives_up_after_its_grace(caplog: pytest.LogCaptureFixture) -> None:
    clicks = Clicks()

    async def stuck() -> None:
        clicks.track(asyncio.current_task())
        await asyncio.sleep(30)

    task = asyncio.create_task(stuck())
    await asyncio.sleep(0)
    loop = asyncio.get_running_loop()
    started = loop.time()
    with caplog.at_level(logging.WARNING, logger="bot.ui.clicks"):
        await clicks.drain(grace=0.1)
    assert 0.09 <= loop.time() - started < 1.0
    assert not task.done()
    # The operator reads why the bot stopped with work under way.
    assert "after 0.1 s, clicks or AI moves still under way: 1;" in caplog.text
    task.cancel()
