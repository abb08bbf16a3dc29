"""A turn's time-out on the bot's test clock (``bot.clock.OffsetClock``): moving the offset
file forward, as ``FakeDiscord.advance`` does, makes a day-long turn overdue at once, with no
real waiting, and the reminder and the claim follow it."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from bot import storage
from bot.clock import OffsetClock
from bot.service.clocks import claim_reminders, overdue_turns
from bot.service.games import GameService
from bot.service.models import SeatInfo
from bot.vocabulary.errors import IllegalAction

CHANNEL = 5
TIMEOUT = 24 * 3600


async def timeout_for(guild_id: int | None) -> int:
    return TIMEOUT


def advance(path: Path, seconds: float) -> None:
    """Move the clock forward ``seconds`` (the file holds the total offset)."""
    offset = float(path.read_text(encoding="utf-8")) if path.exists() else 0.0
    fresh = path.with_suffix(".new")
    fresh.write_text(f"{offset + seconds!r}\n", encoding="utf-8")
    os.replace(fresh, path)


async def test_a_turn_times_out_once_the_clock_is_moved(
    db: storage.Database, tmp_path: Path
) -> None:
    path = tmp_path / "clock-offset"
    clock = OffsetClock(path)
    service = GameService(db, clock=clock.now, timeout_for=timeout_for)
    started = time.monotonic()
    game = await service.start(
        game="ur",
        guild_id=1,
        channel_id=CHANNEL,
        parent_channel_id=None,
        seats=[SeatInfo(0, 10, "ann"), SeatInfo(1, 11, "bob")],
    )
    assert game.turn_deadline == pytest.approx(clock.now() + TIMEOUT, abs=60)
    idle = game.seat_on_turn
    waiting = 11 if idle.user_id == 10 else 10
    assert await overdue_turns(service, clock.now()) == []
    assert [r async for r in claim_reminders(service, clock.now())] == []
    with pytest.raises(IllegalAction):
        await service.act(game.id, waiting, game.version, "claim", channel_id=CHANNEL)

    advance(path, TIMEOUT / 2 + 1)  # half time: a reminder, not yet a time-out
    (reminder,) = [r async for r in claim_reminders(service, clock.now())]
    assert reminder.game.id == game.id
    assert await overdue_turns(service, clock.now()) == []

    advance(path, TIMEOUT / 2)  # a day and a second after the turn began
    assert await overdue_turns(service, clock.now()) == [(game.id, game.version)]
    service.forget(game.id)  # as another process would: the game read back from the database
    result = await service.act(game.id, waiting, game.version, "claim", channel_id=CHANNEL)
    assert result.after.finished
    results = {r.user_id: r.reason for r in await storage.results_of_game(db, game.id)}
    assert results[waiting] == "timeout"
    # A day passed on the bot's clock in a moment of the real one.
    assert time.monotonic() - started < 60
