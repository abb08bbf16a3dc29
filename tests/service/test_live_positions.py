"""The index of live rated positions through the service: every move of a rated game moves
its entry, the end removes it, unrated games have none; ``refuse_live_position`` (what
/analyze asks) and /hint refuse exactly the positions standing on a live rated board."""

from __future__ import annotations

import pytest

from bot import games, storage
from bot.service.games import GameService
from bot.service.models import Game
from bot.service.review import ReviewService, ReviewUnavailable
from bot.vocabulary.errors import TabulaError
from bot.vocabulary.options import HINTS
from tests.service.playing import click_to_end, start_game

KIND = "backgammon"


def key_of(game: Game) -> str:
    tools = games.get(KIND).positions
    assert tools is not None
    return tools.key(game.state)


async def held(db: storage.Database, game: Game) -> list[str]:
    return await storage.live_position_holders(db, [KIND], key_of(game))


async def refused(service: GameService, game: Game) -> bool:
    try:
        await service.refuse_live_position(KIND, game.state)
    except TabulaError as error:
        assert error.key == "analyze.live_rated"
        return True
    return False


async def test_a_rated_match_is_indexed_move_by_move_until_it_ends(db: storage.Database) -> None:
    service = GameService(db)
    game = await start_game(service, KIND, 41, options={"match_length": 3})
    assert await held(db, game) == [game.id] and await refused(service, game)
    keys = set()
    for step in range(30):  # no doubles: the match cannot end within 30 clicks
        game = await click_to_end(service, game, seed=step, channel_id=41, clicks=1, skip={"dbl"})
        assert not game.finished
        keys.add(key_of(game))
        assert await held(db, game) == [game.id], f"step {step}"
        count = await db.read(lambda tx: tx.fetchval("SELECT COUNT(*) FROM live_positions"))
        assert count == 1  # the game's one entry, replaced by each move
    assert len(keys) >= 3  # a key per move played (a click may be a roll or a draft step)
    on_board = game
    user = game.seat_on_turn.user_id
    assert user is not None
    ended = (await service.resign_game(game.id, user)).after
    assert ended.finished
    assert await held(db, on_board) == [] and not await refused(service, on_board)


async def test_an_unrated_game_is_not_indexed(db: storage.Database) -> None:
    service = GameService(db)
    game = await start_game(service, KIND, 42, options={"match_length": 3}, rated=False)
    game = await click_to_end(service, game, seed=1, channel_id=42, clicks=5)
    assert await held(db, game) == [] and not await refused(service, game)


async def test_hint_refuses_a_position_standing_on_a_rated_board(db: storage.Database) -> None:
    """An unrated game with hints that reaches the board of a live rated game (the opening
    position, here: both are at their first roll) gets no hint until the rated one moves on
    or ends."""
    service = GameService(db)
    rated = await start_game(service, KIND, 43)
    practice = await start_game(service, KIND, 44, options={HINTS: True}, rated=False)
    assert key_of(practice) == key_of(rated)
    user = practice.seat_on_turn.user_id
    assert user is not None
    with pytest.raises(TabulaError) as caught:
        await service.hint(44, user)
    assert caught.value.key == "analyze.live_rated"
    loser = rated.seat_on_turn.user_id
    assert loser is not None
    await service.resign_game(rated.id, loser)
    with pytest.raises(TabulaError) as caught:
        await service.hint(44, user)  # now asks the engine, which this service has not got
    assert caught.value.key != "analyze.live_rated"


async def test_games_from_before_the_index_get_their_entry_at_start(
    db: storage.Database,
) -> None:
    service = GameService(db)
    game = await start_game(service, KIND, 45)
    await start_game(service, KIND, 46, rated=False)
    await db.write(lambda tx: tx.execute("DELETE FROM live_positions"))
    assert await held(db, game) == []
    assert await GameService(db).index_live_positions() == 1  # a restarted process
    assert await held(db, game) == [game.id]
    assert await GameService(db).index_live_positions() == 0


async def test_no_puzzle_is_taken_from_a_game_in_play(db: storage.Database) -> None:
    """Server puzzles come from reviews (``on_review``), and a game in play has none."""
    told: list[object] = []

    async def on_review(*args: object) -> None:
        told.append(args)

    service = GameService(db)
    game = await start_game(service, KIND, 47)
    game = await click_to_end(service, game, seed=3, channel_id=47, clicks=6, skip={"dbl"})
    reviews = ReviewService(db, None, on_review=on_review)
    with pytest.raises(ReviewUnavailable) as refused:
        await reviews.review(game.id)
    assert refused.value.key == "error.review_not_finished" and told == []


async def test_a_variants_live_rated_board_is_refused_to_the_analysis(
    db: storage.Database,
) -> None:
    """A position pasted into /analyze is read as the first game with position tools reads it;
    a rated game of a variant whose positions are written alike (its GNU IDs and XGIDs) holds
    its board as surely as one of the game itself."""
    variants = [kind for kind in games.sharing_positions(KIND) if kind != KIND]
    assert variants, "no variant shares the game's positions"
    service = GameService(db)
    for n, kind in enumerate(variants):
        rated = await start_game(service, kind, 60 + n)
        rated = await click_to_end(service, rated, seed=n, channel_id=60 + n, clicks=3)
        assert not rated.finished
        assert await refused(service, rated)  # asked as the first game's position
        assert await storage.live_position_holders(db, [KIND], key_of(rated)) == []
        loser = rated.seat_on_turn.user_id
        assert loser is not None
        await service.resign_game(rated.id, loser)
        assert not await refused(service, rated)
