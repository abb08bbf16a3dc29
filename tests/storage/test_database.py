"""The Database itself: opening, pragmas, migrations, transactions, locking, health."""

from __future__ import annotations

import asyncio
import os
import threading
import time
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
    SyncTransaction,
    load_migrations,
)
from bot.storage.database import check_migrations, split_statements

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
    rows = await db.fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    )
    return {row[0] for row in rows}


# -- opening ------------------------------------------------------------------------------


async def test_open_creates_the_directory_and_migrates_an_empty_file(db_path: Path) -> None:
    assert not db_path.parent.exists()
    db = await Database.open(db_path)
    try:
        assert await asyncio.to_thread(db_path.is_file)
        assert db.schema_version == len(load_migrations()) >= 1
        assert await db.fetchval("PRAGMA user_version") == db.schema_version
        assert await table_names(db) == TABLES
    finally:
        await db.close()


async def test_pragmas_wal_normal_foreign_keys_busy_timeout(db: Database) -> None:
    assert await db.fetchval("PRAGMA journal_mode") == "wal"
    assert await db.fetchval("PRAGMA synchronous") == 1  # NORMAL
    assert await db.fetchval("PRAGMA foreign_keys") == 1
    assert await db.fetchval("PRAGMA busy_timeout") == 5000
    assert await asyncio.to_thread(Path(db.path + "-wal").exists)


async def test_reopening_a_migrated_database_is_a_no_op(db_path: Path) -> None:
    db = await Database.open(db_path)
    async with db.transaction() as tx:
        await tx.execute(
            "INSERT INTO guild_settings VALUES (1, 1, 60, '[]')"  # data must survive
        )
    version = db.schema_version
    await db.close()

    again = await Database.open(db_path)
    try:
        assert again.schema_version == version
        assert await again.fetchval("SELECT count(*) FROM guild_settings") == 1
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
        assert [r[0] for r in await db.fetchall("SELECT step FROM log ORDER BY rowid")] == [2, 3]
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
        assert await db.fetchval("SELECT count(*) FROM t") == 0  # the second left nothing
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


class Boom(Exception):
    pass


async def test_a_failure_inside_a_transaction_rolls_back_everything(db: Database) -> None:
    with pytest.raises(Boom):
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings VALUES (1, 0, 60, '[]')")
            await tx.execute("INSERT INTO guild_settings VALUES (2, 0, 60, '[]')")
            assert await tx.fetchval("SELECT count(*) FROM guild_settings") == 2
            raise Boom
    assert await db.fetchval("SELECT count(*) FROM guild_settings") == 0
    async with db.transaction() as tx:  # the lock was released and the connection is usable
        await tx.execute("INSERT INTO guild_settings VALUES (3, 0, 60, '[]')")
    assert await db.fetchval("SELECT count(*) FROM guild_settings") == 1


async def test_a_failing_statement_rolls_back_and_is_a_storage_error(db: Database) -> None:
    with pytest.raises(ConstraintViolation):
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings VALUES (1, 0, 60, '[]')")
            await tx.execute("INSERT INTO guild_settings VALUES (2, 7, 60, '[]')")  # CHECK
    assert await db.fetchval("SELECT count(*) FROM guild_settings") == 0


async def test_cancellation_inside_a_transaction_rolls_back(db: Database) -> None:
    entered = asyncio.Event()

    async def writer() -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings VALUES (1, 0, 60, '[]')")
            entered.set()
            await asyncio.sleep(10)

    task = asyncio.create_task(writer())
    await entered.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await db.fetchval("SELECT count(*) FROM guild_settings") == 0


async def test_transactions_are_serialised(db: Database) -> None:
    """Read-modify-write from many tasks at once loses no update: the lock holds."""
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO guild_settings VALUES (1, 0, 1, '[]')")

    async def bump() -> None:
        async with db.transaction() as tx:
            value = await tx.fetchval("SELECT turn_timeout_seconds FROM guild_settings")
            await asyncio.sleep(0)  # give the other tasks every chance to interleave
            await tx.execute("UPDATE guild_settings SET turn_timeout_seconds = ?", (value + 1,))

    await asyncio.gather(*(bump() for _ in range(20)))
    assert await db.fetchval("SELECT turn_timeout_seconds FROM guild_settings") == 21


async def test_nested_use_fails_fast_instead_of_deadlocking(db: Database) -> None:
    async with asyncio.timeout(2), db.transaction():
        with pytest.raises(StorageError, match="nested"):
            await db.fetchval("SELECT 1")
        with pytest.raises(StorageError, match="nested"):
            async with db.transaction():
                pass
        with pytest.raises(StorageError, match="nested"):
            await db.close()
    assert await db.fetchval("SELECT 1") == 1


async def test_a_transaction_is_dead_after_its_block(db: Database) -> None:
    async with db.transaction() as tx:
        pass
    with pytest.raises(StorageError, match="outside"):
        await tx.execute("SELECT 1")


async def test_a_second_connection_sees_committed_data_only(db: Database) -> None:
    other = await Database.open(db.path)  # like the bot restarted, or a second process
    try:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings VALUES (1, 0, 60, '[]')")
            # WAL: the other reader sees the last committed state, not this transaction.
            assert await other.fetchval("SELECT count(*) FROM guild_settings") == 0
        assert await other.fetchval("SELECT count(*) FROM guild_settings") == 1
    finally:
        await other.close()


async def test_another_process_holding_the_write_lock_gives_database_busy(
    db: Database,
) -> None:
    impatient = await Database.open(db.path, busy_timeout_ms=50)
    try:
        async with db.transaction():
            with pytest.raises(DatabaseBusy):
                async with impatient.transaction():
                    pass
            assert await impatient.check_writable() is False
        assert await impatient.check_writable() is True
    finally:
        await impatient.close()


# -- single-hop transactions (db.write / db.read) --------------------------------------------


async def test_write_commits_and_returns_what_its_work_returns(db: Database) -> None:
    def work(tx: SyncTransaction) -> int:
        tx.execute("INSERT INTO guild_settings VALUES (1, 0, 60, '[]')")
        tx.executemany("INSERT INTO guild_settings VALUES (?, 0, 60, '[]')", [(2,), (3,)])
        return int(tx.fetchval("SELECT count(*) FROM guild_settings"))

    assert await db.write(work) == 3
    assert await db.fetchval("SELECT count(*) FROM guild_settings") == 3


async def test_write_rolls_back_when_its_work_raises(db: Database) -> None:
    def work(tx: SyncTransaction) -> None:
        tx.execute("INSERT INTO guild_settings VALUES (1, 0, 60, '[]')")
        raise Boom

    with pytest.raises(Boom):
        await db.write(work)
    assert await db.fetchval("SELECT count(*) FROM guild_settings") == 0
    await db.write(lambda tx: tx.execute("INSERT INTO guild_settings VALUES (2, 0, 60, '[]')"))
    assert await db.fetchval("SELECT count(*) FROM guild_settings") == 1


async def test_write_turns_sqlite_errors_into_storage_errors_and_rolls_back(db: Database) -> None:
    def work(tx: SyncTransaction) -> None:
        tx.execute("INSERT INTO guild_settings VALUES (1, 0, 60, '[]')")
        tx.execute("INSERT INTO guild_settings VALUES (2, 7, 60, '[]')")  # CHECK fails

    with pytest.raises(ConstraintViolation):
        await db.write(work)
    with pytest.raises(StorageError, match="sqlite error"):
        await db.write(lambda tx: tx.fetchall("SELECT nonsense FROM nowhere"))
    assert await db.fetchval("SELECT count(*) FROM guild_settings") == 0


async def test_write_work_is_atomic_even_when_its_caller_is_cancelled(db: Database) -> None:
    """A cancelled caller cannot leave half a transaction: the work runs whole in the
    connection's thread, and the next transaction starts after it."""
    started = threading.Event()

    def slow(tx: SyncTransaction) -> None:
        tx.execute("INSERT INTO guild_settings VALUES (1, 0, 60, '[]')")
        started.set()
        time.sleep(0.2)
        tx.execute("INSERT INTO guild_settings VALUES (2, 0, 60, '[]')")

    task = asyncio.create_task(db.write(slow))
    await asyncio.to_thread(started.wait, 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await db.fetchval("SELECT count(*) FROM guild_settings") == 2
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO guild_settings VALUES (3, 0, 60, '[]')")
    assert await db.fetchval("SELECT count(*) FROM guild_settings") == 3


async def test_writes_from_many_tasks_lose_no_update(db: Database) -> None:
    await db.write(lambda tx: tx.execute("INSERT INTO guild_settings VALUES (1, 0, 1, '[]')"))

    def bump(tx: SyncTransaction) -> None:
        value = tx.fetchval("SELECT turn_timeout_seconds FROM guild_settings")
        tx.execute("UPDATE guild_settings SET turn_timeout_seconds = ?", (value + 1,))

    async def via_transaction() -> None:  # the awaited kind interleaved with the one-hop kind
        async with db.transaction() as tx:
            value = await tx.fetchval("SELECT turn_timeout_seconds FROM guild_settings")
            await asyncio.sleep(0)
            await tx.execute("UPDATE guild_settings SET turn_timeout_seconds = ?", (value + 1,))

    await asyncio.gather(
        *(db.write(bump) for _ in range(20)), *(via_transaction() for _ in range(5))
    )
    assert await db.fetchval("SELECT turn_timeout_seconds FROM guild_settings") == 26


async def test_write_waits_for_another_process_then_reports_busy(db: Database) -> None:
    impatient = await Database.open(db.path, busy_timeout_ms=50)
    try:
        async with db.transaction():
            with pytest.raises(DatabaseBusy):
                await impatient.write(lambda tx: tx.execute("DELETE FROM guild_settings"))
        await impatient.write(lambda tx: tx.execute("DELETE FROM guild_settings"))
    finally:
        await impatient.close()


async def test_write_is_refused_inside_a_transaction_and_after_close(db: Database) -> None:
    async with asyncio.timeout(2), db.transaction():
        with pytest.raises(StorageError, match="nested"):
            await db.write(lambda tx: None)
    await db.close()
    with pytest.raises(DatabaseClosed):
        await db.write(lambda tx: None)


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
        await db.fetchall("SELECT 1")
    with pytest.raises(DatabaseClosed):
        async with db.transaction():
            pass


async def test_close_waits_for_the_running_transaction(db: Database) -> None:
    async def slow_write() -> None:
        async with db.transaction() as tx:
            await asyncio.sleep(0.01)
            await tx.execute("INSERT INTO guild_settings VALUES (1, 0, 60, '[]')")

    write = asyncio.create_task(slow_write())
    await asyncio.sleep(0)
    await db.close()
    await write
    reopened = await Database.open(db.path)
    try:
        assert await reopened.fetchval("SELECT count(*) FROM guild_settings") == 1
    finally:
        await reopened.close()


async def test_an_in_memory_database_works_for_quick_scripts() -> None:
    async with await Database.open(":memory:") as db:
        assert db.schema_version == len(load_migrations())
        assert await db.check_writable() is True


async def test_database_is_an_async_context_manager(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        assert await db.fetchval("SELECT 1") == 1
    assert db.closed
