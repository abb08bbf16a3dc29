"""What only the PostgreSQL backend has: placeholder rewriting, URLs, reaching the server,
retried serialization failures, compare-and-set writes that need no retry, lock timeouts,
and cluster-wide advisory locks held by a process until it ends (however it ends)."""

from __future__ import annotations

import asyncio
import contextlib
import textwrap
import threading
import time
from pathlib import Path

import asyncpg
import pytest

from bot.storage import (
    ConstraintViolation,
    Database,
    DatabaseBusy,
    DatabaseOpenError,
    Migration,
    Transaction,
    VersionConflict,
    load_actions,
    load_game,
)
from bot.storage.database import locate
from bot.storage.dialect import PlaceholderError, numbered_placeholders
from bot.storage.postgres import lock_key

from .conftest import T0, human, new_game
from .helpers import append_action, holding_process, value
from .pg import fresh_database, require_postgres, server_url, with_database

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def pg_url() -> object:
    async with fresh_database() as url:
        yield url


@pytest.fixture
async def pg(pg_url: str) -> object:
    db = await Database.open(pg_url)
    yield db
    await db.close()


# -- no server needed ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT ? + ?", "SELECT $1 + $2"),
        ("SELECT '?', ?", "SELECT '?', $1"),
        ("SELECT 'it''s ?' || ?", "SELECT 'it''s ?' || $1"),
        ('SELECT "odd?name" FROM t WHERE x = ?', 'SELECT "odd?name" FROM t WHERE x = $1'),
        ("SELECT 1 -- is it? \n, ?", "SELECT 1 -- is it? \n, $1"),
        ("SELECT /* ? */ ?", "SELECT /* ? */ $1"),
        ("SELECT 6 - ? / 2", "SELECT 6 - $1 / 2"),
        ("SELECT 1", "SELECT 1"),
    ],
)
def test_placeholders_are_numbered_outside_literals_and_comments(sql: str, expected: str) -> None:
    assert numbered_placeholders(sql) == expected


@pytest.mark.parametrize("sql", ["SELECT 'open ?", 'SELECT "open', "SELECT /* open"])
def test_an_unterminated_literal_is_refused_not_guessed(sql: str) -> None:
    with pytest.raises(PlaceholderError):
        numbered_placeholders(sql)


def test_urls_choose_the_backend_and_hide_the_password() -> None:
    assert locate("postgresql://bot:s3cret@db.example:5433/tabula").display == (
        "postgresql://bot:***@db.example:5433/tabula"
    )
    assert locate("postgres://bot@db/tabula").backend == "postgresql"
    assert locate("postgresql://bot@db/tabula").display == "postgresql://bot@db/tabula"
    assert (locate("sqlite:///data/t.db").backend, locate("sqlite:///data/t.db").target) == (
        "sqlite",
        "data/t.db",
    )
    assert locate("sqlite:////abs/t.db").target == "/abs/t.db"
    assert locate(Path("t.db")).backend == locate("t.db").backend == "sqlite"


def test_lock_keys_are_stable_signed_64_bit_numbers() -> None:
    assert lock_key("sweep") == lock_key("sweep") != lock_key("sweep2")
    assert -(2**63) <= lock_key("sweep") < 2**63


# -- reaching the server ------------------------------------------------------------------


async def test_an_unreachable_server_is_a_clear_open_error() -> None:
    with pytest.raises(DatabaseOpenError, match="cannot reach the server"):
        await Database.open("postgresql://postgres@127.0.0.1:1/tabula")


async def test_a_missing_database_says_to_create_it() -> None:
    require_postgres()
    missing = with_database(server_url(), "tabula_t_does_not_exist")
    with pytest.raises(DatabaseOpenError, match="create it first"):
        await Database.open(missing)


async def test_settings_in_the_url_reach_the_server(pg_url: str) -> None:
    async with await Database.open(f"{pg_url}?synchronous_commit=off") as db:
        assert await value(db, "SHOW synchronous_commit") == "off"
        assert await value(db, "SHOW application_name") == "tabula"
        assert await value(db, "SHOW lock_timeout") == "5s"


async def test_the_pool_size_can_be_set_in_the_url(pg_url: str) -> None:
    def nap(tx: Transaction) -> None:
        tx.fetchval("SELECT pg_sleep(0.2)")

    async with await Database.open(f"{pg_url}?pool_size=1&application_name=mine") as db:
        assert await value(db, "SHOW application_name") == "mine"
        started = time.monotonic()
        await asyncio.gather(db.read(nap), db.read(nap))
        assert time.monotonic() - started >= 0.4  # one connection: one after the other
    with pytest.raises(DatabaseOpenError, match="pool_size must be a number"):
        await Database.open(f"{pg_url}?pool_size=many")


async def test_reads_are_read_only_snapshots(pg: Database) -> None:
    assert await value(pg, "SHOW transaction_isolation") == "repeatable read"
    assert await value(pg, "SHOW transaction_read_only") == "on"
    assert await pg.write(lambda tx: tx.fetchval("SHOW transaction_isolation")) == "serializable"
    cas = await pg.write(lambda tx: tx.fetchval("SHOW transaction_isolation"), compare_and_set=True)
    assert cas == "read committed"


# -- concurrency --------------------------------------------------------------------------


async def test_write_skew_is_retried_into_a_serial_order(pg: Database, pg_url: str) -> None:
    """Each transaction reads both rows and writes one: run at once, both would see the old
    sum (write skew). Serializable isolation aborts one, which runs again and sees the other's
    write: the result is that of one after the other."""
    await pg.write(
        lambda tx: tx.execute("INSERT INTO guild_settings VALUES (1, 0, 1, '[]'), (2, 0, 1, '[]')")
    )
    other = await Database.open(pg_url)
    both_read = threading.Barrier(2)

    def add_sum_to(guild: int) -> Transaction | None:
        def work(tx: Transaction) -> None:
            total = tx.fetchval("SELECT sum(turn_timeout_seconds) FROM guild_settings")
            # The first attempts overlap for sure; a retry finds the barrier broken.
            with contextlib.suppress(threading.BrokenBarrierError):
                both_read.wait(timeout=1)
            tx.execute(
                "UPDATE guild_settings SET turn_timeout_seconds = ? WHERE guild_id = ?",
                (total, guild),
            )

        return work  # type: ignore[return-value]

    try:
        await asyncio.gather(pg.write(add_sum_to(1)), other.write(add_sum_to(2)))
        assert pg.retries + other.retries >= 1
    finally:
        await other.close()
    found = sorted(
        tuple(r)
        for r in await pg.read(
            lambda tx: tx.fetchall("SELECT guild_id, turn_timeout_seconds FROM guild_settings")
        )
    )
    assert found in ([(1, 2), (2, 3)], [(1, 3), (2, 2)])  # one order or the other, never (2, 2)


async def test_moves_in_many_games_from_two_processes_never_need_a_retry(
    pg: Database, pg_url: str
) -> None:
    """Moves are compare-and-set writes: under READ COMMITTED, moves in different games never
    abort each other, and racing clicks on one game still land exactly once."""
    other = await Database.open(pg_url)
    games = [f"g{i:02d}" for i in range(24)]
    try:
        for i, game_id in enumerate(games):
            await new_game(pg, game_id, channel_id=1000 + i, seats=(human(0, 11), human(1, 22)))
        versions = dict.fromkeys(games, 0)
        doubled = 0

        async def player(db: Database, mine: list[str]) -> None:
            nonlocal doubled
            for turn in range(6):
                for game_id in mine:
                    version = versions[game_id]
                    clicks = await asyncio.gather(
                        append_action(db, game_id, version, 0, 11, "move", f"m{turn}", "{}", T0),
                        append_action(other, game_id, version, 0, 11, "move", "dup", "{}", T0),
                        return_exceptions=True,
                    )
                    assert sorted(type(c).__name__ for c in clicks) == ["VersionConflict", "int"]
                    doubled += 1
                    versions[game_id] = version + 1

        await asyncio.gather(*(player(pg if k % 2 else other, games[k::6]) for k in range(6)))
        assert pg.retries == other.retries == 0
        assert doubled == len(games) * 6
        for game_id in games:
            game = await load_game(pg, game_id)
            assert game is not None and game.version == game.action_count == 6
            assert [a.seq for a in await load_actions(pg, game_id)] == list(range(1, 7))
    finally:
        await other.close()


async def test_a_lock_held_too_long_gives_database_busy(pg_url: str) -> None:
    db = await Database.open(pg_url, busy_timeout_ms=100)
    await db.write(lambda tx: tx.execute("INSERT INTO guild_settings VALUES (1, 0, 1, '[]')"))
    holder = await asyncpg.connect(pg_url)
    try:
        await holder.execute("BEGIN")
        await holder.execute("SELECT * FROM guild_settings WHERE guild_id = 1 FOR UPDATE")
        started = time.monotonic()
        with pytest.raises(DatabaseBusy):
            await db.write(
                lambda tx: tx.execute("UPDATE guild_settings SET thread_mode = 1"),
                compare_and_set=True,
            )
        assert time.monotonic() - started < 3
        await holder.execute("ROLLBACK")
        await db.write(lambda tx: tx.execute("UPDATE guild_settings SET thread_mode = 1"))
        assert await value(db, "SELECT thread_mode FROM guild_settings") == 1
    finally:
        await holder.close()
        await db.close()


async def test_a_failed_commit_gives_its_connection_back(pg_url: str) -> None:
    """A COMMIT can fail (a serialization failure, a deferred constraint): the transaction is
    over and its connection must go back to the pool, or the pool runs dry."""
    deferred = Migration(
        1, "deferred", "CREATE TABLE d (x INTEGER UNIQUE DEFERRABLE INITIALLY DEFERRED)"
    )
    db = await Database.open(pg_url, migrations=[deferred], pool_size=1)
    try:
        for _ in range(3):  # one connection: a leak would make the next write wait for ever
            with pytest.raises(ConstraintViolation):
                await db.write(lambda tx: tx.executemany("INSERT INTO d VALUES (?)", [(1,), (1,)]))
        async with asyncio.timeout(5):
            await db.write(lambda tx: tx.execute("INSERT INTO d VALUES (2)"))
        assert await value(db, "SELECT count(*) FROM d") == 1
    finally:
        await db.close()


async def test_the_pool_runs_transactions_side_by_side(pg: Database) -> None:
    def slow(tx: Transaction) -> None:
        tx.fetchval("SELECT pg_sleep(0.3)")

    started = time.monotonic()
    await asyncio.gather(*(pg.read(slow) for _ in range(4)))
    assert time.monotonic() - started < 1.0  # 4 x 0.3 s one after another would be 1.2 s


async def test_a_stale_version_from_another_process_is_refused(pg: Database, pg_url: str) -> None:
    await new_game(pg)
    other = await Database.open(pg_url)
    try:
        await append_action(pg, "g1", 0, 0, 11, "roll", "roll 1", "{}", T0)
        with pytest.raises(VersionConflict) as caught:
            await append_action(other, "g1", 0, 0, 11, "roll", "roll 2", "{}", T0)
        assert (caught.value.expected, caught.value.actual) == (0, 1)
    finally:
        await other.close()


# -- cluster-wide locks -------------------------------------------------------------------

HOLDER = textwrap.dedent(
    """
    import asyncio, sys
    from bot.storage import Database

    async def main():
        db = await Database.open(sys.argv[1])
        async with db.exclusive("sweep") as mine:
            print("holding" if mine else "refused", flush=True)
            await asyncio.to_thread(sys.stdin.readline)
        await db.close()

    asyncio.run(main())
    """
)


async def test_an_exclusive_lock_is_one_process_s_until_that_process_dies(pg: Database) -> None:
    with holding_process(HOLDER, pg.url, "holding") as proc:
        async with pg.exclusive("sweep") as mine:
            assert mine is False
        async with pg.exclusive("another") as mine:
            assert mine is True
        proc.kill()  # SIGKILL: no unlock is sent; the server drops it with the connection
        await asyncio.to_thread(proc.wait, 10)
        deadline = time.monotonic() + 10
        while True:
            async with pg.exclusive("sweep") as mine:
                if mine:
                    break
            assert time.monotonic() < deadline, "the dead process's lock was never released"
            await asyncio.sleep(0.05)


async def test_closing_the_database_releases_its_exclusive_locks(pg: Database, pg_url: str) -> None:
    other = await Database.open(pg_url)
    async with pg.exclusive("sweep") as mine:
        assert mine
        async with other.exclusive("sweep") as theirs:
            assert not theirs
    await other.close()
    async with pg.exclusive("sweep") as again:
        assert again
