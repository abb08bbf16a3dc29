"""Two bot processes on one database, as the services see them: each has its own copy of the
games (``GameService``'s cache), and the stored version checks decide. What one process did
is never applied a second time by the other, a click on a board the other process drew is
accepted, and the sweeps of the clocks and the invitations act once whichever runs them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot import storage
from bot.service.challenges import Challenge, ChallengeService, Invitee
from bot.service.clocks import claim_reminders, overdue_turns
from bot.service.games import GameService
from bot.service.models import Game, SeatInfo
from bot.vocabulary.errors import StaleAction
from tests.service.playing import Clock, start_game

CHANNEL = 91
TIMEOUT = 600
SERVER_ON_0 = 4 << 22  # (guild_id >> 22) % 2 == 0
SERVER_ON_1 = 5 << 22


async def timeout_for(guild_id: int | None) -> int:
    return TIMEOUT


@pytest.fixture
async def pair(db: storage.Database) -> AsyncIterator[tuple[GameService, GameService]]:
    """Two services (two processes' views) over one database, sharing a clock."""
    clock = Clock()
    yield (
        GameService(db, clock=clock, timeout_for=timeout_for),
        GameService(db, clock=clock, timeout_for=timeout_for),
    )


async def click(service: GameService, game: Game, index: int = 0) -> Game:
    user = game.seat_on_turn.user_id
    assert user is not None
    token = game.choices()[index].token
    return (await service.act(game.id, user, game.version, token, channel_id=CHANNEL)).after


async def test_a_click_on_a_board_the_other_process_drew_is_applied(
    pair: tuple[GameService, GameService],
) -> None:
    first, second = pair
    game = await start_game(first, "ur", CHANNEL)
    assert (await second.load(game.id)).version == game.version  # second keeps a copy
    game = await click(first, game)  # first moves the game on: second's copy is behind
    game = await click(second, game)  # a click on first's newer board
    stored = await storage.load_game(first.db, game.id)
    assert stored is not None and stored.version == game.version
    actions = await storage.load_actions(first.db, game.id)
    assert len(actions) == stored.action_count


async def test_the_same_click_in_both_processes_is_applied_once(
    pair: tuple[GameService, GameService],
) -> None:
    first, second = pair
    game = await start_game(first, "ur", CHANNEL)
    await second.load(game.id)
    user = game.seat_on_turn.user_id
    assert user is not None
    token = game.choices()[0].token
    outcomes = await asyncio.gather(
        first.act(game.id, user, game.version, token, channel_id=CHANNEL),
        second.act(game.id, user, game.version, token, channel_id=CHANNEL),
        return_exceptions=True,
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["ActionResult", "StaleAction"]
    stored = await storage.load_game(first.db, game.id)
    assert stored is not None and stored.version > game.version
    log = await storage.load_actions(first.db, game.id)
    assert len(log) == stored.action_count
    assert token == "roll" and [a.kind for a in log].count("roll") == 1  # the click, once
    # A click on the board from before stays refused in either process.
    for service in pair:
        with pytest.raises(StaleAction):
            await service.act(game.id, user, game.version, token, channel_id=CHANNEL)


async def test_an_ai_turn_taken_by_both_processes_is_applied_once(
    pair: tuple[GameService, GameService],
) -> None:
    first, second = pair
    seats = (SeatInfo(0, None, "AI", "easy"), SeatInfo(1, 2, "bob"))
    game = await start_game(first, "ur", CHANNEL, seats)
    if not game.seat_on_turn.is_ai:
        game = await click(first, game)  # bob rolls and moves until the AI is on turn
        while not game.seat_on_turn.is_ai and not game.finished:
            game = await click(first, game)
    await second.load(game.id)
    before = await storage.load_game(first.db, game.id)
    assert before is not None
    outcomes = await asyncio.gather(
        first.ai_step(game.id), second.ai_step(game.id), return_exceptions=True
    )
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(refused) == 1 and isinstance(refused[0], StaleAction), outcomes
    after = await storage.load_game(first.db, game.id)
    assert after is not None and after.action_count > before.action_count
    log = await storage.load_actions(first.db, game.id)
    assert len(log) == after.action_count  # no second copy of the AI's action


async def test_clock_sweeps_see_only_their_servers_and_remind_once(
    pair: tuple[GameService, GameService],
) -> None:
    first, second = pair
    clock = first.clock
    assert isinstance(clock, Clock)
    games = {}
    for server, channel in ((SERVER_ON_0, 1), (SERVER_ON_1, 2)):
        games[server] = await first.start(
            game="ur",
            guild_id=server,
            channel_id=channel,
            parent_channel_id=None,
            seats=[SeatInfo(0, 10 + channel, "ann"), SeatInfo(1, 20 + channel, "bob")],
        )
    clock.now += TIMEOUT * 0.6  # past half time: both reminders are due

    def on_shard_0(guild_id: int | None) -> bool:
        return guild_id is None or (guild_id >> 22) % 2 == 0

    async def sweep(service: GameService) -> list[str]:
        return [r.game.id async for r in claim_reminders(service, clock.now, on_shard_0)]

    # Both processes own shard 0 (one by mistake): the reminder is claimed once.
    swept = await asyncio.gather(sweep(first), sweep(second))
    assert sorted(swept, key=len) == [[], [games[SERVER_ON_0].id]]
    # The game on shard 1 is left for its own process, which reminds it once.
    others = [r.game.id async for r in claim_reminders(second, clock.now)]
    assert others == [games[SERVER_ON_1].id]
    clock.now += TIMEOUT
    overdue = await overdue_turns(first, clock.now, on_shard_0)
    assert [game_id for game_id, _ in overdue] == [games[SERVER_ON_0].id]


async def invite(
    service: ChallengeService, guild_id: int, channel_id: int, challenger_id: int, whom: Invitee
) -> Challenge:
    """An invitation to a game of Ur."""
    return await service.create(
        guild_id=guild_id,
        channel_id=channel_id,
        challenger_id=challenger_id,
        invitees=[whom],
        game="ur",
        options={},
    )


async def test_two_expiry_sweeps_expire_an_invitation_once(db: storage.Database) -> None:
    clock = Clock()
    first = ChallengeService(db, timeout=60, clock=clock)
    second = ChallengeService(db, timeout=60, clock=clock)
    challenge = await invite(first, SERVER_ON_1, 5, 1, Invitee(2, "bob"))
    clock.now += 61
    swept = await asyncio.gather(first.expire_due(), second.expire_due())
    assert sorted(len(s) for s in swept) == [0, 1]
    assert [c.id for c in swept[0] + swept[1]] == [challenge.id]
    assert (await first.load(challenge.id)).status == "expired"
    # While one process holds the cluster-wide lock, the other's sweep does nothing.
    clock.now += 61
    late = await invite(second, SERVER_ON_0, 6, 3, Invitee(4, "dan"))
    clock.now += 61
    async with db.exclusive("challenge-expiry") as held:
        assert held
        assert await first.expire_due() == []
    assert [c.id for c in await first.expire_due()] == [late.id]
