"""The Database itself: opening, pragmas, migrations, transactions, locking, health."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.storage import (
    ConstraintViolation,
    Database,
    DatabaseBusy,
    DatabaseClosed,
    DatabaseOpenError,
    Migration,
    SchemaError,
    StorageError,
    Transaction,
    load_migrations,
)
from bot.storage.database import check_migrations, split_statements

from .helpers import rows, value

TABLES = {
    "games",
    "seats",
    "actions",
    "results",
    "challenges",
    "guild_settings",
    "ratings",
    "rated_games",
    "reviews",
}


async def table_names(db: Database) -> set[str]:
    found = await rows(
        db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    )
    return {row[0] for row in found}


# -- opening ------------------------------------------------------------------------------


async def test_open_creates_the_directory_and_migrates_an_empty_file(db_path: Path) -> None:
    assert not db_path.parent.exists()
    db = await Database.open(db_path)
    try:
        assert await asyncio.to_thread(db_path.is_file)
        assert db.schema_version == len(load_migrations()) >= 1
        assert await value(db, "PRAGMA user_version") == db.schema_version
        assert await table_names(db) == TABLES
    finally:
        await db.close()


async def test_pragmas_wal_normal_foreign_keys_busy_timeout(db: Database) -> None:
    assert await value(db, "PRAGMA journal_mode") == "wal"
    assert await value(db, "PRAGMA synchronous") == 1  # NORMAL
    assert await value(db, "PRAGMA foreign_keys") == 1
    assert await value(db, "PRAGMA busy_timeout") == 5000
    assert await asyncio.to_thread(Path(db.path + "-wal").exists)


async def test_reopening_a_migrated_database_is_a_no_op(db_path: Path) -> None:
    db = await Database.open(db_path)
    await db.write(lambda tx: tx.execute("INSERT INTO guild_settings VALUES (1, 1, 60, '[]')"))
    version = db.schema_version
    await db.close()

    again = await Database.open(db_path)
    try:
        assert again.schema_version == version
        assert await value(again, "SELECT count(*) FROM guild_settings") == 1
    finally:
        await again.close()


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


# -- migrations ---------------------------------------------------------------------------


def numbered(*scripts: str) -> list[Migration]:
    return [Migration(n, f"step{n}", sql) for n, sql in enumerate(scripts, start=1)]


async def test_migrations_apply_in_order_and_only_once(db_path: Path) -> None:
    steps = numbered(
        "CREATE TABLE log (step INTEGER);",
        "INSERT INTO log VALUES (2);",
        "INSERT INTO log VALUES (3);",
    )
    db = await Database.open(db_path, migrations=steps[:2])
    assert db.schema_version == 2
    await db.close()

    db = await Database.open(db_path, migrations=steps)
    try:
        assert db.schema_version == 3
        assert [r[0] for r in await rows(db, "SELECT step FROM log ORDER BY rowid")] == [2, 3]
    finally:
        await db.close()


async def test_a_failing_migration_rolls_back_alone(db_path: Path) -> None:
    steps = numbered(
        "CREATE TABLE t (x INTEGER);",
        "INSERT INTO t VALUES (1); INSERT INTO missing VALUES (1);",
    )
    with pytest.raises(SchemaError, match="0002_step2"):
        await Database.open(db_path, migrations=steps)

    db = await Database.open(db_path, migrations=steps[:1])
    try:
        assert db.schema_version == 1  # the first step stayed applied
        assert await value(db, "SELECT count(*) FROM t") == 0  # the second left nothing
    finally:
        await db.close()


async def test_a_database_newer_than_the_code_is_refused(db_path: Path) -> None:
    steps = numbered("CREATE TABLE a (x INTEGER);", "CREATE TABLE b (x INTEGER);")
    await (await Database.open(db_path, migrations=steps)).close()
    with pytest.raises(SchemaError, match="newer"):
        await Database.open(db_path, migrations=steps[:1])


def test_migration_numbers_must_run_without_gaps() -> None:
    check_migrations(numbered("SELECT 1;", "SELECT 2;"))
    with pytest.raises(SchemaError):
        check_migrations([Migration(1, "a", ""), Migration(3, "c", "")])
    with pytest.raises(SchemaError):
        check_migrations([Migration(2, "b", "")])


def test_packaged_migrations_are_found_through_importlib_resources() -> None:
    migrations = load_migrations()
    assert migrations[0].version == 1 and migrations[0].name == "initial"
    assert "CREATE TABLE games" in migrations[0].sql


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


# -- transactions -------------------------------------------------------------------------

INSERT = "INSERT INTO guild_settings VALUES (?, 0, 60, '[]')"


class Boom(Exception):
    pass


async def count(db: Database) -> int:
    return int(await value(db, "SELECT count(*) FROM guild_settings"))


async def test_write_commits_and_returns_what_its_work_returns(db: Database) -> None:
    def work(tx: Transaction) -> int:
        tx.execute(INSERT, (1,))
        assert tx.executemany(INSERT, [(2,), (3,)]) == 2
        assert tx.fetchone("SELECT guild_id FROM guild_settings WHERE guild_id = 2") is not None
        assert tx.fetchone("SELECT guild_id FROM guild_settings WHERE guild_id = 9") is None
        return int(tx.fetchval("SELECT count(*) FROM guild_settings"))

    assert await db.write(work) == 3
    assert await count(db) == 3
    found = await rows(db, "SELECT guild_id FROM guild_settings ORDER BY guild_id")
    assert [row[0] for row in found] == [1, 2, 3]


async def test_write_rolls_back_everything_when_its_work_raises(db: Database) -> None:
    def work(tx: Transaction) -> None:
        tx.execute(INSERT, (1,))
        tx.execute(INSERT, (2,))
        assert tx.fetchval("SELECT count(*) FROM guild_settings") == 2
        raise Boom

    with pytest.raises(Boom):
        await db.write(work)
    assert await count(db) == 0
    await db.write(lambda tx: tx.execute(INSERT, (3,)))  # the connection is usable
    assert await count(db) == 1


async def test_sqlite_errors_become_storage_errors_and_roll_back(db: Database) -> None:
    def work(tx: Transaction) -> None:
        tx.execute(INSERT, (1,))
        tx.execute("INSERT INTO guild_settings VALUES (2, 7, 60, '[]')")  # CHECK fails

    with pytest.raises(ConstraintViolation):
        await db.write(work)
    with pytest.raises(StorageError, match="sqlite error"):
        await db.write(lambda tx: tx.fetchall("SELECT nonsense FROM nowhere"))
    with pytest.raises(StorageError, match="sqlite error"):
        await db.read(lambda tx: tx.fetchval("SELECT nonsense FROM nowhere"))
    assert await count(db) == 0


async def test_a_read_sees_one_state_while_another_connection_commits(db: Database) -> None:
    def work(tx: Transaction) -> tuple[int, int]:
        before = int(tx.fetchval("SELECT count(*) FROM guild_settings"))
        with contextlib.closing(sqlite3.connect(db.path, isolation_level=None)) as other:
            other.execute(INSERT, (1,))  # commits at once (autocommit)
        return before, int(tx.fetchval("SELECT count(*) FROM guild_settings"))

    assert await db.read(work) == (0, 0)
    assert await count(db) == 1  # the next transaction sees the other commit


async def test_a_second_connection_sees_committed_data_only(db: Database) -> None:
    def work(tx: Transaction) -> int:
        tx.execute(INSERT, (1,))
        with contextlib.closing(sqlite3.connect(db.path)) as other:
            # WAL: the other reader sees the last committed state, not this transaction.
            return int(other.execute("SELECT count(*) FROM guild_settings").fetchone()[0])

    assert await db.write(work) == 0
    other = await Database.open(db.path)  # like the bot restarted, or a second process
    try:
        assert await count(other) == 1
    finally:
        await other.close()


def wait_for_rows(path: str, wanted: int) -> None:
    """Block this thread (and so the event loop) until another connection sees the rows."""
    deadline = time.monotonic() + 5
    with contextlib.closing(sqlite3.connect(path)) as raw:
        while raw.execute("SELECT count(*) FROM guild_settings").fetchone()[0] < wanted:
            assert time.monotonic() < deadline, "the transaction did not commit"
            time.sleep(0.002)


async def test_a_transaction_runs_whole_without_the_event_loop(db: Database) -> None:
    """BEGIN to COMMIT is one hop: with the event loop blocked, the transaction still
    commits, so SQLite's write lock is never held while a busy loop gets round to it."""

    def work(tx: Transaction) -> None:
        for key in range(1, 6):
            tx.execute(INSERT, (key,))

    write = asyncio.create_task(db.write(work))
    await asyncio.sleep(0)  # the task hands the transaction to the database thread
    wait_for_rows(db.path, 5)  # blocks the loop until another connection sees the commit
    await write


async def test_the_event_loop_runs_while_a_transaction_works(db: Database) -> None:
    def slow(tx: Transaction) -> None:
        tx.execute(INSERT, (1,))
        time.sleep(0.2)

    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    beat = asyncio.create_task(ticker())
    try:
        await db.write(slow)
    finally:
        beat.cancel()
    assert ticks >= 5


async def test_write_work_is_atomic_even_when_its_caller_is_cancelled(db: Database) -> None:
    """A cancelled caller cannot leave half a transaction: the work runs whole in the
    database's thread, and the next transaction starts after it."""
    started = threading.Event()

    def slow(tx: Transaction) -> None:
        tx.execute(INSERT, (1,))
        started.set()
        time.sleep(0.2)
        tx.execute(INSERT, (2,))

    task = asyncio.create_task(db.write(slow))
    await asyncio.to_thread(started.wait, 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await count(db) == 2
    await db.write(lambda tx: tx.execute(INSERT, (3,)))
    assert await count(db) == 3


async def test_cancelled_callers_leave_every_write_whole_and_no_stray_rollback(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    """Writes already asked for run whole even if their callers are cancelled while they wait
    in the queue; a cancellation never sends a ROLLBACK after a COMMIT (that would fail, or
    undo the next transaction)."""

    def pair(key: int) -> Callable[[Transaction], None]:
        def work(tx: Transaction) -> None:
            tx.execute(INSERT, (key,))
            tx.execute(INSERT, (key + 1000,))

        return work

    gate = threading.Event()
    first = asyncio.create_task(db.write(lambda tx: gate.wait(5)))  # holds up the queue
    tasks = [asyncio.create_task(db.write(pair(key))) for key in range(1, 31)]
    await asyncio.sleep(0)  # each task has handed its transaction to the database thread
    for task in tasks[::2]:
        task.cancel()
    await asyncio.sleep(0.01)  # the cancellations reach the queued transactions
    gate.set()
    outcomes = await asyncio.gather(first, *tasks, return_exceptions=True)
    assert sum(isinstance(o, asyncio.CancelledError) for o in outcomes) == 15
    await db.write(lambda tx: tx.execute(INSERT, (5000,)))
    assert await count(db) == 61
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_writes_from_many_tasks_and_two_connections_lose_no_update(
    db: Database,
) -> None:
    await db.write(lambda tx: tx.execute("INSERT INTO guild_settings VALUES (1, 0, 1, '[]')"))
    other = await Database.open(db.path)  # a second process on the same file

    def bump(tx: Transaction) -> None:
        current = tx.fetchval("SELECT turn_timeout_seconds FROM guild_settings")
        time.sleep(0.001)  # give the other connection every chance to interleave
        tx.execute("UPDATE guild_settings SET turn_timeout_seconds = ?", (current + 1,))

    try:
        await asyncio.gather(
            *(db.write(bump) for _ in range(20)), *(other.write(bump) for _ in range(5))
        )
    finally:
        await other.close()
    assert await value(db, "SELECT turn_timeout_seconds FROM guild_settings") == 26


async def test_another_process_holding_the_write_lock_gives_database_busy(
    db: Database,
) -> None:
    impatient = await Database.open(db.path, busy_timeout_ms=50)
    try:
        with contextlib.closing(sqlite3.connect(db.path, isolation_level=None)) as holder:
            holder.execute("BEGIN IMMEDIATE")
            with pytest.raises(DatabaseBusy):
                await impatient.write(lambda tx: tx.execute("DELETE FROM guild_settings"))
            assert await impatient.check_writable() is False
            holder.execute("ROLLBACK")
        assert await impatient.check_writable() is True
        await impatient.write(lambda tx: tx.execute("DELETE FROM guild_settings"))
    finally:
        await impatient.close()


async def test_nested_use_fails_fast_instead_of_deadlocking(db: Database) -> None:
    refused: list[str] = []

    def nested(tx: Transaction) -> None:
        tx.execute(INSERT, (1,))
        for inner in (lambda: db.read(lambda t: 1), lambda: db.write(lambda t: 1), db.close):
            with pytest.raises(StorageError, match="nested") as caught:
                inner()
            refused.append(str(caught.value))
        raise Boom

    async with asyncio.timeout(2):
        with pytest.raises(Boom):
            await db.write(nested)
    assert len(refused) == 3
    assert await count(db) == 0
    assert await value(db, "SELECT 1") == 1


async def test_a_coroutine_is_refused_as_work(db: Database) -> None:
    async def work(tx: Transaction) -> None:
        tx.execute(INSERT, (1,))

    with pytest.raises(TypeError, match="plain function"):
        await db.write(work)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="plain function"):
        await db.write(lambda tx: work(tx))
    assert await count(db) == 0


async def test_a_transaction_is_dead_after_its_function(db: Database) -> None:
    tx = await db.read(lambda tx: tx)
    with pytest.raises(StorageError, match="after"):
        tx.execute("SELECT 1")
    with pytest.raises(StorageError, match="after"):
        tx.executemany(INSERT, [(1,)])


# -- health and closing -------------------------------------------------------------------


async def test_check_writable(db: Database) -> None:
    assert await db.check_writable() is True
    await db.close()
    assert await db.check_writable() is False


async def test_a_closed_database_refuses_work_and_closing_twice_is_fine(db: Database) -> None:
    await db.close()
    await db.close()
    assert db.closed
    with pytest.raises(DatabaseClosed):
        await db.read(lambda tx: tx.fetchall("SELECT 1"))
    with pytest.raises(DatabaseClosed):
        await db.write(lambda tx: None)


async def test_close_waits_for_the_transactions_asked_for_before_it(db: Database) -> None:
    def slow(tx: Transaction) -> None:
        time.sleep(0.05)
        tx.execute(INSERT, (1,))

    write = asyncio.create_task(db.write(slow))
    await asyncio.sleep(0)
    await db.close()
    assert write.done()
    await write
    reopened = await Database.open(db.path)
    try:
        assert await count(reopened) == 1
    finally:
        await reopened.close()


async def test_an_in_memory_database_works_for_quick_scripts() -> None:
    async with await Database.open(":memory:") as db:
        assert db.schema_version == len(load_migrations())
        assert await db.check_writable() is True


async def test_database_is_an_async_context_manager(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        assert await value(db, "SELECT 1") == 1
    assert db.closed
