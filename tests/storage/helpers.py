"""Reads and writes only the tests need, built on the storage API the bot uses.

Kept out of :mod:`bot.storage` because the bot never calls them: a test checks what is stored
with them, or sets a game up with them.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import asyncpg

from bot.storage import (
    ActionKind,
    ChallengeRow,
    Database,
    GameStatus,
    NewAction,
    RatingRow,
    StorageError,
    append_actions,
    load_challenge,
    load_game,
)
from bot.storage.database import Params, Row, locate

from .pg import fresh_database

ROOT = Path(__file__).resolve().parents[2]


async def rows(db: Database, sql: str, params: Params = ()) -> list[Row]:
    """Every row of one query, in a read transaction of its own."""
    return await db.read(lambda tx: tx.fetchall(sql, params))


async def value(db: Database, sql: str, params: Params = ()) -> Any:
    """The first column of the first row of one query, or None."""
    return await db.read(lambda tx: tx.fetchval(sql, params))


async def schema(db: Database) -> list[tuple[object, ...]]:
    """Everything that defines the schema: tables, columns, indexes, constraints."""
    if db.backend == "sqlite":
        sql = (
            "SELECT type, name, tbl_name, sql FROM sqlite_schema "
            "WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name"
        )
        return [tuple(row) for row in await rows(db, sql)]
    columns = await rows(
        db,
        "SELECT table_name, column_name, data_type, is_nullable, column_default "
        "FROM information_schema.columns WHERE table_schema = 'public' "
        "ORDER BY table_name, column_name",
    )
    indexes = await rows(
        db, "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1"
    )
    constraints = await rows(
        db,
        "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2",
    )
    return [tuple(row) for row in [*columns, *indexes, *constraints]]


@contextlib.asynccontextmanager
async def another_database(backend: str, tmp_path: Path, name: str) -> AsyncIterator[str]:
    """A new, empty database of ``backend`` for the block, its URL: the file ``name`` in
    ``tmp_path``, or a PostgreSQL database of its own."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / name}"
        return
    async with fresh_database() as url:
        yield url


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
    **options: Any,
) -> int:
    """:func:`bot.storage.append_actions` with one action given by its fields (``options``:
    that function's keyword arguments)."""
    return await append_actions(
        db,
        game_id,
        expected_version,
        (NewAction(seat, user_id, kind, notation),),
        new_state_json,
        now,
        **options,
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


@contextlib.contextmanager
def holding_process(script: str, argument: str, says: str) -> Iterator[subprocess.Popen[str]]:
    """``python -c script argument`` in another process, once it printed ``says``: it holds
    something (a lock, the file) until a line on its stdin, or until it is killed; it is
    killed when the block ends if it still runs."""
    proc = subprocess.Popen(
        [sys.executable, "-c", script, argument],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.strip() == says, proc.stderr.read() if proc.stderr else line
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
