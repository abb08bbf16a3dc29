"""One SQLite connection, the one thread that uses it, its transactions and its migrations.

The connection is a standard-library :mod:`sqlite3` connection in autocommit mode, opened,
used and closed by a single worker thread (a ``ThreadPoolExecutor`` with one worker), so the
event loop never waits for SQLite and no two transactions interleave: the worker runs them one
after another, in the order they were asked for.

A transaction is a plain function handed to :meth:`Database.write` (``BEGIN IMMEDIATE``) or
:meth:`Database.read` (deferred ``BEGIN``). It gets a :class:`Transaction` and runs from BEGIN
to COMMIT (or ROLLBACK) in the worker thread: one hop from the event loop per transaction,
however many statements it has. That matters more than it looks: SQLite's write lock is held
from BEGIN IMMEDIATE to COMMIT, and with one await per statement each statement also waited
for a busy event loop, so the lock was held ten times longer than SQLite worked and clicks
queued for it. ``BEGIN IMMEDIATE`` takes the file's write lock up front, so a read-then-write
inside one transaction cannot be overtaken by another process either (a second bot process or
a maintenance script on the same file).

The schema lives in numbered SQL files in ``migrations/`` (``0001_initial.sql``, ...); each is
applied once, in order, in a transaction of its own, and ``PRAGMA user_version`` records the
last one applied.
"""

from __future__ import annotations

import asyncio
import importlib.resources
import inspect
import logging
import re
import sqlite3
import threading
from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeAlias, TypeVar

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
    """The statements of one transaction, given to the function passed to
    :meth:`Database.write` or :meth:`Database.read`; they run in the database's thread.

    Only valid while that function runs. A write transaction holds SQLite's write lock for its
    whole life, so keep the work short and never block on anything but SQLite. Errors are
    raised as :class:`StorageError` subclasses.
    """

    __slots__ = ("_conn", "_open")

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._open = True

    def _live(self) -> sqlite3.Connection:
        if not self._open:
            raise StorageError("transaction used after its function returned")
        return self._conn

    def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        try:
            return self._live().execute(sql, params).rowcount
        except sqlite3.Error as error:
            raise _translate(error) from error

    def executemany(self, sql: str, rows: Iterable[Params]) -> int:
        try:
            return self._live().executemany(sql, rows).rowcount
        except sqlite3.Error as error:
            raise _translate(error) from error

    def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        try:
            return self._live().execute(sql, params).fetchall()
        except sqlite3.Error as error:
            raise _translate(error) from error

    def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """The first row, or None."""
        try:
            cursor = self._live().execute(sql, params)
            try:
                row: Row | None = cursor.fetchone()
            finally:
                cursor.close()  # a half-stepped statement would hold up COMMIT
        except sqlite3.Error as error:
            raise _translate(error) from error
        return row

    def fetchval(self, sql: str, params: Params = ()) -> Any:
        """The first column of the first row, or None."""
        row = self.fetchone(sql, params)
        return None if row is None else row[0]


def _run_transaction(begin: str, work: Callable[[Transaction], T], conn: sqlite3.Connection) -> T:
    """``begin``, ``work``, COMMIT (ROLLBACK when anything raises); runs in the database's
    thread, so nothing the awaiting caller does (being cancelled included) can cut it short."""
    try:
        conn.execute(begin)
    except sqlite3.Error as error:
        raise _translate(error) from error
    tx = Transaction(conn)
    try:
        result = work(tx)
        if inspect.isawaitable(result):
            if inspect.iscoroutine(result):
                result.close()  # never awaited, and it must not warn about that later
            raise TypeError("a transaction's work must be a plain function, not a coroutine")
        tx._open = False
        conn.execute("COMMIT")
    except BaseException as error:
        tx._open = False
        _rollback(conn)
        if isinstance(error, sqlite3.Error):  # only COMMIT raises these unwrapped
            raise _translate(error) from error
        raise
    return result


def _rollback(conn: sqlite3.Connection) -> None:
    # A failed COMMIT or statement may already have ended the transaction.
    if not conn.in_transaction:
        return
    try:
        conn.execute("ROLLBACK")
    except sqlite3.Error:
        log.exception("ROLLBACK failed")


def _connect(location: str, busy_timeout_ms: int) -> sqlite3.Connection:
    """Open and configure the connection (in the database's thread, which alone uses it)."""
    conn = sqlite3.connect(location, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        # busy_timeout first: switching to WAL itself may wait for another connection.
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        mode = str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]).lower()
        if mode != "wal" and location != ":memory:":
            raise StorageError(f"could not switch to WAL journal mode (got {mode!r})")
        # NORMAL is durable across application crashes in WAL mode; only a power loss can
        # drop the last commits, and it saves an fsync per move.
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        conn.close()
        raise
    return conn


def _disconnect(conn: sqlite3.Connection) -> None:
    try:
        conn.execute("PRAGMA optimize")
    except sqlite3.Error:
        log.debug("PRAGMA optimize failed on close", exc_info=True)
    conn.close()


def _user_version(tx: Transaction) -> int:
    return int(tx.fetchval("PRAGMA user_version"))


def _rewrite_user_version(tx: Transaction) -> None:
    # Rewriting user_version with its own value is a real page write (so a read-only file
    # or a full disk fails here) that needs no table and changes nothing.
    tx.execute(f"PRAGMA user_version = {_user_version(tx)}")


def _apply(migration: Migration, tx: Transaction) -> None:
    # Read again inside the write transaction: another process may have migrated.
    if _user_version(tx) >= migration.version:
        return
    try:
        for statement in split_statements(migration.sql):
            tx.execute(statement)
    except StorageError as error:
        raise SchemaError(
            f"migration {migration.version:04d}_{migration.name} failed: {error}"
        ) from error
    tx.execute(f"PRAGMA user_version = {migration.version}")
    log.info("applied migration %04d_%s", migration.version, migration.name)


class Database:
    """The bot's database: one connection and the one thread that uses it. Create it with
    :meth:`open`; run transactions with :meth:`write` and :meth:`read`."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._conn: sqlite3.Connection | None = None
        self._closing: asyncio.Future[None] | None = None
        self._worker: int | None = None  # the thread id of the executor's one worker
        self._executor = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="tabula-db", initializer=self._claim_worker
        )
        self._schema_version = 0

    def _claim_worker(self) -> None:
        self._worker = threading.get_ident()

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
        db = cls(location)
        try:
            db._conn = await asyncio.get_running_loop().run_in_executor(
                db._executor, _connect, location, busy_timeout_ms
            )
            await db._migrate(steps)
            # Migrations write nothing on an up-to-date file; prove writes work before serving.
            await db._probe_write()
        except SchemaError:
            await db.close()
            raise
        except (sqlite3.Error, StorageError) as error:
            await db.close()
            raise DatabaseOpenError(path, str(error)) from error
        except BaseException:
            await db.close()
            raise
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

    # -- transactions ----------------------------------------------------------------------

    def write(self, work: Callable[[Transaction], T]) -> Coroutine[Any, Any, T]:
        """Run ``work`` as one write transaction: ``BEGIN IMMEDIATE``, ``work(tx)``, ``COMMIT``,
        or ``ROLLBACK`` if it raises (the exception then propagates), all in one hop to the
        database's thread; returns what ``work`` returns.

        Once started, the transaction runs to its end even if the awaiting task is cancelled
        meanwhile: it commits or rolls back whole, and the next one starts after it.
        """
        return self._transaction("BEGIN IMMEDIATE", work)

    def read(self, work: Callable[[Transaction], T]) -> Coroutine[Any, Any, T]:
        """Run ``work`` as one read transaction (a deferred ``BEGIN``): its queries see one
        consistent state of the file. Otherwise as :meth:`write`."""
        return self._transaction("BEGIN", work)

    def _transaction(self, begin: str, work: Callable[[Transaction], T]) -> Coroutine[Any, Any, T]:
        # Checked when called, not when awaited: called from inside a transaction's work (in
        # the database's thread) it would only make a coroutine that is never run.
        self._refuse_nested_use()
        if inspect.iscoroutinefunction(work):
            raise TypeError("a transaction's work must be a plain function, not a coroutine")
        return self._call(partial(_run_transaction, begin, work))

    def _refuse_nested_use(self) -> None:
        if self._worker is not None and threading.get_ident() == self._worker:
            raise StorageError("the database is already in use by this transaction (nested use)")

    async def _call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        conn = self._conn
        if conn is None:
            raise DatabaseClosed()
        job = asyncio.get_running_loop().run_in_executor(self._executor, fn, conn)
        # shield: a cancelled caller must not cancel a job that has not started yet either,
        # so every transaction asked for before close() runs, and close() waits for it.
        return await asyncio.shield(job)

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
        await self.write(_rewrite_user_version)

    def close(self) -> Coroutine[Any, Any, None]:
        """Wait for the transactions already asked for, then close. Closing twice is
        harmless; a transaction asked for afterwards raises :class:`DatabaseClosed`."""
        self._refuse_nested_use()
        return self._close()

    async def _close(self) -> None:
        if self._closing is None:
            conn, self._conn = self._conn, None
            if conn is not None:
                # Queued behind every transaction already submitted: they finish first.
                self._closing = asyncio.get_running_loop().run_in_executor(
                    self._executor, _disconnect, conn
                )
            # Lets the queued jobs finish, then ends the worker thread; does not block.
            self._executor.shutdown(wait=False)
        if self._closing is not None and not self._closing.done():
            await asyncio.shield(self._closing)

    # -- opening ---------------------------------------------------------------------------

    async def _migrate(self, migrations: Sequence[Migration]) -> None:
        latest = migrations[-1].version if migrations else 0
        current = await self.read(_user_version)
        if current > latest:
            raise SchemaError(
                f"database {self._path!r} has schema version {current}, newer than this "
                f"code's {latest}; refusing to touch it"
            )
        for migration in migrations[current:]:
            await self.write(partial(_apply, migration))
        self._schema_version = await self.read(_user_version)


def _prepare_location(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DatabaseOpenError(
            path, f"cannot create directory {str(path.parent)!r}: {error.strerror or error}"
        ) from error
    if path.is_dir():
        raise DatabaseOpenError(path, "the path is a directory")
