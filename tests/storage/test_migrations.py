"""Migrations on both backends: one numbered history, applied once and in order, from empty
and from every older version, and exactly once when several processes start together."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bot.storage import (
    Database,
    GuildSettings,
    Migration,
    SchemaError,
    Transaction,
    get_guild_settings,
    load_actions,
    load_challenge,
    load_game,
    load_migrations,
)
from bot.storage.database import check_migrations, locate

from .conftest import BACKENDS, T0
from .helpers import another_database, rows, schema

ROOT = Path(__file__).resolve().parents[2]


def numbered(*scripts: str) -> list[Migration]:
    return [Migration(n, f"step{n}", sql) for n, sql in enumerate(scripts, start=1)]


# -- the packaged migrations --------------------------------------------------------------


def test_packaged_migrations_are_found_per_backend(backend: str) -> None:
    migrations = load_migrations(backend)  # type: ignore[arg-type]
    assert migrations[0].version == 1 and migrations[0].name == "initial"
    assert "CREATE TABLE games" in migrations[0].sql
    check_migrations(migrations)


def test_migration_numbers_must_run_without_gaps() -> None:
    check_migrations(numbered("SELECT 1;", "SELECT 2;"))
    with pytest.raises(SchemaError):
        check_migrations([Migration(1, "a", ""), Migration(3, "c", "")])
    with pytest.raises(SchemaError):
        check_migrations([Migration(2, "b", "")])


async def test_migrating_from_empty_gives_the_schema_and_its_version(
    empty_db_url: str, backend: str
) -> None:
    async with await Database.open(empty_db_url) as db:
        assert db.schema_version == len(load_migrations(db.backend))
        if backend == "postgresql":
            applied = await rows(db, "SELECT version, name FROM schema_version ORDER BY version")
            assert [(r[0], r[1]) for r in applied] == [
                (m.version, m.name) for m in load_migrations("postgresql")
            ]


OLDER = [(b, k) for b in BACKENDS for k in range(1, len(load_migrations(b)))]  # type: ignore[arg-type]


@pytest.mark.parametrize(("backend", "version"), OLDER, ids=[f"{b}-v{k}" for b, k in OLDER])
async def test_every_older_version_migrates_to_the_latest_and_keeps_its_data(
    backend: str, version: int, tmp_path: Path
) -> None:
    """A database left at ``version`` (with data in the first schema's columns) reaches the
    same schema as one migrated from empty, and its rows still load."""
    migrations = load_migrations(backend)  # type: ignore[arg-type]
    async with (
        another_database(backend, tmp_path, "old.db") as old_url,
        another_database(backend, tmp_path, "new.db") as new_url,
    ):
        async with await Database.open(old_url, migrations=migrations[:version]) as old:
            assert old.schema_version == version
            await old.write(_first_schema_rows)
        async with await Database.open(old_url) as upgraded, await Database.open(new_url) as new:
            assert upgraded.schema_version == new.schema_version == len(migrations)
            assert await schema(upgraded) == await schema(new)
            game = await load_game(upgraded, "old-game")
            assert game is not None and [s.stand_in for s in game.seats] == [None, None]
            assert (game.version, game.shown_version, game.message_seq) == (1, None, 0)
            assert [a.notation for a in await load_actions(upgraded, "old-game")] == ["roll 2"]
            challenge = await load_challenge(upgraded, 1)
            assert challenge is not None and challenge.invitee_ids == (22,)
            assert challenge.rematch_of is None
            settings = await get_guild_settings(upgraded, 5)
            assert settings == GuildSettings(5, True, 60, ("ur",))


def _first_schema_rows(tx: Transaction) -> None:
    """Rows in the columns migration 0001 made (present at every version)."""
    tx.execute(
        "INSERT INTO games (id, game, guild_id, channel_id, state_json, version, action_count, "
        "dice_seed_hash, dice_seed, created_at, updated_at) "
        "VALUES ('old-game', 'ur', 5, 50, '{}', 1, 1, 'h', 's', ?, ?)",
        (T0, T0),
    )
    tx.executemany(
        "INSERT INTO seats (game_id, seat, user_id, display_name) VALUES ('old-game', ?, ?, ?)",
        [(0, 11, "ann"), (1, 22, "ben")],
    )
    tx.execute(
        "INSERT INTO actions (game_id, seq, seat, user_id, kind, notation, created_at) "
        "VALUES ('old-game', 1, 0, 11, 'roll', 'roll 2', ?)",
        (T0,),
    )
    tx.execute(
        "INSERT INTO challenges (channel_id, challenger_id, invitee_ids_json, game, status, "
        "created_at, expires_at) VALUES (50, 11, '[22]', 'ur', 'declined', ?, ?)",
        (T0, T0 + 60),
    )
    tx.execute("INSERT INTO guild_settings VALUES (5, 1, 60, ?)", (json.dumps(["ur"]),))


# -- applying them ------------------------------------------------------------------------


async def test_migrations_apply_in_order_and_only_once(empty_db_url: str) -> None:
    steps = numbered(
        "CREATE TABLE log (step INTEGER);",
        "INSERT INTO log VALUES (2);",
        "INSERT INTO log VALUES (3);",
    )
    db = await Database.open(empty_db_url, migrations=steps[:2])
    assert db.schema_version == 2
    await db.close()

    db = await Database.open(empty_db_url, migrations=steps)
    try:
        assert db.schema_version == 3
        assert [r[0] for r in await rows(db, "SELECT step FROM log ORDER BY step")] == [2, 3]
    finally:
        await db.close()


async def test_a_failing_migration_rolls_back_alone(empty_db_url: str) -> None:
    steps = numbered(
        "CREATE TABLE t (x INTEGER);",
        "INSERT INTO t VALUES (1); INSERT INTO missing VALUES (1);",
    )
    with pytest.raises(SchemaError, match="0002_step2"):
        await Database.open(empty_db_url, migrations=steps)

    db = await Database.open(empty_db_url, migrations=steps[:1])
    try:
        assert db.schema_version == 1  # the first step stayed applied
        assert await rows(db, "SELECT x FROM t") == []  # the second left nothing
    finally:
        await db.close()


async def test_a_database_newer_than_the_code_is_refused(empty_db_url: str) -> None:
    steps = numbered("CREATE TABLE a (x INTEGER);", "CREATE TABLE b (x INTEGER);")
    await (await Database.open(empty_db_url, migrations=steps)).close()
    with pytest.raises(SchemaError, match="newer"):
        await Database.open(empty_db_url, migrations=steps[:1])


MIGRATOR = textwrap.dedent(
    """
    import asyncio, logging, sys, time
    from bot.storage import Database

    logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(message)s")

    async def main():
        time.sleep(max(0.0, float(sys.argv[2]) - time.time()))  # all start at one moment
        db = await Database.open(sys.argv[1])
        print("version", db.schema_version, flush=True)
        await db.close()

    asyncio.run(main())
    """
)


async def test_processes_starting_at_once_apply_each_migration_once(empty_db_url: str) -> None:
    processes = 3
    start = time.time() + 4  # after every interpreter has imported the bot
    runs = await asyncio.gather(
        *(
            asyncio.to_thread(
                subprocess.run,
                [sys.executable, "-c", MIGRATOR, empty_db_url, str(start)],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=120,
            )
            for _ in range(processes)
        )
    )
    latest = len(load_migrations(locate(empty_db_url).backend))
    for run in runs:
        assert run.returncode == 0, run.stderr
        assert f"version {latest}" in run.stdout, run.stdout + run.stderr
    applied = [
        line for run in runs for line in run.stdout.splitlines() if "applied migration" in line
    ]
    assert len(applied) == latest, applied  # each once, by whichever process came first
    assert len(set(applied)) == latest
    async with await Database.open(empty_db_url) as db:
        assert db.schema_version == latest
        if db.backend == "postgresql":
            assert await rows(db, "SELECT count(*) FROM schema_version") == [(latest,)]
