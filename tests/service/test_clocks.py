"""Turn clocks with a controllable clock: deadlines are stored, so they fire after a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import storage
from bot.service.clocks import Reminder, claim_reminders, overdue_turns
from bot.service.games import GameService
from bot.service.models import SeatInfo
from bot.vocabulary.errors import IllegalAction, NotYourTurn
from tests.service.playing import Clock, start_game

CHANNEL = 77
TIMEOUT = 3600


async def timeout_for(guild_id: int | None) -> int:
    return TIMEOUT


async def service_on(path: Path, clock: Clock) -> GameService:
    return GameService(await storage.Database.open(path), clock=clock, timeout_for=timeout_for)


def two_people() -> list[SeatInfo]:
    return [SeatInfo(0, 10, "ann"), SeatInfo(1, 11, "bob")]


async def test_each_action_sets_the_deadline_of_the_seat_on_turn(tmp_path: Path) -> None:
    clock = Clock()
    service = await service_on(tmp_path / "t.db", clock)
    game = await service.start(
        game="ur", guild_id=1, channel_id=CHANNEL, parent_channel_id=None, seats=two_people()
    )
    assert game.turn_deadline == clock.now + TIMEOUT
    clock.now += 100
    game = (await service.act(game.id, 10, game.version, "roll", channel_id=CHANNEL)).after
    assert game.turn_deadline == clock.now + TIMEOUT
    await service.db.close()


async def test_claim_needs_the_clock_to_have_run_out_and_survives_a_restart(tmp_path: Path) -> None:
    clock = Clock()
    first = await service_on(tmp_path / "t.db", clock)
    game = await start_game(first, "backgammon", CHANNEL, two_people())
    idle = game.seat_on_turn
    waiting = 11 if idle.user_id == 10 else 10
    with pytest.raises(IllegalAction):  # too early
        await first.act(game.id, waiting, game.version, "claim", channel_id=CHANNEL)
    with pytest.raises(IllegalAction):  # the idle player cannot claim against themselves
        await first.act(game.id, idle.user_id or 0, game.version, "claim", channel_id=CHANNEL)
    await first.db.close()

    clock.now += TIMEOUT + 1  # the bot was down while the clock ran out
    second = await service_on(tmp_path / "t.db", clock)
    assert await overdue_turns(second, clock.now) == [(game.id, game.version)]
    result = await second.act(game.id, waiting, game.version, "claim", channel_id=CHANNEL)
    assert result.after.finished
    assert result.after.state.outcome.winner == (1 - idle.seat)
    results = {r.user_id: r for r in await storage.results_of_game(second.db, game.id)}
    assert results[waiting].reason == "timeout"
    actions = await storage.load_actions(second.db, game.id)
    assert actions[-1].kind == "timeout"
    await second.db.close()


async def test_reminder_is_due_at_half_time_once(tmp_path: Path) -> None:
    clock = Clock()
    service = await service_on(tmp_path / "t.db", clock)
    game = await service.start(
        game="ur", guild_id=1, channel_id=CHANNEL, parent_channel_id=None, seats=two_people()
    )
    clock.now += TIMEOUT / 2 - 1
    assert await reminders(service, clock.now) == []
    clock.now += 1
    (due,) = await reminders(service, clock.now)
    assert (due.game.id, due.deadline) == (game.id, game.turn_deadline)
    assert await reminders(service, clock.now) == []  # claimed: the next sweep stays quiet
    # The next action starts a new turn clock, with a reminder of its own.
    game = (await service.act(game.id, 10, game.version, "roll", channel_id=CHANNEL)).after
    assert await reminders(service, clock.now) == []
    clock.now += TIMEOUT / 2
    assert [r.game.id for r in await reminders(service, clock.now)] == [game.id]
    # Once the time has run out it is too late for a reminder: the turn is overdue instead.
    other = await service.start(
        game="ur", guild_id=1, channel_id=CHANNEL + 1, parent_channel_id=None, seats=two_people()
    )
    clock.now += TIMEOUT
    assert await reminders(service, clock.now) == []
    assert await overdue_turns(service, clock.now) == [
        (game.id, game.version),
        (other.id, other.version),
    ]
    await service.db.close()


async def reminders(service: GameService, now: float) -> list[Reminder]:
    return [reminder async for reminder in claim_reminders(service, now)]


async def test_an_idle_ludo_seat_is_handed_to_the_ai(tmp_path: Path) -> None:
    clock = Clock()
    service = await service_on(tmp_path / "t.db", clock)
    seats = [SeatInfo(i, 20 + i, f"p{i}") for i in range(4)]
    game = await service.start(
        game="ludo", guild_id=1, channel_id=CHANNEL, parent_channel_id=None, seats=seats
    )
    assert await service.hand_idle_seats_to_ai(game.id) is None  # not yet
    clock.now += TIMEOUT + 1
    result = await service.hand_idle_seats_to_ai(game.id)
    assert result is not None and result.after.seats[0].stand_in is not None
    with pytest.raises(IllegalAction):  # the AI plays that seat now
        await service.act(game.id, 20, result.after.version, "roll", channel_id=CHANNEL)
    step = await service.ai_step(game.id)
    assert step is not None and step.events[0].seat == 0
    service.forget(game.id)  # the hand-over is stored, not just remembered
    assert (await service.load(game.id)).seats[0].is_ai
    with pytest.raises(NotYourTurn):
        await service.act(game.id, 22, step.after.version, "roll", channel_id=CHANNEL)
    await service.db.close()
