"""Time controls: the pure match clock (properties), and a casual backgammon match through the
service on a real SQLite file with a clock the test sets: the clock starts when the board is
shown, moves within the delay cost nothing, the reserve pays the rest, a restart finds the same
clock to the second, and running out loses the match."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bot import storage
from bot.service.clocks import claim_reminders, overdue_turns
from bot.service.games import GameService
from bot.service.models import Game, SeatInfo
from bot.service.time_control import CONTROLS, MatchClock
from bot.vocabulary.options import CLOCK
from tests.service.playing import Clock, start_game

CHANNEL = 78
PAIR = [SeatInfo(0, 10, "ann"), SeatInfo(1, 11, "bob")]

# Whole seconds keep the sums exact; the clock's arithmetic is the same for fractions.
seconds = st.integers(min_value=0, max_value=100_000).map(float)


@given(delay=seconds, reserve=seconds, used=seconds, late=seconds)
def test_a_turn_pays_only_what_went_past_the_delay(
    delay: float, reserve: float, used: float, late: float
) -> None:
    clock = MatchClock(delay, (reserve, reserve)).begin_turn(0, 100.0, 3)
    shown = clock.shown_at(3, 100.0 + late)
    assert shown is not None and shown.started == 100.0 + late
    assert shown.shown_at(3, 200_000.0) is None, "a turn's clock starts once"
    after = shown.end_turn(100.0 + late + used)
    assert after.reserves[1] == reserve
    assert after.reserves[0] == reserve - max(0.0, used - delay)
    assert after.reserves[0] <= reserve
    delay_left, reserve_left = shown.left(100.0 + late + used)[0]
    assert reserve_left == after.reserves[0]
    assert delay_left == max(0.0, delay - used)
    flag = shown.flag_at()
    assert flag is not None and flag == 100.0 + late + delay + reserve
    assert MatchClock.from_json(shown.to_json()) == shown


@given(late=seconds)
def test_an_older_board_does_not_start_the_turn(late: float) -> None:
    clock = MatchClock(10.0, (60.0, 60.0)).begin_turn(1, 50.0, 7)
    assert clock.shown_at(6, 50.0 + late) is None
    assert MatchClock(10.0, (60.0, 60.0)).shown_at(7, late) is None  # no turn runs


async def service_on(path: Path, clock: Clock) -> GameService:
    return GameService(await storage.Database.open(path), clock=clock)


async def casual_match(service: GameService, points: int) -> Game:
    control = CONTROLS["casual"]
    options = {
        "match_length": points,
        "cube": False,
        CLOCK: {"name": "casual", "delay": control.delay, "reserve": 180.0 * points},
    }
    return await start_game(service, "backgammon", CHANNEL, PAIR, options, rated=True)


def next_token(game: Game) -> str:
    """Confirm a finished play, else roll, else the first checker or step offered."""
    tokens = [c.token for c in game.choices()]
    for wanted in ("ok", "roll"):
        if wanted in tokens:
            return wanted
    return next(t for t in tokens if t not in ("back", "undo"))


async def play_turn(service: GameService, game: Game) -> Game:
    """The player on turn rolls if asked and plays the first offered move (one turn)."""
    mover = game.seat_on_turn
    while game.seat_on_turn.seat == mover.seat and not game.finished:
        token = next_token(game)
        assert mover.user_id is not None
        result = await service.act(game.id, mover.user_id, game.version, token, channel_id=CHANNEL)
        game = result.after
    return game


async def test_a_casual_match_counts_from_the_board_and_is_lost_on_time(tmp_path: Path) -> None:
    clock = Clock()
    service = await service_on(tmp_path / "t.db", clock)
    game = await casual_match(service, 2)
    assert game.timer is not None and game.timer.reserves == (360.0, 360.0)
    first = game.seat_on_turn.seat

    clock.now += 2.5  # Discord's round trip and the board's edit: not the player's time
    await service.clock_shown(game.id, game.version, clock.now)
    shown_at = clock.now
    game = await service.load(game.id)
    assert game.timer is not None and game.timer.started == shown_at
    assert game.turn_deadline == shown_at + 15 + 360

    clock.now += 40  # 25 s past the delay
    game = await play_turn(service, game)
    assert game.timer is not None
    assert game.timer.reserves[first] == 360 - 25
    assert game.timer.seat == 1 - first
    await service.clock_shown(game.id, game.version, clock.now + 1)
    clock.now += 1
    second_started = clock.now
    clock.now += 10  # within the delay: free
    game = await play_turn(service, game)
    assert game.timer is not None and game.timer.reserves == tuple(
        360.0 - 25 if s == first else 360.0 for s in range(2)
    )
    await service.clock_shown(game.id, game.version, clock.now)
    started = clock.now
    await service.db.close()

    # A restart: the clock is where it was, to the second.
    clock.now += 100
    again = await service_on(tmp_path / "t.db", clock)
    game = await again.load(game.id)
    assert game.timer is not None and game.timer.started == started > second_started
    flag = started + 15 + 335
    assert game.turn_deadline == flag
    assert [r async for r in claim_reminders(again, clock.now)] == [], "no reminders"
    assert await again.lose_on_time(game.id) is None  # not yet
    assert await overdue_turns(again, flag - 0.5) == []

    clock.now = flag + 0.5
    assert await overdue_turns(again, clock.now) == [(game.id, game.version)]
    lost = await again.lose_on_time(game.id)
    assert lost is not None and lost.after.finished
    assert lost.after.state.outcome.winner == 1 - first
    results = {r.user_id: r for r in await storage.results_of_game(again.db, game.id)}
    assert results[PAIR[first].user_id].reason == "timeout"
    await again.db.close()


async def test_a_click_after_the_reserve_ran_out_loses(tmp_path: Path) -> None:
    clock = Clock()
    service = await service_on(tmp_path / "t.db", clock)
    game = await casual_match(service, 1)
    await service.clock_shown(game.id, game.version, clock.now)
    clock.now += 15 + 180 + 1
    mover = game.seat_on_turn
    assert mover.user_id is not None
    token = next_token(game)
    result = await service.act(game.id, mover.user_id, game.version, token, channel_id=CHANNEL)
    assert result.after.finished and result.after.state.outcome.winner == 1 - mover.seat
    await service.db.close()
