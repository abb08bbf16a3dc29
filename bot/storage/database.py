"""One SQLite connection, its lock, its transactions and its migrations.

Modelled on mautrix's ``async_db``: a single :mod:`aiosqlite` connection in autocommit mode,
guarded by an :class:`asyncio.Lock`, so every transaction is explicit (``BEGIN IMMEDIATE`` ...
``COMMIT``) and no two coroutines interleave statements on it. ``BEGIN IMMEDIATE`` takes the
file's write lock up front, so a read-then-write inside one transaction cannot be overtaken by
another process either (a second bot process or a maintenance script on the same file).

The schema lives in numbered SQL files in ``migrations/`` (``0001_initial.sql``, ...); each is
applied once, in order, in a transaction of its own, and ``PRAGMA user_version`` records the
last one applied.

Two ways to run a transaction:

- ``async with db.transaction() as tx`` / ``db.snapshot()``: each statement is awaited, one
  round trip to the connection's thread per statement. For work that is not on a click's path.
- ``await db.write(work)``: ``work`` is a plain function that gets a
  :class:`SyncTransaction` and runs start to end in the connection's thread, BEGIN and COMMIT
  included: one round trip. The hot paths (a move, a draft step, a board's message id) use it,
  because the lock is held for as long as a transaction lasts, and under load every round trip
  waits for a busy event loop: four awaited statements held the lock ten times longer than the
  SQLite work they did, and clicks queued behind each other for it.
"""

from __future__ import annotations

import asyncio
import importlib.resources
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias, TypeVar

import aiosqlite

from bot.storage.errors import (
    ConstraintViolation,
    DatabaseBusy,
    DatabaseClosed,
    DatabaseOpenError,
    SchemaError,
    StorageError,
)

log = logging.getLogger(__name__)

Params: TypeAlias = Sequence[Any] | Mapping[str, Any]
Row: TypeAlias = sqlite3.Row
T = TypeVar("T")

# STRICT tables (3.37) and the JSON functions the queries use.
MIN_SQLITE_VERSION = (3, 37, 0)
DEFAULT_BUSY_TIMEOUT_MS = 5000

_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
_COMMENT = re.compile(r"--[^\n]*")


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered schema step."""

    version: int
    name: str
    sql: str


def load_migrations(
    package: str = "bot.storage", folder: str = "migrations"
) -> tuple[Migration, ...]:
    """Read the numbered ``NNNN_name.sql`` files shipped with the package, in order.

    Goes through :mod:`importlib.resources` so it works from an installed wheel too (the
    files are package data). Numbers must run 1, 2, 3, ... without gaps or duplicates, so a
    migration lost in a merge fails loudly instead of being skipped.
    """
    root = importlib.resources.files(package).joinpath(folder)
    found: list[Migration] = []
    for entry in root.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match is None:
            continue
        found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    check_migrations(found)
    return tuple(found)


def check_migrations(migrations: Sequence[Migration]) -> None:
    numbers = [m.version for m in migrations]
    if numbers != list(range(1, len(numbers) + 1)):
        raise SchemaError(f"migrations must be numbered 1..n without gaps, found {numbers}")


def split_statements(script: str) -> list[str]:
    """Split a SQL script into single statements.

    ``sqlite3.executescript`` would be simpler but it COMMITs any open transaction first, so a
    migration could not run inside the transaction that also checks and bumps the version.
    :func:`sqlite3.complete_statement` knows about strings, comments and trigger bodies, so
    cutting at every ``;`` and gluing pieces until they form a complete statement is safe.
    """
    statements: list[str] = []
    pending = ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    rest = pending[:-1].strip()  # without the ';' the loop put after the last piece
    if rest:
        statements.append(rest)  # incomplete: executing it lets SQLite report the error
    return [s for s in statements if _COMMENT.sub("", s).strip(" \n\t;")]


def _translate(error: sqlite3.Error) -> StorageError:
    """Map a driver error to the storage error a caller can act on."""
    if isinstance(error, sqlite3.IntegrityError):
        return ConstraintViolation(str(error))
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF  # primary code of an extended one
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return DatabaseBusy(f"database is locked by another connection: {error}")
    return StorageError(f"sqlite error: {error}")


class Transaction:
    """Statements run inside one ``async with db.transaction()`` block.

    Only valid inside that block; the lock is held for its whole life, so keep the work in it
    short and never wait for Discord inside it.
    """

    __slots__ = ("_conn", "_open")

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._open = True

    def _end(self) -> None:
        self._open = False

    def _check(self) -> aiosqlite.Connection:
        if not self._open:
            raise StorageError("transaction used outside its 'async with' block")
        return self._conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        conn = self._check()
        try:
            async with conn.execute(sql, params) as cursor:
                return cursor.rowcount
        except sqlite3.Error as error:
            raise _translate(error) from error

    async def executemany(self, sql: str, rows: Iterable[Params]) -> int:
        conn = self._check()
        try:
            async with conn.executemany(sql, rows) as cursor:
                return cursor.rowcount
        except sqlite3.Error as error:
            raise _translate(error) from error

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        conn = self._check()
        try:
            return list(await conn.execute_fetchall(sql, params))
        except sqlite3.Error as error:
            raise _translate(error) from error

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """The first row, or None. Meant for queries that select one row (by key, LIMIT 1)."""
        # execute_fetchall is one hop to the worker thread; a cursor + fetchone would be three.
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, params: Params = ()) -> Any:
        """The first column of the first row, or None."""
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]


class SyncTransaction:
    """Statements of a ``db.write(work)`` function, run in the connection's
    thread. Errors are raised as :class:`StorageError` subclasses, as from :class:`Transaction`.
    """

    __slots__ = ("_conn",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        try:
            return self._conn.execute(sql, params).rowcount
        except sqlite3.Error as error:
            raise _translate(error) from error

    def executemany(self, sql: str, rows: Iterable[Params]) -> int:
        try:
            return self._conn.executemany(sql, rows).rowcount
        except sqlite3.Error as error:
            raise _translate(error) from error

    def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.Error as error:
            raise _translate(error) from error

    def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = self.fetchall(sql, params)
        return rows[0] if rows else None

    def fetchval(self, sql: str, params: Params = ()) -> Any:
        row = self.fetchone(sql, params)
        return None if row is None else row[0]


def _run_in_transaction(conn: sqlite3.Connection, work: Callable[[SyncTransaction], T]) -> T:
    """BEGIN IMMEDIATE, ``work``, COMMIT (ROLLBACK when anything raises); runs in the
    connection's thread."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as error:
        raise _translate(error) from error
    try:
        import time as _t

        _a = _t.perf_counter()
        result = work(SyncTransaction(conn))
        _b = _t.perf_counter()
        conn.execute("COMMIT")
        _c = _t.perf_counter()
        if _c - _a > 0.02:
            log.warning("SLOWTX work=%.1f commit=%.1f", (_b - _a) * 1000, (_c - _b) * 1000)
    except BaseException:
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                log.exception("ROLLBACK failed")
        raise
    return result


async def _in_thread(conn: aiosqlite.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """Run ``fn(raw connection)`` in the aiosqlite connection's own thread, queued behind the
    statements already sent, like every aiosqlite call.

    aiosqlite has no public call for this; ``_execute`` is the one its own methods use, and the
    storage tests exercise it on every transaction, so an aiosqlite change would show at once.
    """
    result: T = await conn._execute(fn, conn._conn)  # type: ignore[no-untyped-call]
    return result


class Database:
    """The bot's database: one connection, one lock. Create it with :meth:`open`."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn: aiosqlite.Connection | None = conn
        self._path = path
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._schema_version = 0

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        migrations: Sequence[Migration] | None = None,
    ) -> Database:
        """Open (creating it and its directory if needed) and migrate the database at ``path``.

        Raises :class:`DatabaseOpenError` when the file cannot be created, opened, written to
        or migrated, and :class:`SchemaError` when it was written by a newer schema than this
        code knows. ``migrations`` replaces the packaged ones (tests only).
        """
        if sqlite3.sqlite_version_info < MIN_SQLITE_VERSION:
            raise DatabaseOpenError(
                path, f"SQLite {sqlite3.sqlite_version} is too old; 3.37 or newer is needed"
            )
        steps = load_migrations() if migrations is None else tuple(migrations)
        check_migrations(steps)
        location = str(path)
        if location != ":memory:":
            _prepare_location(Path(path))
        try:
            conn = await aiosqlite.connect(location, isolation_level=None)
        except sqlite3.Error as error:
            raise DatabaseOpenError(path, str(error)) from error
        conn.row_factory = sqlite3.Row
        db = cls(conn, location)
        try:
            await db._configure(busy_timeout_ms)
            await db._migrate(steps)
            # Migrations write nothing on an up-to-date file; prove writes work before serving.
            await db._probe_write()
        except SchemaError:
            await conn.close()
            raise
        except (sqlite3.Error, StorageError) as error:
            await conn.close()
            raise DatabaseOpenError(path, str(error)) from error
        return db

    @property
    def path(self) -> str:
        return self._path

    @property
    def schema_version(self) -> int:
        """Number of the last migration applied."""
        return self._schema_version

    @property
    def closed(self) -> bool:
        return self._conn is None

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # -- locking and transactions ----------------------------------------------------------

    def _refuse_nested_use(self) -> asyncio.Task[Any] | None:
        task = asyncio.current_task()
        if task is not None and self._owner is task:
            # asyncio.Lock is not re-entrant: waiting here would hang the task forever.
            raise StorageError("the database is already in use by this task (nested use)")
        return task

    @asynccontextmanager
    async def _locked(self) -> AsyncIterator[aiosqlite.Connection]:
        task = self._refuse_nested_use()
        async with self._lock:
            if self._conn is None:
                raise DatabaseClosed()
            self._owner = task
            try:
                yield self._conn
            finally:
                self._owner = None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """A write transaction: ``BEGIN IMMEDIATE`` on entry, ``COMMIT`` on a clean exit,
        ``ROLLBACK`` when the block raises (the exception then propagates unchanged)."""
        async with self._locked() as conn, self._run(conn, "BEGIN IMMEDIATE") as tx:
            yield tx

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Transaction]:
        """A read transaction (deferred ``BEGIN``): several queries see one consistent state."""
        async with self._locked() as conn, self._run(conn, "BEGIN") as tx:
            yield tx

    async def write(self, work: Callable[[SyncTransaction], T]) -> T:
        """Run ``work`` as one write transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``, or
        ``ROLLBACK`` if it raises, the exception then propagating) in a single round trip to
        the connection's thread. ``work`` must not block on anything but SQLite."""
        async with self._locked() as conn:
            return await _in_thread(conn, lambda raw: _run_in_transaction(raw, work))

    @asynccontextmanager
    async def _run(self, conn: aiosqlite.Connection, begin: str) -> AsyncIterator[Transaction]:
        try:
            await _exec(conn, begin)
        except sqlite3.Error as error:
            raise _translate(error) from error
        tx = Transaction(conn)
        try:
            yield tx
        except BaseException:
            tx._end()
            await _rollback(conn)
            raise
        tx._end()
        try:
            await _exec(conn, "COMMIT")
        except asyncio.CancelledError:
            # The COMMIT was queued to the connection's thread before the first await, so it
            # runs to its end regardless; a ROLLBACK now would find no transaction.
            raise
        except BaseException as error:
            await _rollback(conn)
            if isinstance(error, sqlite3.Error):
                raise _translate(error) from error
            raise

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """A single read statement outside any explicit transaction."""
        async with self._locked() as conn:
            try:
                return list(await conn.execute_fetchall(sql, params))
            except sqlite3.Error as error:
                raise _translate(error) from error

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, params: Params = ()) -> Any:
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]

    # -- health and shutdown ---------------------------------------------------------------

    async def check_writable(self) -> bool:
        """True when a write reaches the file now (not closed, not read-only, not locked)."""
        try:
            await self._probe_write()
        except StorageError as error:
            log.warning("database %s is not writable: %s", self._path, error)
            return False
        return True

    async def _probe_write(self) -> None:
        # Rewriting user_version with its own value is a real page write (so a read-only file
        # or a full disk fails here) that needs no table and changes nothing.
        async with self.transaction() as tx:
            version = int(await tx.fetchval("PRAGMA user_version"))
            await tx.execute(f"PRAGMA user_version = {version}")

    async def close(self) -> None:
        """Wait for the running transaction, then close. Closing twice is harmless."""
        self._refuse_nested_use()
        async with self._lock:
            conn, self._conn = self._conn, None
            if conn is None:
                return
            try:
                await _exec(conn, "PRAGMA optimize")
            except sqlite3.Error:
                log.debug("PRAGMA optimize failed on close", exc_info=True)
            await conn.close()

    # -- opening ---------------------------------------------------------------------------

    async def _configure(self, busy_timeout_ms: int) -> None:
        async with self._locked() as conn:
            # busy_timeout first: switching to WAL itself may wait for another connection.
            await _exec(conn, f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            rows = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
            mode = str(rows[0][0]).lower()
            if mode != "wal" and self._path != ":memory:":
                raise StorageError(f"could not switch to WAL journal mode (got {mode!r})")
            # NORMAL is durable across application crashes in WAL mode; only a power loss can
            # drop the last commits, and it saves an fsync per move.
            await _exec(conn, "PRAGMA synchronous = NORMAL")
            await _exec(conn, "PRAGMA foreign_keys = ON")

    async def _migrate(self, migrations: Sequence[Migration]) -> None:
        latest = migrations[-1].version if migrations else 0
        current = int(await self.fetchval("PRAGMA user_version"))
        if current > latest:
            raise SchemaError(
                f"database {self._path!r} has schema version {current}, newer than this "
                f"code's {latest}; refusing to touch it"
            )
        for migration in migrations[current:]:
            async with self.transaction() as tx:
                # Read again inside the write transaction: another process may have migrated.
                if int(await tx.fetchval("PRAGMA user_version")) >= migration.version:
                    continue
                try:
                    for statement in split_statements(migration.sql):
                        await tx.execute(statement)
                except StorageError as error:
                    raise SchemaError(
                        f"migration {migration.version:04d}_{migration.name} failed: {error}"
                    ) from error
                await tx.execute(f"PRAGMA user_version = {migration.version}")
                log.info("applied migration %04d_%s", migration.version, migration.name)
        self._schema_version = int(await self.fetchval("PRAGMA user_version"))


async def _exec(conn: aiosqlite.Connection, sql: str) -> None:
    # execute_fetchall runs and drops its cursor in the worker thread: one hop, nothing leaked.
    await conn.execute_fetchall(sql)


async def _rollback(conn: aiosqlite.Connection) -> None:
    # A failed COMMIT or statement may already have ended the transaction.
    if not conn.in_transaction:
        return
    try:
        await _exec(conn, "ROLLBACK")
    except sqlite3.Error:
        log.exception("ROLLBACK failed")


def _prepare_location(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DatabaseOpenError(
            path, f"cannot create directory {str(path.parent)!r}: {error.strerror or error}"
        ) from error
    if path.is_dir():
        raise DatabaseOpenError(path, "the path is a directory")
