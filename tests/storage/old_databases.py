"""Databases as the code before the one numbered history left them, built by hand: SQLite
runs each old step's script, then sets ``PRAGMA user_version``; PostgreSQL runs each step,
then adds its row to ``schema_version``. Each old step's SQL is the shared step of the same
name: the files were renamed, not rewritten (only their comments changed)."""

from __future__ import annotations

import contextlib
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import asyncpg

from bot.storage import Migration, load_migrations

# The histories each dialect had before they shared one: old number n is the n-th name.
OLD_HISTORY = {
    "sqlite": (
        "initial",
        "seat_stand_in",
        "ratings",
        "reviews",
        "challenge_answers",
        "board_shown",
        "puzzles",
        "preferences",
        "tournaments",
        "notices",
        "follows",
        "live_positions",
        "skill",
        "ai_turn",
    ),
    "postgresql": (
        "initial",
        "puzzles",
        "preferences",
        "tournaments",
        "notices",
        "follows",
        "live_positions",
        "skill",
        "ai_turn",
    ),
}
# What the old PostgreSQL code made before its first step (unchanged since).
OLD_SCHEMA_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    "version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
    "applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
)
# Rows in the first schema's tables, literal so both drivers run them as they are.
FIRST_ROWS = """
INSERT INTO games (id, game, guild_id, channel_id, state_json, version, action_count,
                   dice_seed_hash, dice_seed, created_at, updated_at)
    VALUES ('old-game', 'ur', 5, 50, '{}', 1, 1, 'h', 's', 1700000000.0, 1700000000.0);
INSERT INTO seats (game_id, seat, user_id, display_name)
    VALUES ('old-game', 0, 11, 'ann'), ('old-game', 1, 22, 'ben');
INSERT INTO actions (game_id, seq, seat, user_id, kind, notation, created_at)
    VALUES ('old-game', 1, 0, 11, 'roll', 'roll 2', 1700000000.0);
INSERT INTO challenges (channel_id, challenger_id, invitee_ids_json, game, status,
                        created_at, expires_at)
    VALUES (50, 11, '[22]', 'ur', 'declined', 1700000000.0, 1700000060.0);
INSERT INTO guild_settings VALUES (5, 1, 60, '["ur"]');
"""
# Rows in tables later steps made, written when the old database has them.
LATER_ROWS = {
    "preferences": "INSERT INTO preferences VALUES (11, 'theme', 'dark');",
    "follows": "INSERT INTO follows VALUES ('old-game', 22, 1);",
}


def step_named(backend: str, name: str) -> Migration:
    """The shared step ``name`` of ``backend``."""
    return next(m for m in load_migrations(backend) if m.name == name)  # type: ignore[arg-type]


def applied_at(old_version: int) -> datetime:
    """When the old step was applied, as the fixture records it (distinct per step)."""
    return datetime(2025, 1, old_version, 12, tzinfo=UTC)


def old_sql(backend: str, version: int) -> list[tuple[int, str, str]]:
    """The old steps 1..version of ``backend``: (old number, name, SQL)."""
    names = OLD_HISTORY[backend][:version]
    return [(n, name, step_named(backend, name).sql) for n, name in enumerate(names, start=1)]


def rows_for(names: tuple[str, ...]) -> str:
    """The rows a database with the old steps ``names`` is given."""
    return FIRST_ROWS + "".join(sql for table, sql in LATER_ROWS.items() if table in names)


def build_old_sqlite(path: Path, version: int, *, with_rows: bool = True) -> None:
    """A SQLite file at ``version`` of SQLite's old numbering; ``with_rows``: holding the
    rows of :data:`FIRST_ROWS` and of :data:`LATER_ROWS` whose tables it has."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        for number, _name, sql in old_sql("sqlite", version):
            conn.executescript(sql)
            conn.execute(f"PRAGMA user_version = {number}")
        if with_rows:
            conn.executescript(rows_for(OLD_HISTORY["sqlite"][:version]))


async def build_old_postgresql(url: str, version: int, *, with_rows: bool = True) -> None:
    """The empty PostgreSQL database ``url`` brought to ``version`` of PostgreSQL's old
    numbering, each step recorded as applied at :func:`applied_at`; ``with_rows``: as
    :func:`build_old_sqlite`."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(OLD_SCHEMA_TABLE)
        for number, name, sql in old_sql("postgresql", version):
            async with conn.transaction():
                await conn.execute(sql)
                await conn.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                    number,
                    name,
                    applied_at(number),
                )
        if with_rows:
            await conn.execute(rows_for(OLD_HISTORY["postgresql"][:version]))
    finally:
        await conn.close()


async def build_old(backend: str, url: str, version: int) -> None:
    """The empty database ``url`` of ``backend`` brought to its old ``version``, with rows."""
    if backend == "sqlite":
        build_old_sqlite(Path(url.removeprefix("sqlite:///")), version)
    else:
        await build_old_postgresql(url, version)


async def recorded_steps(url: str) -> list[tuple[object, ...]]:
    """The rows of PostgreSQL's ``schema_version`` at ``url``, read on a connection of its own."""
    conn = await asyncpg.connect(url)
    try:
        found = await conn.fetch("SELECT version, name, applied_at FROM schema_version ORDER BY 1")
        return [tuple(r) for r in found]
    finally:
        await conn.close()
