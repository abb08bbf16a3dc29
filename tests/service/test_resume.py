"""The resume sweep's question, on both backends: which active games of ours wait for the bot
(an AI seat on turn, a board behind its stored version), how long they have been idle, and a
game cached at an older version than the stored one is read again (a COMMIT whose answer was
lost stored it after all)."""

from __future__ import annotations

from bot import storage
from bot.service.games import GameService
from bot.service.models import SeatInfo
from bot.service.resume import waiting_games

from .playing import PAIR, Clock, mark_shown, start_game

AI_FIRST = [SeatInfo(0, None, "AI", ai_level="easy"), SeatInfo(1, 10, "ann")]  # Ur: seat 0 starts


def ours(guild_id: int | None) -> bool:
    return guild_id == 1


async def test_the_games_that_wait_for_the_bot(db: storage.Database) -> None:
    clock = Clock()
    service = GameService(db, clock=clock)
    people = await start_game(service, "ur", 1)
    against_ai = await start_game(service, "ur", 2, AI_FIRST)
    assert against_ai.seat_on_turn.is_ai
    shown = {people.id: people.version, against_ai.id: against_ai.version}
    await mark_shown(db, shown)
    clock.now += 30

    found = {w.game.id: w for w in await waiting_games(service, ours)}
    assert found[against_ai.id].ai_on_turn and not found[against_ai.id].board_behind
    assert found[against_ai.id].idle_seconds == 30
    assert people.id not in found  # people on turn, board current: nothing for the bot
    assert not await waiting_games(service, lambda guild_id: False)  # another process's

    # A change stored, its board never drawn (Discord refused, the process died).
    board = people.seat_on_turn.user_id
    assert board is not None
    await service.act(people.id, board, people.version, "roll", channel_id=1)
    (waiting,) = [w for w in await waiting_games(service, ours) if w.game.id == people.id]
    assert waiting.board_behind and not waiting.ai_on_turn
    assert waiting.idle_seconds == 0  # changed just now: left to whoever is drawing it


async def test_a_game_cached_behind_the_stored_one_is_read_again(db: storage.Database) -> None:
    service = GameService(db)
    game = await start_game(service, "ur", 3, PAIR)
    elsewhere = GameService(db)  # another process (or a COMMIT whose answer was lost)
    user = game.seat_on_turn.user_id
    assert user is not None
    after = (await elsewhere.act(game.id, user, game.version, "roll", channel_id=3)).after
    (waiting,) = await waiting_games(service, ours)
    assert waiting.game.version == after.version and waiting.board_behind


async def test_only_games_that_may_wait_for_the_bot_are_read(db: storage.Database) -> None:
    """The sweep asks storage for candidates: a game with a person on turn and its board
    shown is not even read, and one whose flag was only a maybe is cleared on first look."""
    service = GameService(db)
    people = await start_game(service, "ur", 4)
    against_ai = await start_game(service, "ur", 5, AI_FIRST)
    await mark_shown(db, {people.id: people.version, against_ai.id: against_ai.version})
    # A new game's flag is a maybe (1): its first look finds a person on turn and clears it.
    heads = {h.id for h in await storage.heads_waiting_for_the_bot(db)}
    assert heads == {people.id, against_ai.id}
    assert [w.game.id for w in await waiting_games(service, ours)] == [against_ai.id]
    assert {h.id for h in await storage.heads_waiting_for_the_bot(db)} == {against_ai.id}

    # Each commit writes the flag: a person's roll leaves a person on turn (the board behind
    # until shown), and after it is shown the game is no candidate at all.
    user = people.seat_on_turn.user_id
    assert user is not None
    after = (await service.act(people.id, user, people.version, "roll", channel_id=4)).after
    assert people.id in {h.id for h in await storage.heads_waiting_for_the_bot(db)}
    await mark_shown(db, {people.id: after.version})
    assert people.id not in {h.id for h in await storage.heads_waiting_for_the_bot(db)}
    service.forget(people.id)
    await waiting_games(service, ours)
    assert service.live.cached(people.id) is None  # never read again by the sweep


async def test_a_seat_the_ai_takes_over_is_a_candidate_again(db: storage.Database) -> None:
    service = GameService(db)
    game = await start_game(service, "ur", 6)
    await mark_shown(db, {game.id: game.version})
    await waiting_games(service, ours)  # the maybe cleared: a person is on turn
    assert not await storage.heads_waiting_for_the_bot(db)
    await storage.set_stand_in(db, game.id, game.seat_on_turn.seat, "easy")
    assert [h.id for h in await storage.heads_waiting_for_the_bot(db)] == [game.id]


async def test_one_games_board_behind_agrees_with_the_list(db: storage.Database) -> None:
    """The start-up redraw asks again, game by game, once a board this process was drawing
    meanwhile is marked: behind until its stored version is shown, never once it is over."""
    service = GameService(db)
    game = await start_game(service, "ur", 7)
    listed = {g.id for g in await service.boards_behind()}
    assert game.id in listed and await service.board_behind(game.id)
    await mark_shown(db, {game.id: game.version})
    assert not await service.board_behind(game.id)
    assert game.id not in {g.id for g in await service.boards_behind()}
    user = game.seat_on_turn.user_id
    assert user is not None
    after = (await service.act(game.id, user, game.version, "roll", channel_id=7)).after
    assert await service.board_behind(game.id)
    await mark_shown(db, {game.id: after.version})
    assert not await service.board_behind(game.id)
    assert not await service.board_behind("00000000")  # no such game
