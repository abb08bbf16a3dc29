"""What only the SQLite backend has: the file and its directory, the pragmas, the write lock's
busy timeout, and the one-process rule (the owner lock beside the file)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.storage import (
    Database,
    DatabaseBusy,
    DatabaseOpenError,
    StorageError,
    load_migrations,
)
from bot.storage.database import split_statements

from .helpers import holding_process, value

ROOT = Path(__file__).resolve().parents[2]


# -- the file -----------------------------------------------------------------------------


async def test_open_creates_the_directory_and_records_the_version(db_path: Path) -> None:
    assert not db_path.parent.exists()
    db = await Database.open(db_path)
    try:
        assert db.backend == "sqlite" and db.url == f"sqlite:///{db_path}"
        assert await asyncio.to_thread(db_path.is_file)
        assert db.schema_version == len(load_migrations("sqlite"))
        assert await value(db, "PRAGMA user_version") == db.schema_version
    finally:
        await db.close()


async def test_a_sqlite_url_and_a_plain_path_open_the_same_file(db_path: Path) -> None:
    async with await Database.open(f"sqlite:///{db_path}") as db:
        await db.write(lambda tx: tx.execute("INSERT INTO guild_settings VALUES (1, 0, 9, '[]')"))
    async with await Database.open(str(db_path)) as again:
        assert await value(again, "SELECT turn_timeout_seconds FROM guild_settings") == 9
        assert again.url == f"sqlite:///{db_path}"


async def test_pragmas_wal_normal_foreign_keys_busy_timeout(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        assert await value(db, "PRAGMA journal_mode") == "wal"
        assert await value(db, "PRAGMA synchronous") == 1  # NORMAL
        assert await value(db, "PRAGMA foreign_keys") == 1
        assert await value(db, "PRAGMA busy_timeout") == 5000
        assert await asyncio.to_thread(Path(f"{db_path}-wal").exists)


async def test_unwritable_path_parent_is_a_file(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    with pytest.raises(DatabaseOpenError) as caught:
        await Database.open(blocker / "tabula.db")
    assert "cannot create directory" in str(caught.value)
    assert str(blocker / "tabula.db") in str(caught.value)
    assert isinstance(caught.value, StorageError)


async def test_unwritable_path_is_a_directory(tmp_path: Path) -> None:
    with pytest.raises(DatabaseOpenError, match="is a directory"):
        await Database.open(tmp_path)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root may write anywhere")
async def test_unwritable_path_read_only_directory(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(DatabaseOpenError):
            await Database.open(locked / "tabula.db")
    finally:
        locked.chmod(0o700)


async def test_an_unknown_url_scheme_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DatabaseOpenError, match="unknown database URL"):
        await Database.open("mysql://root@localhost/tabula")
    with pytest.raises(DatabaseOpenError, match="names no file"):
        await Database.open("sqlite:///")


async def test_an_in_memory_database_works_for_quick_scripts() -> None:
    async with await Database.open(":memory:") as db:
        assert db.schema_version == len(load_migrations("sqlite"))
        assert await db.check_writable() is True


async def test_another_connection_holding_the_write_lock_gives_database_busy(
    db_path: Path,
) -> None:
    impatient = await Database.open(db_path, busy_timeout_ms=50)
    try:
        with contextlib.closing(sqlite3.connect(db_path, isolation_level=None)) as holder:
            holder.execute("BEGIN IMMEDIATE")
            with pytest.raises(DatabaseBusy):
                await impatient.write(lambda tx: tx.execute("DELETE FROM guild_settings"))
            assert await impatient.check_writable() is False
            holder.execute("ROLLBACK")
        assert await impatient.check_writable() is True
        await impatient.write(lambda tx: tx.execute("DELETE FROM guild_settings"))
    finally:
        await impatient.close()


async def test_writes_run_in_the_order_they_were_asked_for(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        order: list[int] = []
        await asyncio.gather(*(db.write(lambda tx, n=n: order.append(n)) for n in range(20)))
        assert order == list(range(20))


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("CREATE TABLE a (x); CREATE TABLE b (y);", ["CREATE TABLE a (x);", "CREATE TABLE b (y);"]),
        ("SELECT 'unterminated;", ["SELECT 'unterminated;"]),
        ("INSERT INTO a VALUES ('x;y');", ["INSERT INTO a VALUES ('x;y');"]),
        (
            "-- note; with a semicolon\nSELECT 1;\n-- trailing comment\n",
            ["-- note; with a semicolon\nSELECT 1;"],
        ),
        (
            "CREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE a SET x = 1; DELETE FROM b; END;",
            ["CREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE a SET x = 1; DELETE FROM b; END;"],
        ),
        ("SELECT 1", ["SELECT 1;"]),
        ("SELECT 1;\n-- the end", ["SELECT 1;"]),
        ("", []),
    ],
)
def test_split_statements(script: str, expected: list[str]) -> None:
    assert split_statements(script) == expected


# -- one serving process per file ---------------------------------------------------------

HOLDER = textwrap.dedent(
    """
    import asyncio, sys
    from bot.storage import Database

    async def main():
        db = await Database.open(sys.argv[1], serving=True)
        print("serving", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        await db.close()

    asyncio.run(main())
    """
)


async def test_a_second_serving_process_is_refused_and_told_to_use_postgresql(
    db_path: Path,
) -> None:
    with holding_process(HOLDER, str(db_path), "serving") as other:
        with pytest.raises(DatabaseOpenError) as caught:
            await Database.open(db_path, serving=True)
        message = str(caught.value)
        assert "PostgreSQL" in message and "DATABASE_URL=postgresql://" in message
        assert f"pid {other.pid}" in message
        # Looking is not serving: a test or `tabula db copy` reads the bot's file meanwhile.
        async with await Database.open(db_path) as reader:
            assert await value(reader, "SELECT count(*) FROM games") == 0
        # SIGKILL: the kernel drops the lock with the process, so a restart is never locked out.
        other.send_signal(signal.SIGKILL)
        await asyncio.to_thread(other.wait, 10)
        async with await Database.open(db_path, serving=True) as restarted:
            assert await restarted.check_writable()


def serve_elsewhere(path: Path) -> str:
    """Open the file serving from another process and close it: "ok", or why not."""
    code = (
        "import asyncio, sys\n"
        "from bot.storage import Database, DatabaseOpenError\n"
        "async def main():\n"
        "    try:\n"
        "        await (await Database.open(sys.argv[1], serving=True)).close()\n"
        "    except DatabaseOpenError as error:\n"
        "        return print(error)\n"
        "    print('ok')\n"
        "asyncio.run(main())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout.strip()


async def test_serving_in_one_process_twice_shares_the_lock_until_both_close(
    db_path: Path,
) -> None:
    first = await Database.open(db_path, serving=True)
    second = await Database.open(db_path, serving=True)  # a restart inside one process
    await first.close()
    refused = await asyncio.to_thread(serve_elsewhere, db_path)
    assert "already serving" in refused and f"pid {os.getpid()}" in refused
    await second.close()
    assert await asyncio.to_thread(serve_elsewhere, db_path) == "ok"
