"""The PostgreSQL backend: asyncpg and a connection pool behind the same sync transactions.

Why this shape. The repositories and services hand :meth:`Database.write` a plain function
``work(tx)`` that runs a whole transaction (see :mod:`bot.storage.database`); that keeps a
transaction to one hop from the event loop and keeps SQL out of every ``await``. asyncpg is
asyncio-only, so the backend is two parts:

- **a loop thread**: an asyncio event loop in a thread of its own owns the asyncpg pool and
  every connection. The bot's event loop never runs a query, so a slow statement, a busy pool
  or a reconnect never stalls a click's acknowledgement or a board render;
- **work threads**, as many as the pool has connections: a transaction's function runs in
  one of them. Each ``tx.execute``/``fetch*`` hands its statement to the loop thread with
  :func:`asyncio.run_coroutine_threadsafe` and waits for the answer; the first statement
  also takes a connection and sends BEGIN, and COMMIT gives it back, in the same hand-overs.
  A transaction holds one pooled connection from BEGIN to COMMIT (asyncpg's public
  ``Connection.transaction()``).

Driving asyncpg from plain threads through its loop costs a thread hand-over per statement
(tens of microseconds), next to a network round trip per statement that any driver pays; in
exchange no repository or service changes shape, and SQLite and PostgreSQL run the same code.

Isolation. A write transaction is ``SERIALIZABLE``: PostgreSQL then guarantees what SQLite's
``BEGIN IMMEDIATE`` gives (the outcome of some one-at-a-time order), so every read-then-write
in the repositories stays correct with any number of processes and connections, without a
``FOR UPDATE`` to remember in each: the accept of a challenge (its accepted list is read, then
compared and set), the channel's one active game, a challenger's one pending challenge per
invitee, a rating read and rewritten when two games end at once. When the server reports a
serialization failure or a deadlock (SQLSTATE 40001, 40P01), the transaction is rolled back
and its function run again from the start, a few times with a short random pause, then
:class:`~bot.storage.errors.DatabaseBusy`.

Serializable checking has a price where writes are frequent: its read locks cover index
pages, or a whole small table, so moves in two different games can abort each other for
sharing a page. The hot writes therefore say they need no more than READ COMMITTED
(``db.write(work, compare_and_set=True)``): a move, a draft step, a board marked shown, a
reminder claimed, a challenge resolved. Each changes rows only through an UPDATE guarded by
its own WHERE (``... WHERE id = ? AND version = ? AND status = 'active'``) or blindly, and
writes nothing that depends on another row it read. Under READ COMMITTED such an UPDATE that
meets a row changed by a concurrent transaction waits for it and evaluates its WHERE again on
the new row, so of two clicks on the same version exactly one matches, in one process or
across many: a stale or doubled click is refused with ``VersionConflict``, never applied
twice, and nothing is ever retried. A read transaction is ``REPEATABLE READ READ ONLY``: one
snapshot, and it never fails for a concurrent write.

Schema. The files ``migrations/NNNN_name.postgresql.sql`` (the PostgreSQL half of the one
history, :mod:`bot.storage.schema_history`), recorded one row per migration in
``schema_version``. Every migration runs in a transaction of its own that first takes a
transaction-level advisory lock (``pg_advisory_xact_lock``) and reads the version again, so
processes starting at the same moment apply each migration exactly once. A table still in
PostgreSQL's numbering from before the shared history is rewritten in the shared one first,
under the same lock, in one transaction (:mod:`bot.storage.old_numbering`).

Cluster-wide locks (:meth:`Database.exclusive`): ``pg_try_advisory_lock`` on a connection
opened for it and held while inside; the server drops the lock with the connection.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import logging
import random
import threading
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg
import asyncpg.exceptions as pg_errors

from bot.storage.dialect import POSTGRESQL, Backend, Dialect
from bot.storage.engine import (
    Engine,
    Location,
    Params,
    Row,
    Transaction,
    remaining,
    run_in_worker,
)
from bot.storage.errors import (
    CommitUnknown,
    ConstraintViolation,
    DatabaseBusy,
    DatabaseClosed,
    DatabaseOpenError,
    DatabaseUnavailable,
    SchemaError,
    StorageError,
)
from bot.storage.old_numbering import Applied, renumbered
from bot.storage.schema_history import Migration, refuse_newer

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

log = logging.getLogger(__name__)

T = TypeVar("T")
# A connection of the pool (what it hands out) or one of our own (the lock's).
Conn: TypeAlias = "asyncpg.Connection[asyncpg.Record] | PoolConnectionProxy[asyncpg.Record]"
Pooled: TypeAlias = "PoolConnectionProxy[asyncpg.Record]"

# Retries of a transaction that lost a serialization race: attempts, and the pause before
# the n-th retry, drawn from [0, RETRY_PAUSE * 2**n] (at most RETRY_PAUSE_MOST) so racing
# transactions spread out more each time they meet again (about 1 s in all, or less where a
# click's deadline comes first).
MAX_ATTEMPTS = 12
RETRY_PAUSE = 0.002
RETRY_PAUSE_MOST = 0.15
ACQUIRE_TIMEOUT = 30.0
# A statement that has not answered in this long fails (a server or network gone silent)
# instead of holding a worker thread for ever; migrations, which may rebuild big tables and
# wait for another process's, get a day.
COMMAND_TIMEOUT = 300.0
MIGRATION_TIMEOUT = 24 * 3600.0
STATEMENT_CACHE_SIZE = 512
# A ROLLBACK that does not answer in this long has its connection closed (which rolls back).
ROLLBACK_TIMEOUT = 5.0

_RETRYABLE = (
    pg_errors.SerializationError,  # 40001
    pg_errors.DeadlockDetectedError,  # 40P01
    # A migration by another process changed a table a cached statement reads: a fresh
    # attempt prepares the statement again.
    pg_errors.InvalidCachedStatementError,
    pg_errors.OutdatedSchemaCacheError,
)

_SCHEMA_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    "version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
    "applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
)
_CURRENT_VERSION = "SELECT coalesce(max(version), 0) FROM schema_version"


def lock_key(name: str) -> int:
    """The advisory lock key (a signed 64-bit number) of a lock name; namespaced so that no
    other application's keys on the same server collide with ours by accident."""
    digest = hashlib.blake2b(f"tabula:{name}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


MIGRATION_LOCK = lock_key("migrations")


class _Retry(DatabaseBusy):
    """The server gave up on this transaction for a concurrent one; run it again."""


# SQLSTATE classes of a server that cannot serve now but may soon: 08 connection exception,
# 53 insufficient resources (too many connections), 57 operator intervention (shutting down,
# starting up, crash recovery).
_UNAVAILABLE_CLASSES = ("08", "53", "57")


def translate(error: BaseException) -> StorageError:
    """Map a driver or connection error to the storage error a caller can act on."""
    if isinstance(error, StorageError):
        return error
    if isinstance(error, _RETRYABLE):
        return _Retry(f"postgresql: {error}")
    if _unavailable(error):
        return DatabaseUnavailable(f"postgresql server unavailable: {error}")
    if isinstance(error, pg_errors.IntegrityConstraintViolationError):
        detail = getattr(error, "detail", None)
        return ConstraintViolation(f"{error}" + (f" ({detail})" if detail else ""))
    if isinstance(error, pg_errors.LockNotAvailableError | pg_errors.QueryCanceledError):
        return DatabaseBusy(f"postgresql: a lock was held by another connection too long: {error}")
    if isinstance(error, pg_errors.PostgresError):
        return StorageError(f"postgresql error: {error}")
    if isinstance(error, _CLIENT_SIDE):
        return DatabaseUnavailable(f"postgresql connection: {error!r}")
    raise error


# The driver's own failures: a connection lost or refused, a deadline, and asyncpg's internal
# state errors (seen on a connection the server dropped during its shutdown, handed out again).
_CLIENT_SIDE = (asyncpg.InterfaceError, asyncpg.InternalClientError, OSError, TimeoutError)


def _unavailable(error: BaseException) -> bool:
    """A server that cannot serve now (or a connection lost to it), by its SQLSTATE class."""
    state = str(getattr(error, "sqlstate", "") or "")
    return isinstance(error, pg_errors.PostgresError) and state.startswith(_UNAVAILABLE_CLASSES)


class _Loop:
    """An asyncio event loop in a thread of its own: the only place asyncpg runs."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._main, name="tabula-pg-loop", daemon=True)
        self._thread.start()

    def _main(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.close()

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        try:
            return asyncio.run_coroutine_threadsafe(coro, self.loop)
        except RuntimeError:  # the loop is closed
            coro.close()
            raise DatabaseClosed() from None

    def call(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on the loop and wait for it (from any other thread)."""
        return self.submit(coro).result()

    async def wait(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on the loop and await it from another event loop."""
        return await asyncio.wrap_future(self.submit(coro))

    def stop(self) -> None:
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join()


# What a statement does with the connection, run on the loop thread.
Step: TypeAlias = Callable[[Pooled], Coroutine[Any, Any, T]]


def _count(status: str) -> int:
    """Rows changed, from a command tag such as ``UPDATE 3`` or ``INSERT 0 1``."""
    last = status.rpartition(" ")[2]
    return int(last) if last.isdigit() else 0


@dataclass(frozen=True, slots=True)
class _Mode:
    """How a transaction begins: asyncpg's isolation name, and whether it only reads."""

    isolation: str
    readonly: bool = False


READ = _Mode("repeatable_read", readonly=True)
WRITE = _Mode("serializable")
COMPARE_AND_SET = _Mode("read_committed")


class PgTransaction(Transaction):
    """One transaction on one pooled connection. The connection is taken, and BEGIN sent,
    with the first statement (one hand-over to the loop thread for both); a transaction
    whose work runs no statement takes none.

    With a ``deadline`` every hand-over ends by then: a statement (or the wait for a
    connection, or COMMIT) that has not answered has its connection closed at once (a
    server gone silent answers neither the statement nor a cancel request, and a closed
    connection is one the server rolls back and the pool replaces), then fails with
    :class:`DatabaseUnavailable`, or with :class:`CommitUnknown` when it was the COMMIT."""

    __slots__ = ("_conn", "_deadline", "_handle", "_loop", "_mode", "_pool")

    dialect: ClassVar[Dialect] = POSTGRESQL

    def __init__(
        self, loop: _Loop, pool: asyncpg.Pool, mode: _Mode, deadline: float | None = None
    ) -> None:
        super().__init__()
        self._loop = loop
        self._pool = pool
        self._mode = mode
        self._deadline = deadline
        self._conn: Pooled | None = None
        self._handle: asyncpg.transaction.Transaction | None = None

    async def _step(self, step: Step[T]) -> T:
        """On the loop thread: BEGIN first if this is the first statement, then ``step``."""
        if self._conn is None:
            self._conn = await _acquire(self._pool, self._deadline)
            mode = self._mode
            handle = self._conn.transaction(isolation=mode.isolation, readonly=mode.readonly)  # type: ignore[arg-type]
            await handle.start()
            self._handle = handle
        return await step(self._conn)

    async def _bounded(self, coro: Coroutine[Any, Any, T], *, must_run: bool = False) -> T:
        """On the loop thread: ``coro``, or :class:`_NoAnswer` at the deadline, its
        connection closed (so nothing waits on it any more). ``must_run``: past the deadline
        already, it still runs (and is cut short at once) rather than being dropped, so
        what it does with its connection (COMMIT: give it back) happens.

        A timer rather than a task per statement: this runs for every statement of the bot,
        and a timer costs a few microseconds where a task and its wait cost tens."""
        try:
            left = remaining(self._deadline)
        except DatabaseUnavailable:
            if not must_run:
                coro.close()  # never started: nothing was sent
                raise
            left = 0.0
        if left is None:
            return await coro
        task = asyncio.current_task()
        assert task is not None
        expired = False

        def expire() -> None:
            nonlocal expired
            expired = True
            conn = self._conn
            if conn is not None and not conn.is_closed():
                conn.terminate()  # what waits on it fails at once
            else:
                task.cancel()  # still waiting for a connection: nothing was sent

        timer = asyncio.get_running_loop().call_later(left, expire)
        try:
            return await coro
        except asyncio.CancelledError:
            if not expired:
                raise
            task.uncancel()
            raise _NoAnswer(self._late()) from None
        except Exception as error:
            if expired:
                raise _NoAnswer(self._late()) from error
            raise
        finally:
            timer.cancel()

    def _late(self) -> str:
        return f"no answer from the database within the deadline ({self._mode.isolation})"

    def _call(self, step: Step[T]) -> T:
        # After an error PostgreSQL only takes ROLLBACK (a COMMIT would roll back silently):
        # the base class keeps the first error, so the transaction ends with it.
        self._check_open()
        try:
            return self._loop.call(self._bounded(self._step(step)))
        except Exception as error:
            conn = self._conn
            if conn is not None and isinstance(error, _CLIENT_SIDE):
                # The connection is in a state nobody knows: closed, the server rolls back
                # and the pool opens a new one.
                self._loop.loop.call_soon_threadsafe(conn.terminate)
            failure = self._failure(translate(error))
            if failure is error:
                raise
            raise failure from error

    def execute(self, sql: str, params: Params = ()) -> int:
        text = self.dialect.translate(sql)
        return _count(self._call(lambda conn: conn.execute(text, *params)))

    def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        text, batch = self.dialect.translate(sql), list(rows)
        if batch:
            self._call(lambda conn: conn.executemany(text, batch))

    def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        text = self.dialect.translate(sql)
        return list(self._call(lambda conn: conn.fetch(text, *params)))

    def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        text = self.dialect.translate(sql)
        return self._call(lambda conn: conn.fetchrow(text, *params))

    def finish(self, commit: bool) -> None:
        """COMMIT (or ROLLBACK) and give the connection back, in one hand-over. A failed
        COMMIT raises, as a storage error; a failed ROLLBACK is only logged (the error that
        led to it is the one to see).

        A COMMIT whose answer never came (the deadline passed, the connection dropped) may
        have been applied or not: the server may have committed and lost only the reply.
        That raises :class:`CommitUnknown`, never an error that says nothing changed; the
        caller reads the data again (the game's version tells) before anything else."""
        self._open = False
        conn, handle = self._conn, self._handle
        if conn is None:
            return
        self._conn = self._handle = None
        if not commit or handle is None:
            self._loop.call(_rollback(self._pool, conn, handle, self._rollback_wait()))
            return
        try:
            remaining(self._deadline)
        except DatabaseUnavailable:  # no time left for COMMIT: not sent, nothing changed
            self._loop.call(_rollback(self._pool, conn, handle, self._rollback_wait()))
            raise
        try:
            self._loop.call(self._bounded_commit(conn, handle))
        except pg_errors.PostgresError as error:
            if _unavailable(error):  # the connection lost, the server going away: unknown
                raise CommitUnknown(f"postgresql: COMMIT sent, then {error!r}") from error
            raise translate(error) from error  # the server answered: it rolled back
        except Exception as error:
            raise CommitUnknown(f"postgresql: COMMIT sent, no answer: {error!r}") from error

    def _rollback_wait(self) -> float:
        """How long a ROLLBACK may take before its connection is closed instead: within the
        request's deadline (a small grace past it), else ``ROLLBACK_TIMEOUT``."""
        if self._deadline is None:
            return ROLLBACK_TIMEOUT
        return min(ROLLBACK_TIMEOUT, max(0.05, self._deadline - time.monotonic()))

    async def _bounded_commit(self, conn: Pooled, handle: asyncpg.transaction.Transaction) -> None:
        self._conn = conn  # what _bounded closes if COMMIT does not answer in time
        try:
            await self._bounded(_commit(self._pool, conn, handle), must_run=True)
        finally:
            self._conn = None


class _NoAnswer(DatabaseUnavailable):
    """A statement, COMMIT or wait for a connection passed its deadline."""


async def _leave_as_is(conn: Conn) -> None:
    """The pool's reset on release. asyncpg's default (unlock, CLOSE ALL, UNLISTEN, RESET ALL)
    costs a round trip per transaction, for session state these connections never have: they
    run only whole transactions (the session locks of ``exclusive`` live on connections of
    their own). What can be left is an open transaction after an error: roll it back."""
    if conn.is_in_transaction():
        await conn.execute("ROLLBACK")


class PostgresEngine(Engine):
    """A PostgreSQL database: a pool of connections on a loop thread, work threads."""

    backend: ClassVar[Backend] = "postgresql"

    def __init__(self, location: Location, pool_size: int) -> None:
        super().__init__()
        try:
            self._dsn, asked = _own_parameters(location.target)
        except ValueError as error:
            raise DatabaseOpenError(location.display, str(error)) from None
        pool_size = asked if asked is not None else pool_size
        if pool_size < 1:
            raise DatabaseOpenError(location.display, "pool_size must be at least 1")
        self._display = location.display
        self._pool_size = pool_size
        self._loop = _Loop()
        self._pool: asyncpg.Pool | None = None
        self._executor = ThreadPoolExecutor(max_workers=pool_size, thread_name_prefix="tabula-pg")
        self._closing: asyncio.Task[None] | None = None
        self._retries = 0
        self._retries_guard = threading.Lock()
        self._lock_conns: set[asyncpg.Connection[asyncpg.Record]] = set()

    @classmethod
    async def connect(
        cls,
        location: Location,
        *,
        migrations: Sequence[Migration],
        pool_size: int,
        lock_timeout_ms: int,
    ) -> PostgresEngine:
        db = cls(location, pool_size)
        failures = (StorageError, pg_errors.PostgresError, asyncpg.InterfaceError, OSError)
        async with db.opening(db._display, failures, _open_failure):
            db._pool = await db._loop.wait(db._create_pool(lock_timeout_ms))
            db.schema_version = await db._loop.wait(db._migrate(migrations))
            await db._probe_write()
        return db

    async def _create_pool(self, lock_timeout_ms: int) -> asyncpg.Pool:
        return await asyncpg.create_pool(
            self._dsn,
            min_size=self._pool_size,
            max_size=self._pool_size,
            reset=_leave_as_is,
            statement_cache_size=STATEMENT_CACHE_SIZE,
            command_timeout=COMMAND_TIMEOUT,
            server_settings=self._server_settings(lock_timeout_ms),
        )

    def _server_settings(self, lock_timeout_ms: int) -> dict[str, str]:
        """Ours, unless the URL sets them: asyncpg passes a URL's other query parameters
        (``?synchronous_commit=off``) to the server as settings, and ours would win."""
        given = {key for key, _ in parse_qsl(urlsplit(self._dsn).query)}
        ours = {"application_name": "tabula", "lock_timeout": str(int(lock_timeout_ms))}
        return {key: value for key, value in ours.items() if key not in given}

    @property
    def url(self) -> str:
        return self._display

    @property
    def closed(self) -> bool:
        return self._closing is not None

    @property
    def retries(self) -> int:
        """Transactions run again after losing a serialization race, since opening (for
        benchmarks and tests: a cost of concurrency worth watching)."""
        return self._retries

    # -- transactions ----------------------------------------------------------------------

    async def run(
        self,
        work: Callable[[Transaction], T],
        *,
        write: bool,
        compare_and_set: bool,
        deadline: float | None = None,
    ) -> T:
        if self._closing is not None:
            raise DatabaseClosed()
        mode = (COMPARE_AND_SET if compare_and_set else WRITE) if write else READ
        transaction = partial(self._transaction_in_thread, work, mode, deadline)
        return await run_in_worker(self._executor, transaction, deadline)

    def _transaction_in_thread(
        self, work: Callable[[Transaction], T], mode: _Mode, deadline: float | None
    ) -> T:
        """BEGIN, ``work``, COMMIT in a work thread; again after a serialization failure
        (while the deadline leaves time for it)."""
        for attempt in range(1, MAX_ATTEMPTS + 1):
            try:
                return self._attempt(work, mode, deadline)
            except _Retry as error:
                with self._retries_guard:
                    self._retries += 1
                log.debug("transaction retried (attempt %d): %s", attempt, error)
                if attempt == MAX_ATTEMPTS:
                    raise DatabaseBusy(
                        f"gave up after {attempt} attempts lost to concurrent transactions: {error}"
                    ) from error
                time.sleep(random.uniform(0, min(RETRY_PAUSE_MOST, RETRY_PAUSE * 2**attempt)))
        raise AssertionError("unreachable")

    def _attempt(self, work: Callable[[Transaction], T], mode: _Mode, deadline: float | None) -> T:
        pool = self._pool
        if pool is None:
            raise DatabaseClosed()
        remaining(deadline)  # a retry the deadline leaves no time for is not started
        tx = PgTransaction(self._loop, pool, mode, deadline)
        try:
            result = tx.perform(work, self)
        except BaseException:
            tx.finish(commit=False)
            raise
        tx.finish(commit=True)  # a COMMIT that fails has rolled back: nothing to undo
        return result

    # -- locks -----------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def hold(self, name: str) -> AsyncIterator[bool]:
        key = lock_key(name)
        try:
            conn = await self._loop.wait(self._try_lock(name, key))
        except Exception as error:
            raise translate(error) from error
        if conn is None:
            yield False
            return
        try:
            yield True
        finally:
            self._lock_conns.discard(conn)
            with contextlib.suppress(DatabaseClosed):
                await self._loop.wait(_unlock(conn, key))

    async def _try_lock(self, name: str, key: int) -> asyncpg.Connection[asyncpg.Record] | None:
        conn = await asyncpg.connect(self._dsn, server_settings={"application_name": "tabula"})
        try:
            mine = await conn.fetchval("SELECT pg_try_advisory_lock($1)", key)
        except BaseException:
            await conn.close()
            raise
        if not mine:
            await conn.close()
            return None

        def lost(_: object) -> None:
            if conn in self._lock_conns:
                log.error("lost the cluster-wide lock %r: its connection closed", name)

        conn.add_termination_listener(lost)
        self._lock_conns.add(conn)
        return conn

    # -- health and shutdown ---------------------------------------------------------------

    @staticmethod
    def _probe(tx: Transaction) -> None:
        # An id for the transaction is a write the server must accept: a read-only server
        # (a standby) or transaction refuses it, and its commit goes to the WAL.
        tx.fetchval("SELECT pg_current_xact_id()")

    async def close(self) -> None:
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._shut_down())
        await asyncio.shield(self._closing)

    async def _shut_down(self) -> None:
        # Every transaction asked for so far runs to its end first.
        await asyncio.to_thread(self._executor.shutdown, wait=True)
        pool, self._pool = self._pool, None
        conns = list(self._lock_conns)
        self._lock_conns.clear()
        try:
            await self._loop.wait(_close_all(pool, conns))
        except Exception:
            log.exception("closing the PostgreSQL pool failed")
        finally:
            self._loop.stop()

    # -- opening ---------------------------------------------------------------------------

    async def _migrate(self, migrations: Sequence[Migration]) -> int:
        """On the loop thread: apply what is missing, once, whoever else starts now."""
        assert self._pool is not None
        async with self._pool.acquire() as conn:
            async with conn.transaction():
                await _migration_lock(conn)
                await conn.execute(_SCHEMA_TABLE)
                await _renumber(conn, migrations)
            current = int(await conn.fetchval(_CURRENT_VERSION))
            refuse_newer(self._display, current, migrations)
            for migration in migrations[current:]:
                await _apply(conn, migration)
            return int(await conn.fetchval(_CURRENT_VERSION))


async def _migration_lock(conn: Conn) -> None:
    await conn.execute("SET LOCAL lock_timeout = 0")  # another process may migrate for long
    await conn.execute(
        "SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK, timeout=MIGRATION_TIMEOUT
    )


async def _renumber(conn: Conn, migrations: Sequence[Migration]) -> None:
    """Inside the migration lock's transaction: rewrite a ``schema_version`` recorded in
    PostgreSQL's old numbering in the shared one (the rows keep when each step was applied)."""
    applied = [
        Applied(int(row["version"]), str(row["name"]), row["applied_at"])
        for row in await conn.fetch(
            "SELECT version, name, applied_at FROM schema_version ORDER BY version"
        )
    ]
    rows = renumbered(applied, migrations)
    if rows is None:
        return
    await conn.execute("DELETE FROM schema_version")
    await conn.executemany(
        "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
        [(row.version, row.name, row.applied_at) for row in rows],
    )
    log.info(
        "schema_version renumbered: PostgreSQL's old migration %d is step %04d_%s",
        applied[-1].version,
        rows[-1].version,
        rows[-1].name,
    )


async def _apply(conn: Conn, migration: Migration) -> None:
    async with conn.transaction():
        await _migration_lock(conn)
        # Read again under the lock: another process may have applied it meanwhile.
        if int(await conn.fetchval(_CURRENT_VERSION)) >= migration.version:
            return
        try:
            if not migration.changes_nothing:
                await conn.execute(migration.sql, timeout=MIGRATION_TIMEOUT)
        except pg_errors.PostgresError as error:
            raise SchemaError(
                f"migration {migration.version:04d}_{migration.name} failed: {error}"
            ) from error
        await conn.execute(
            "INSERT INTO schema_version (version, name) VALUES ($1, $2)",
            migration.version,
            migration.name,
        )
    log.info("applied migration %04d_%s", migration.version, migration.name)


async def _acquire(pool: asyncpg.Pool, deadline: float | None) -> Pooled:
    """A connection of the pool; without a deadline, one within ``ACQUIRE_TIMEOUT``."""
    if deadline is not None:  # the caller's _bounded ends the wait
        return await pool.acquire()
    try:
        return await pool.acquire(timeout=ACQUIRE_TIMEOUT)
    except TimeoutError as error:
        raise DatabaseUnavailable(
            f"no free database connection within {ACQUIRE_TIMEOUT:.0f} s"
        ) from error


async def _commit(
    pool: asyncpg.Pool, conn: Pooled, handle: asyncpg.transaction.Transaction
) -> None:
    """COMMIT, then give the connection back, whether the COMMIT worked or raised (a
    serialization failure at COMMIT ends the transaction: it is rolled back)."""
    try:
        await handle.commit()
    except BaseException:
        await _rollback(pool, conn, handle)
        raise
    try:
        await pool.release(conn)
    except Exception:
        log.warning("giving a connection back to the pool failed", exc_info=True)


async def _rollback(
    pool: asyncpg.Pool,
    conn: Pooled,
    handle: asyncpg.transaction.Transaction | None,
    wait: float = ROLLBACK_TIMEOUT,
) -> None:
    """Roll back what is open (a failed COMMIT has ended the transaction already) and give
    the connection back; never raises: the error that brought us here is the one to see. A
    connection closed for not answering is given back as it is: the pool replaces it."""
    try:
        if not conn.is_closed() and conn.is_in_transaction():
            if handle is None:  # BEGIN was sent but did not answer
                conn.terminate()
            else:
                try:
                    await asyncio.wait_for(handle.rollback(), wait)
                except TimeoutError:
                    conn.terminate()
    except Exception:
        log.warning("ROLLBACK failed", exc_info=True)
    try:
        await pool.release(conn)
    except Exception:
        log.warning("giving a connection back to the pool failed", exc_info=True)


async def _unlock(conn: Conn, key: int) -> None:
    try:
        if not conn.is_closed():
            await conn.execute("SELECT pg_advisory_unlock($1)", key)
    except Exception:
        log.warning("releasing an advisory lock failed (closing its connection)", exc_info=True)
    finally:
        await conn.close()


async def _close_all(
    pool: asyncpg.Pool | None, conns: Sequence[asyncpg.Connection[asyncpg.Record]]
) -> None:
    for conn in conns:
        with contextlib.suppress(Exception):
            await conn.close()
    if pool is not None:
        await pool.close()


def _own_parameters(dsn: str) -> tuple[str, int | None]:
    """The URL without the query parameters that are ours, not the server's settings
    (``?pool_size=16``), and the pool size it asks for."""
    parts = urlsplit(dsn)
    query = parse_qsl(parts.query, keep_blank_values=True)
    sizes = [value for key, value in query if key == "pool_size"]
    if not sizes:
        return dsn, None
    if not sizes[-1].isdigit():
        raise ValueError(f"pool_size must be a number, not {sizes[-1]!r}")
    rest = urlencode([(key, value) for key, value in query if key != "pool_size"])
    return urlunsplit(parts._replace(query=rest)), int(sizes[-1])


def _open_failure(error: BaseException) -> str:
    """Why the database could not be opened, with what to do where it is clear."""
    if isinstance(error, pg_errors.InvalidCatalogNameError):
        return f"{error}; create it first (createdb, or CREATE DATABASE as a superuser)"
    if isinstance(error, pg_errors.InvalidAuthorizationSpecificationError):  # and bad passwords
        return f"the server refused the login: {error}"
    if isinstance(error, OSError):
        return f"cannot reach the server: {error.strerror or error}"
    return str(error)
