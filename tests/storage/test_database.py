"""The Database on both backends: opening, transactions, concurrency, health, closing.

What only one backend has (SQLite's pragmas and file lock, PostgreSQL's retries and advisory
locks) is in ``test_sqlite.py`` and ``test_postgres.py``; migrations in ``test_migrations.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import pytest

from bot.storage import (
    ConstraintViolation,
    Database,
    DatabaseClosed,
    StorageError,
    Transaction,
    load_migrations,
)

from .helpers import count_now, rows, value

T = TypeVar("T")

TABLES = {
    "games",
    "seats",
    "actions",
    "results",
    "challenges",
    "guild_settings",
    "preferences",
    "ratings",
    "rated_games",
    "reviews",
    "puzzles",
    "puzzle_answers",
    "puzzle_streaks",
    "puzzle_settings",
    "daily_puzzles",
    "tournaments",
    "tournament_entrants",
    "tournament_tables",
    "tournament_log",
    "notices",
    "follows",
    "live_positions",
    "skill_records",
    "review_queue",
    "fairplay_cases",
    "fairplay_audit",
    "deck_cards",
    "deck_people",
    "tutor_warnings",
    "imports",
}


async def table_names(db: Database) -> set[str]:
    return {str(row[0]) for row in await db.read(lambda tx: tx.fetchall(tx.dialect.tables_sql))}


def on_loop(loop: asyncio.AbstractEventLoop, job: Coroutine[Any, Any, T]) -> T:
    """Run ``job`` on the test's event loop from a transaction's worker thread and wait:
    another connection acting while the transaction is open."""
    return asyncio.run_coroutine_threadsafe(job, loop).result(timeout=10)


# -- opening ------------------------------------------------------------------------------


async def test_open_migrates_an_empty_database(empty_db_url: str, backend: str) -> None:
    db = await Database.open(empty_db_url)
    try:
        assert db.backend == backend
        assert db.schema_version == len(load_migrations(db.backend)) >= 1
        assert await table_names(db) == TABLES
        assert not db.closed
    finally:
        await db.close()


async def test_reopening_a_migrated_database_is_a_no_op(db_url: str) -> None:
    db = await Database.open(db_url)
    await db.write(lambda tx: tx.execute("INSERT INTO guild_settings VALUES (1, 1, 60, '[]')"))
    version = db.schema_version
    await db.close()

    again = await Database.open(db_url)
    try:
        assert again.schema_version == version
        assert await value(again, "SELECT count(*) FROM guild_settings") == 1
    finally:
        await again.close()


async def test_the_url_names_the_backend_and_reopens_it(db: Database, backend: str) -> None:
    assert db.url.startswith("sqlite:///" if backend == "sqlite" else "postgresql://")
    again = await Database.open(db.url)  # trust auth: no password was left out
    try:
        assert again.backend == backend
        await db.write(lambda tx: tx.execute(INSERT, (7,)))
        assert await count(again) == 1
    finally:
        await again.close()


# -- transactions -------------------------------------------------------------------------

INSERT = "INSERT INTO guild_settings VALUES (?, 0, 60, '[]')"


class Boom(Exception):
    pass


async def count(db: Database) -> int:
    return int(await value(db, "SELECT count(*) FROM guild_settings"))


async def test_write_commits_and_returns_what_its_work_returns(db: Database) -> None:
    def work(tx: Transaction) -> int:
        assert tx.execute(INSERT, (1,)) == 1
        tx.executemany(INSERT, [(2,), (3,)])
        assert tx.fetchone("SELECT guild_id FROM guild_settings WHERE guild_id = 2") is not None
        assert tx.fetchone("SELECT guild_id FROM guild_settings WHERE guild_id = 9") is None
        assert tx.execute("UPDATE guild_settings SET thread_mode = 1 WHERE guild_id < 3") == 2
        return int(tx.fetchval("SELECT count(*) FROM guild_settings"))

    assert await db.write(work) == 3
    assert await count(db) == 3
    found = await rows(db, "SELECT guild_id, thread_mode FROM guild_settings ORDER BY guild_id")
    assert [(row[0], row["thread_mode"]) for row in found] == [(1, 1), (2, 1), (3, 0)]
    assert dict(found[0]) == {"guild_id": 1, "thread_mode": 1}


async def test_values_come_back_as_python_types(db: Database) -> None:
    snowflake = 1_234_567_890_123_456_789  # needs 64 bits
    await db.write(lambda tx: tx.execute(INSERT, (snowflake,)))
    row = await db.read(
        lambda tx: tx.fetchone(
            "SELECT guild_id, enabled_games_json, CAST(? AS DOUBLE PRECISION) AS half, "
            "NULL AS missing FROM guild_settings",
            (1.5,),
        )
    )
    assert row is not None
    assert (row["guild_id"], row["enabled_games_json"], row["half"], row["missing"]) == (
        snowflake,
        "[]",
        1.5,
        None,
    )
    assert type(row["guild_id"]) is int and type(row["half"]) is float


async def test_placeholders_inside_strings_are_text(db: Database) -> None:
    await db.write(
        lambda tx: tx.execute(
            "INSERT INTO guild_settings VALUES (?, 0, 60, 'what? -- no ''?'' here')", (1,)
        )
    )
    assert await value(
        db, "SELECT enabled_games_json FROM guild_settings WHERE guild_id = ?", (1,)
    ) == ("what? -- no '?' here")


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


async def test_driver_errors_become_storage_errors_and_roll_back(db: Database) -> None:
    def work(tx: Transaction) -> None:
        tx.execute(INSERT, (1,))
        tx.execute("INSERT INTO guild_settings VALUES (2, 7, 60, '[]')")  # CHECK fails

    with pytest.raises(ConstraintViolation):
        await db.write(work)
    with pytest.raises(ConstraintViolation):  # the primary key
        await db.write(lambda tx: tx.executemany(INSERT, [(5,), (5,)]))
    with pytest.raises(StorageError, match=f"{db.backend} error"):
        await db.write(lambda tx: tx.fetchall("SELECT nonsense FROM nowhere"))
    with pytest.raises(StorageError, match=f"{db.backend} error"):
        await db.read(lambda tx: tx.fetchval("SELECT nonsense FROM nowhere"))
    assert await count(db) == 0


async def test_a_failed_statement_dooms_its_transaction_even_if_caught(db: Database) -> None:
    """Catching a statement's error does not let the work commit what it did before: the
    same on both backends (PostgreSQL could not go on; SQLite would, so it is made not to)."""
    seen: list[str] = []

    def work(tx: Transaction) -> str:
        tx.execute(INSERT, (1,))
        try:
            tx.execute(INSERT, (1,))  # the primary key again
        except ConstraintViolation as error:
            seen.append(type(error).__name__)
        with pytest.raises(StorageError, match="earlier statement"):
            tx.fetchval("SELECT 1")
        return "committed?"

    with pytest.raises(ConstraintViolation):
        await db.write(work)
    assert seen == ["ConstraintViolation"]
    assert await count(db) == 0


async def test_a_read_sees_one_state_while_another_connection_commits(
    db: Database, db_url: str
) -> None:
    other = await Database.open(db_url)
    loop = asyncio.get_running_loop()

    def work(tx: Transaction) -> tuple[int, int]:
        before = int(tx.fetchval("SELECT count(*) FROM guild_settings"))
        on_loop(loop, other.write(lambda t: t.execute(INSERT, (1,))))
        return before, int(tx.fetchval("SELECT count(*) FROM guild_settings"))

    try:
        assert await db.read(work) == (0, 0)
        assert await count(db) == 1  # the next transaction sees the other commit
    finally:
        await other.close()


async def test_a_second_connection_sees_committed_data_only(db: Database, db_url: str) -> None:
    other = await Database.open(db_url)  # like the bot restarted, or a second process
    loop = asyncio.get_running_loop()

    def work(tx: Transaction) -> int:
        tx.execute(INSERT, (1,))
        return on_loop(loop, count(other))

    try:
        assert await db.write(work) == 0
        assert await count(other) == 1
    finally:
        await other.close()


async def test_a_transaction_runs_whole_without_the_event_loop(db: Database, db_url: str) -> None:
    """BEGIN to COMMIT is one hop: with the event loop blocked, the transaction still
    commits, so locks are never held while a busy loop gets round to it."""

    def work(tx: Transaction) -> None:
        for key in range(1, 6):
            tx.execute(INSERT, (key,))

    write = asyncio.create_task(db.write(work))
    await asyncio.sleep(0)  # the task hands the transaction to a worker thread
    deadline = time.monotonic() + 5
    # Blocks the loop (plain calls) until another connection sees the commit.
    while count_now(db_url, "SELECT count(*) FROM guild_settings") < 5:
        assert time.monotonic() < deadline, "the transaction did not commit"
        time.sleep(0.005)  # noqa: ASYNC251 - blocking the loop is the point
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
    """A cancelled caller cannot leave half a transaction: the work runs whole in a worker
    thread, and the next transaction starts after it."""
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
    # Another connection sees nothing, then both rows: never one (PostgreSQL reads while the
    # write works; SQLite's one connection reads after it).
    seen = {await count(db)}
    async with asyncio.timeout(5):
        while 2 not in seen:
            await asyncio.sleep(0.01)
            seen.add(await count(db))
    assert seen <= {0, 2}
    await db.write(lambda tx: tx.execute(INSERT, (3,)))
    assert await count(db) == 3


async def test_cancelled_callers_leave_every_write_whole_and_no_stray_rollback(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    """Writes already asked for run whole even if their callers are cancelled while they wait
    for a worker; a cancellation never sends a ROLLBACK after a COMMIT (that would fail, or
    undo the next transaction)."""

    def pair(key: int) -> Callable[[Transaction], None]:
        def work(tx: Transaction) -> None:
            tx.execute(INSERT, (key,))
            tx.execute(INSERT, (key + 1000,))

        return work

    gate = threading.Event()
    first = asyncio.create_task(db.write(lambda tx: gate.wait(5)))  # holds up a worker
    # Blind inserts, so compare-and-set: thirty serializable writes at once on PostgreSQL may
    # lose every retry to one another on a loaded machine, and a lost one whose caller was
    # cancelled would be missing from the count for a reason this test is not about.
    tasks = [asyncio.create_task(db.write(pair(key), compare_and_set=True)) for key in range(1, 31)]
    await asyncio.sleep(0)  # each task has handed its transaction to the workers
    for task in tasks[::2]:
        task.cancel()
    await asyncio.sleep(0.01)  # the cancellations reach the queued transactions
    gate.set()
    outcomes = await asyncio.gather(first, *tasks, return_exceptions=True)
    assert sum(isinstance(o, asyncio.CancelledError) for o in outcomes) == 15
    failed = [o for o in outcomes if isinstance(o, Exception)]
    assert not failed, failed
    # A cancelled caller returns at once while its transaction still runs (PostgreSQL runs
    # several at a time): wait for the rows, never for a time.
    rows = await count(db)
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(10):
            while rows < 60:
                await asyncio.sleep(0.01)
                rows = await count(db)
    assert rows == 60, f"{60 - rows} rows of the cancelled callers' writes never came"
    await db.write(lambda tx: tx.execute(INSERT, (5000,)))
    assert await count(db) == 61
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_read_modify_writes_from_many_tasks_and_two_connections_lose_no_update(
    db: Database, db_url: str
) -> None:
    """A write transaction is serializable: a read-then-write is never overtaken, by this
    process's other transactions or another process's (PostgreSQL retries the loser)."""
    await db.write(lambda tx: tx.execute("INSERT INTO guild_settings VALUES (1, 0, 1, '[]')"))
    other = await Database.open(db_url)  # a second process on the same database

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


async def test_nested_use_fails_fast_instead_of_deadlocking(db: Database) -> None:
    refused: list[str] = []

    def nested(tx: Transaction) -> None:
        tx.execute(INSERT, (1,))
        for inner in (lambda: db.read(lambda t: 1), lambda: db.write(lambda t: 1), db.close):
            with pytest.raises(StorageError, match="nested") as caught:
                inner()
            refused.append(str(caught.value))
        raise Boom

    async with asyncio.timeout(5):
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


# -- cluster-wide locks -------------------------------------------------------------------


async def test_exclusive_has_one_holder_per_name(db: Database) -> None:
    async with db.exclusive("sweep") as first:
        assert first is True
        async with db.exclusive("sweep") as again:
            assert again is False  # one holder, even in the same process
        async with db.exclusive("other-job") as unrelated:
            assert unrelated is True
    async with db.exclusive("sweep") as later:
        assert later is True  # released when the block ended


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


async def test_close_waits_for_the_transactions_asked_for_before_it(
    db: Database, db_url: str
) -> None:
    def slow(tx: Transaction) -> None:
        time.sleep(0.05)
        tx.execute(INSERT, (1,))

    write = asyncio.create_task(db.write(slow))
    await asyncio.sleep(0)
    await db.close()
    assert write.done()
    await write
    reopened = await Database.open(db_url)
    try:
        assert await count(reopened) == 1
    finally:
        await reopened.close()


async def test_database_is_an_async_context_manager(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        assert await value(db, "SELECT 1") == 1
    assert db.closed
