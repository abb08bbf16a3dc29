"""The game service against a real SQLite file, driven the way the buttons drive it."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot import games, storage
from bot.engines.common import Phase, replay
from bot.service import fair_dice
from bot.service.games import GameService
from bot.service.models import Game, SeatInfo
from bot.vocabulary.errors import (
    ChannelBusy,
    IllegalAction,
    MalformedButton,
    NotInGame,
    NotYourTurn,
    StaleAction,
    WrongChannel,
)
from tests.service.playing import click_to_end

CHANNEL = 555


def people(count: int) -> list[SeatInfo]:
    return [SeatInfo(i, 1000 + i, f"player{i}") for i in range(count)]


async def start(service: GameService, game: str, seats: list[SeatInfo] | None = None) -> Game:
    seats = seats or people(4 if game == "ludo" else 2)
    return await service.start(
        game=game, guild_id=1, channel_id=CHANNEL, parent_channel_id=None, seats=seats
    )


async def click_through(service: GameService, game: Game, seed: int, limit: int = 6000) -> Game:
    """Play to the end by clicking random offered buttons, as players would."""
    return await click_to_end(service, game, seed, channel_id=CHANNEL, limit=limit)


@pytest.mark.parametrize("name", ["ur", "ludo", "backgammon"])
async def test_whole_game_by_buttons_is_logged_and_replays(db: storage.Database, name: str) -> None:
    service = GameService(db)
    game = await click_through(service, await start(service, name), seed=7)
    assert game.state.phase == Phase.FINISHED
    row = await storage.load_game(db, game.id)
    assert row is not None and row.status == storage.GameStatus.FINISHED
    actions = await storage.load_actions(db, game.id)
    assert [a.seq for a in actions] == list(range(1, len(actions) + 1))
    rules = games.get(name).rules
    # The log is the source of truth: replaying it gives the stored state exactly.
    assert replay(rules, game.options, [a.notation for a in actions]) == game.state
    results = await storage.results_of_game(db, game.id)
    assert [r.game_id for r in results if r.user_id == 1000] == [game.id]


async def test_every_roll_in_the_log_comes_from_the_committed_seed(db: storage.Database) -> None:
    service = GameService(db)
    game = await click_through(service, await start(service, "backgammon"), seed=3)
    row = await storage.load_game(db, game.id)
    assert row is not None
    assert fair_dice.seed_hash(row.dice_seed) == row.dice_seed_hash
    rules = games.get("backgammon").rules
    state = rules.new_game(game.options)
    rolls = 0
    for action in await storage.load_actions(db, game.id):
        if action.kind == "roll":
            rolls += 1
            expected = rules.roll(state, fair_dice.roll_stream(row.dice_seed, game.id, rolls))
            assert rules.notation(state, expected) == action.notation
        state = rules.apply(state, rules.parse(state, action.notation))
    assert rolls > 0


async def test_refusals_change_nothing(db: storage.Database) -> None:
    service = GameService(db)
    game = await start(service, "ur")
    on_turn = game.seat_on_turn.user_id
    other = next(s.user_id for s in game.seats if s.user_id != on_turn)
    assert on_turn is not None and other is not None
    cases: list[tuple[int, int, str, int, type[Exception]]] = [
        (on_turn, game.version, "roll", CHANNEL + 1, WrongChannel),
        (424242, game.version, "roll", CHANNEL, NotInGame),
        (other, game.version, "roll", CHANNEL, NotYourTurn),
        (on_turn, game.version - 1, "roll", CHANNEL, StaleAction),
        (on_turn, game.version, "m4", CHANNEL, IllegalAction),
        (on_turn, game.version, "zz", CHANNEL, IllegalAction),
    ]
    for user, version, token, channel, error in cases:
        with pytest.raises(error):
            await service.act(game.id, user, version, token, channel_id=channel)
    service.forget(game.id)
    again = await service.load(game.id)
    assert again.version == game.version and again.state == game.state
    assert await storage.load_actions(db, game.id) == []


async def test_malformed_tokens_are_refused_clearly(db: storage.Database) -> None:
    service = GameService(db)
    game = await start(service, "ur")
    user = game.seat_on_turn.user_id
    assert user is not None
    game = (await service.act(game.id, user, game.version, "roll", channel_id=CHANNEL)).after
    if game.state.phase == Phase.MOVE and game.seat_on_turn.user_id == user:
        with pytest.raises((MalformedButton, IllegalAction)):
            await service.act(game.id, user, game.version, "mX", channel_id=CHANNEL)


async def test_a_double_click_applies_once(db: storage.Database) -> None:
    service = GameService(db)
    game = await start(service, "ur")
    user = game.seat_on_turn.user_id
    assert user is not None
    outcomes = await asyncio.gather(
        service.act(game.id, user, game.version, "roll", channel_id=CHANNEL),
        service.act(game.id, user, game.version, "roll", channel_id=CHANNEL),
        return_exceptions=True,
    )
    assert sum(isinstance(o, StaleAction) for o in outcomes) == 1
    rolls = [a for a in await storage.load_actions(db, game.id) if a.kind == "roll"]
    assert len(rolls) == 1


async def test_two_processes_racing_one_version_apply_once(
    db: storage.Database, database_url: str
) -> None:
    """A second service on the same file (another process, or one restarted) loses the race."""
    first = GameService(db)
    game = await start(first, "ur")
    other_db = await storage.Database.open(database_url)
    try:
        second = GameService(other_db)
        user = game.seat_on_turn.user_id
        assert user is not None
        await first.act(game.id, user, game.version, "roll", channel_id=CHANNEL)
        with pytest.raises(StaleAction):
            await second.act(game.id, user, game.version, "roll", channel_id=CHANNEL)
    finally:
        await other_db.close()


async def test_one_game_per_channel(db: storage.Database) -> None:
    service = GameService(db)
    await start(service, "ur")
    with pytest.raises(ChannelBusy):
        await start(service, "ludo")


async def test_ai_seats_play_their_turns(db: storage.Database) -> None:
    service = GameService(db)
    seats = [SeatInfo(0, 1000, "human")] + [SeatInfo(i, None, "AI", "hard") for i in (1, 2, 3)]
    game = await click_through(service, await start(service, "ludo", seats), seed=11)
    actions = await storage.load_actions(db, game.id)
    assert any(a.user_id is None and a.seat in (1, 2, 3) for a in actions)
    assert await service.ai_step(game.id) is None  # nothing left to do


async def test_resigning_ends_a_two_player_game(db: storage.Database) -> None:
    service = GameService(db)
    await start(service, "backgammon")
    result = await service.resign(CHANNEL, 1001)
    assert result.after.finished
    assert result.after.state.outcome.winner == 0
    assert await service.game_in_channel(CHANNEL) is None


async def test_resigning_the_last_human_stops_a_game_against_the_ai(db: storage.Database) -> None:
    service = GameService(db)
    seats = [SeatInfo(0, 1000, "human")] + [SeatInfo(i, None, "AI", "easy") for i in (1, 2, 3)]
    await start(service, "ludo", seats)
    result = await service.resign(CHANNEL, 1000)
    assert result.after.finished
    assert result.after.state.outcome.place_of(0) == 4


async def test_backgammon_step_by_step_with_undo(db: storage.Database) -> None:
    service = GameService(db)
    game = await start(service, "backgammon")
    # the opening roll is made at the start; find a step-by-step choice and undo it
    for _ in range(50):
        if game.state.phase == Phase.MOVE and any(c.token.startswith("s") for c in game.choices()):
            break
        game = await click_through_one(service, game)
    user = game.seat_on_turn.user_id
    assert user is not None
    source = next(c.token for c in game.choices() if c.token.startswith("s"))
    before = game
    game = (await service.act(game.id, user, game.version, source, channel_id=CHANNEL)).after
    assert game.version == before.version + 1 and game.state == before.state
    while game.draft.selected is not None:  # picked a point with several targets: take one
        step = next(c.token for c in game.choices() if c.token.startswith("st"))
        game = (await service.act(game.id, user, game.version, step, channel_id=CHANNEL)).after
    assert game.draft.steps
    game = (await service.act(game.id, user, game.version, "undo", channel_id=CHANNEL)).after
    assert not game.draft.steps and game.state == before.state
    with pytest.raises(StaleAction):  # the buttons drawn before the undo are stale now
        await service.act(game.id, user, before.version, source, channel_id=CHANNEL)


async def click_through_one(service: GameService, game: Game) -> Game:
    user = game.seat_on_turn.user_id
    assert user is not None
    choice = game.choices()[0]
    return (await service.act(game.id, user, game.version, choice.token, channel_id=CHANNEL)).after


@pytest.mark.parametrize("name", ["ur", "ludo", "backgammon"])
async def test_automatic_rolls_come_from_the_seed_and_leave_no_bare_roll(
    db: storage.Database, name: str
) -> None:
    """With automatic rolls, no person's board offers Roll alone, every roll is the seeded
    stream's next (as /verify recomputes it), and a person who turned it off rolls by click."""
    manual = {1001}  # player1 turned automatic rolls off

    async def auto_roll(user_id: int) -> bool:
        return user_id not in manual

    service = GameService(db, auto_roll=auto_roll)
    game = await service.start(
        game=name,
        guild_id=1,
        channel_id=CHANNEL,
        parent_channel_id=None,
        seats=people(4 if name == "ludo" else 2),
        options={"cube": False} if name == "backgammon" else None,  # no decision before a roll
    )
    clicks = 0
    seen_bare_roll = dict.fromkeys(range(1000, 1004), 0)
    rng = random.Random(5)
    while not game.finished and clicks < 6000:
        choices = game.choices()
        tokens = [c.token for c in choices]
        user = game.seat_on_turn.user_id
        assert user is not None
        if tokens == ["roll"]:
            seen_bare_roll[user] += 1
        token = rng.choice(tokens)
        game = (await service.act(game.id, user, game.version, token, channel_id=CHANNEL)).after
        clicks += 1
    assert game.finished
    assert seen_bare_roll[1000] == 0 and seen_bare_roll[1001] > 0, seen_bare_roll
    row = await storage.load_game(db, game.id)
    assert row is not None
    rules = games.get(name).rules
    state = rules.new_game(game.options)
    rolls = 0
    for action in await storage.load_actions(db, game.id):
        if action.kind == "roll":
            rolls += 1
            expected = rules.roll(state, fair_dice.roll_stream(row.dice_seed, game.id, rolls))
            assert rules.notation(state, expected) == action.notation
        state = rules.apply(state, rules.parse(state, action.notation))
    assert rolls == game.rolls > 0


async def test_a_person_newly_on_turn_is_told_once_per_turn(db: storage.Database) -> None:
    """``ActionResult.newly_on_turn`` names the person whose turn began with the change (the
    board pings them, the turn listeners hear it), never the one who plays on or an AI."""
    service = GameService(db)
    heard: list[tuple[int, int | None]] = []
    service.turn_listeners.append(lambda g: heard.append((g.version, g.seat_on_turn.user_id)))
    seats = [SeatInfo(0, 1000, "ann"), SeatInfo(1, 1001, "bob"), SeatInfo(2, None, "AI", "easy")]
    game = await start(service, "ludo", [*seats, SeatInfo(3, None, "AI", "easy")])
    rng = random.Random(11)
    told: list[tuple[int, int | None]] = []
    for _ in range(120):
        if game.finished:
            break
        if game.seat_on_turn.is_ai:
            result = await service.ai_step(game.id)
            assert result is not None
        else:
            user = game.seat_on_turn.user_id
            assert user is not None
            token = rng.choice(game.choices()).token
            result = await service.act(game.id, user, game.version, token, channel_id=CHANNEL)
        before, after = result.before, result.after
        expected = after.seat_on_turn.user_id
        if after.finished or expected in (None, before.seat_on_turn.user_id):
            expected = None
        assert result.newly_on_turn == expected
        if expected is not None:
            told.append((after.version, expected))
        game = after
    assert told and {user for _, user in told} == {1000, 1001}
    assert heard == told
