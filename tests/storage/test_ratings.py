"""Ratings storage on both backends: a game is rated once, and two games ending at once with
a player in common both count (neither overwrites the other's update)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

from bot.storage import (
    Database,
    GameStatus,
    RatingKey,
    RatingRow,
    SeatResult,
    rate_game,
    rebuild_ratings,
)

from .conftest import T0, human, new_game
from .helpers import all_ratings, append_action, is_rated


def one_more_game(keys: Sequence[RatingKey], finished: float):  # type: ignore[no-untyped-def]
    """A rating update that counts one more game for each key (a stand-in for the model)."""

    def update(current: Mapping[RatingKey, RatingRow]) -> list[RatingRow]:
        rows = []
        for scope, game, user in keys:
            old = current.get((scope, game, user))
            games = 1 if old is None else old.games + 1
            rows.append(RatingRow(scope, game, user, 25.0, 8.0, 1.0, games, updated=finished))
        return rows

    return update


async def finished_game(db: Database, game_id: str, channel: int, users: tuple[int, int]) -> None:
    await new_game(db, game_id, channel_id=channel, seats=(human(0, users[0]), human(1, users[1])))
    await append_action(
        db,
        game_id,
        0,
        0,
        users[0],
        "move",
        "last",
        "{}",
        T0 + 10,
        status=GameStatus.FINISHED,
        results=[
            SeatResult(0, users[0], 1, 1, "win", "normal"),
            SeatResult(1, users[1], 2, -1, "win", "normal"),
        ],
    )


async def test_a_game_is_rated_once(db: Database) -> None:
    await finished_game(db, "g1", 1, (11, 22))
    keys = [("global", "ur", 11), ("global", "ur", 22)]
    assert await rate_game(db, "g1", T0, keys, one_more_game(keys, T0)) is True
    assert await rate_game(db, "g1", T0, keys, one_more_game(keys, T0)) is False
    assert await is_rated(db, "g1")
    assert [(r.user_id, r.games) for r in await all_ratings(db)] == [(11, 1), (22, 1)]


async def test_two_games_rated_at_once_on_two_connections_both_count(
    db: Database, db_url: str
) -> None:
    other = await Database.open(db_url)
    try:
        for round_ in range(4):
            a, b = f"a{round_}", f"b{round_}"
            await finished_game(db, a, 10 + round_, (11, 22))
            await finished_game(db, b, 20 + round_, (11, 33))  # 11 played both
            keys_a = [("global", "ur", 11), ("global", "ur", 22)]
            keys_b = [("global", "ur", 11), ("global", "ur", 33)]
            outcomes = await asyncio.gather(
                rate_game(db, a, T0, keys_a, one_more_game(keys_a, T0)),
                rate_game(other, b, T0, keys_b, one_more_game(keys_b, T0)),
            )
            assert outcomes == [True, True]
        counted = {r.user_id: r.games for r in await all_ratings(db)}
        assert counted == {11: 8, 22: 4, 33: 4}  # no update of 11's row was lost
    finally:
        await other.close()


async def test_a_rebuild_replaces_ratings_and_the_ledger(db: Database) -> None:
    await finished_game(db, "g1", 1, (11, 22))
    keys = [("global", "ur", 11)]
    await rate_game(db, "g1", T0, keys, one_more_game(keys, T0))

    def rebuild(results: list[object]) -> tuple[list[RatingRow], list[tuple[str, float]]]:
        assert len(results) == 2  # both seats of the one rated, finished game
        row = RatingRow("global", "ur", 22, 30.0, 7.0, 9.0, 1, 1, updated=T0)
        return [row], [("g1", T0)]

    assert await rebuild_ratings(db, rebuild) == 1  # type: ignore[arg-type]
    assert [(r.user_id, r.mu) for r in await all_ratings(db)] == [(22, 30.0)]
    assert await is_rated(db, "g1")
