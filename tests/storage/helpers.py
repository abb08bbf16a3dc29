"""Reads and writes only the tests need, built on the storage API the bot uses.

Kept out of :mod:`bot.storage` because the bot never calls them: a test checks what is stored
with them, or sets a game up with them.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import asyncpg

from bot.storage import (
    KEEP,
    ActionKind,
    ChallengeRow,
    Database,
    GameStatus,
    Keep,
    NewAction,
    RatingRow,
    SeatResult,
    StorageError,
    append_actions,
    load_challenge,
    load_game,
)
from bot.storage.database import Params, Row, locate


async def rows(db: Database, sql: str, params: Params = ()) -> list[Row]:
    """Every row of one query, in a read transaction of its own."""
    return await db.read(lambda tx: tx.fetchall(sql, params))


async def value(db: Database, sql: str, params: Params = ()) -> Any:
    """The first column of the first row of one query, or None."""
    return await db.read(lambda tx: tx.fetchval(sql, params))


def count_now(url: str, sql: str) -> int:
    """One query's number, on a connection of its own, blocking the caller (no event loop
    needed): what another process sees now."""
    location = locate(url)
    if location.backend == "sqlite":
        with contextlib.closing(sqlite3.connect(location.target)) as raw:
            return int(raw.execute(sql).fetchone()[0])

    async def ask() -> int:
        conn = await asyncpg.connect(url)
        try:
            return int(await conn.fetchval(sql))
        finally:
            await conn.close()

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, ask()).result()


async def append_action(
    db: Database,
    game_id: str,
    expected_version: int,
    seat: int | None,
    user_id: int | None,
    kind: str,
    notation: str,
    new_state_json: str,
    now: float,
    *,
    draft_json: str | None = None,
    turn_deadline: float | Keep | None = KEEP,
    resigned_seats: Sequence[int] = (),
    status: GameStatus | str | None = None,
    results: Sequence[SeatResult] | None = None,
) -> int:
    """:func:`bot.storage.append_actions` with one action given by its fields."""
    return await append_actions(
        db,
        game_id,
        expected_version,
        (NewAction(seat, user_id, kind, notation),),
        new_state_json,
        now,
        draft_json=draft_json,
        turn_deadline=turn_deadline,
        resigned_seats=resigned_seats,
        status=status,
        results=results,
    )


async def abandon(db: Database, game_id: str, expected_version: int, now: float) -> int:
    """End the game with an abandon action and no results; returns the new version."""
    game = await load_game(db, game_id)
    if game is None:
        raise StorageError(f"no game {game_id!r} to abandon")
    return await append_action(
        db,
        game_id,
        expected_version,
        None,
        None,
        ActionKind.ABANDON,
        "abandon",
        game.state_json,
        now,
        status=GameStatus.ABANDONED,
    )


async def pending_challenges(db: Database) -> list[ChallengeRow]:
    """Every pending challenge, oldest first."""
    found = await rows(
        db, "SELECT id FROM challenges WHERE status = 'pending' ORDER BY created_at, id"
    )
    challenges = [await load_challenge(db, row["id"]) for row in found]
    return [c for c in challenges if c is not None]


async def all_ratings(db: Database) -> list[RatingRow]:
    """Every rating row, in key order."""
    found = await rows(
        db,
        "SELECT scope, game, user_id, mu, sigma, ordinal, games, wins, losses, streak, updated "
        "FROM ratings ORDER BY scope, game, user_id",
    )
    return [RatingRow(**dict(row)) for row in found]


async def is_rated(db: Database, game_id: str) -> bool:
    """True once the game is in the rated-games ledger."""
    return await value(db, "SELECT 1 FROM rated_games WHERE game_id = ?", (game_id,)) is not None
