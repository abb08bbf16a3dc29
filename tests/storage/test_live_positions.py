"""The index of live rated positions on both backends: written by the transaction that
commits a move (and the one that creates the game), replaced by the next, gone with the
game's end, untouched by a move that fails, seen by another connection and after a reopen."""

from __future__ import annotations

import pytest

from bot.storage import (
    Database,
    GameStatus,
    SeatResult,
    VersionConflict,
    create_game,
    index_live_positions,
    live_position_holders,
    live_positions_standing,
)

from .conftest import T0, human, new_game
from .helpers import abandon, append_action, count_now, value

BG = "backgammon"
WIN = (
    SeatResult(seat=0, user_id=11, place=1, points=1, outcome_kind="win", reason="resign"),
    SeatResult(seat=1, user_id=22, place=2, points=-1, outcome_kind="win", reason="resign"),
)


async def rated_game(db: Database, game_id: str, key: str, channel_id: int = 100) -> None:
    await create_game(
        db,
        game_id=game_id,
        game=BG,
        guild_id=1,
        channel_id=channel_id,
        state_json="{}",
        seats=(human(0, 11), human(1, 22)),
        dice_seed="seed",
        dice_seed_hash="hash",
        rated=True,
        now=T0,
        live_position=key,
    )


async def move(db: Database, game_id: str, version: int, key: str | None, **more: object) -> int:
    return await append_action(
        db, game_id, version, 0, 11, "move", "8/5 6/5", "{}", T0 + 1, live_position=key, **more
    )


async def test_the_first_position_is_indexed_with_the_game(db: Database) -> None:
    await rated_game(db, "g1", "start")
    assert await live_position_holders(db, [BG], "start") == ["g1"]
    assert await live_position_holders(db, ["ur"], "start") == []  # keyed per kind of game
    assert await live_position_holders(db, [BG], "other") == []


async def test_which_of_many_keys_stand_on_live_boards_is_one_read(db: Database) -> None:
    await rated_game(db, "g1", "A")
    await rated_game(db, "g2", "B", channel_id=101)
    await rated_game(db, "g3", "A", channel_id=102)
    asked = ["A", "B", "C", *(f"k{n}" for n in range(1200))]  # more than one statement's worth
    assert await live_positions_standing(db, [BG], asked) == {"A", "B"}
    assert await live_positions_standing(db, ["ur"], asked) == set()  # keyed per kind of game
    assert await live_positions_standing(db, [BG], []) == set()
    await abandon(db, "g2", 0, T0 + 1)
    assert await live_positions_standing(db, [BG], ["A", "B"]) == {"A"}  # g2 ended


async def test_each_move_replaces_the_games_position(db: Database) -> None:
    await rated_game(db, "g1", "A")
    await rated_game(db, "g2", "A", channel_id=101)
    assert await live_position_holders(db, [BG], "A") == ["g1", "g2"]
    version = await move(db, "g1", 0, "B")
    assert await live_position_holders(db, [BG], "A") == ["g2"]
    assert await live_position_holders(db, [BG], "B") == ["g1"]
    await move(db, "g1", version, "A")
    assert await live_position_holders(db, [BG], "A") == ["g1", "g2"]
    assert await live_position_holders(db, [BG], "B") == []


async def test_a_move_refused_by_the_version_check_leaves_the_index(db: Database) -> None:
    await rated_game(db, "g1", "A")
    await move(db, "g1", 0, "B")
    with pytest.raises(VersionConflict):
        await move(db, "g1", 0, "C")  # a stale click
    assert await live_position_holders(db, [BG], "B") == ["g1"]
    assert await live_position_holders(db, [BG], "C") == []


@pytest.mark.parametrize("ending", ["finished", "abandoned"])
async def test_the_end_of_the_game_removes_its_position(db: Database, ending: str) -> None:
    await rated_game(db, "g1", "A")
    await rated_game(db, "g2", "A", channel_id=101)
    if ending == "finished":
        await move(db, "g1", 0, "ignored", status=GameStatus.FINISHED, results=WIN)
    else:
        await abandon(db, "g1", 0, T0 + 1)
    assert await live_position_holders(db, [BG], "A") == ["g2"]
    assert await live_position_holders(db, [BG], "ignored") == []


async def test_an_unindexed_game_writes_nothing(db: Database) -> None:
    await new_game(db, game=BG, rated=False)  # what the service does for an unrated game
    await move(db, "g1", 0, None)
    assert await value(db, "SELECT COUNT(*) FROM live_positions") == 0


async def test_another_connection_and_a_reopened_database_see_it(db_url: str) -> None:
    db = await Database.open(db_url)
    try:
        await rated_game(db, "g1", "A")
        await move(db, "g1", 0, "B")
        sql = "SELECT COUNT(*) FROM live_positions WHERE position_key = 'B'"
        assert count_now(db_url, sql) == 1  # another process, at once
    finally:
        await db.close()
    reopened = await Database.open(db_url)  # a restart
    try:
        assert await live_position_holders(reopened, [BG], "B") == ["g1"]
    finally:
        await reopened.close()


async def test_games_from_before_the_index_are_added_once_at_their_version(
    db: Database,
) -> None:
    await new_game(db, "old", game=BG)  # started before the index: no entry
    await new_game(db, "moved", game=BG, channel_id=101)
    await move(db, "moved", 0, None)  # at version 1 now: a key read at 0 is stale
    await new_game(db, "over", game=BG, channel_id=102)
    await abandon(db, "over", 0, T0)
    await rated_game(db, "kept", "K", channel_id=103)
    written = await index_live_positions(
        db, [("old", 0, "A"), ("moved", 0, "A"), ("over", 0, "A"), ("kept", 0, "A")]
    )
    assert written == 1
    assert await live_position_holders(db, [BG], "A") == ["old"]
    assert await live_position_holders(db, [BG], "K") == ["kept"]  # its own entry wins
    assert await index_live_positions(db, []) == 0
