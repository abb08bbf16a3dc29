"""The SQLite backend: one connection, the one thread that uses it, and the file's owner lock.

The connection is a standard-library :mod:`sqlite3` connection in autocommit mode, opened,
used and closed by a single worker thread (a ``ThreadPoolExecutor`` with one worker), so the
event loop never waits for SQLite and no two transactions interleave: the worker runs them one
after another, in the order they were asked for. A write transaction is ``BEGIN IMMEDIATE``,
which takes the file's write lock up front, so a read-then-write inside one transaction
cannot be overtaken by another connection either (a maintenance script on the same file, or
a test looking at the bot's data). A read transaction is a deferred ``BEGIN``: in WAL mode it
reads one snapshot and blocks nobody.

A SQLite file is served by one bot process. ``Database.open(..., serving=True)`` takes an
exclusive ``flock`` on ``<file>.lock`` beside it and holds it while open; a second process
asking for the same is refused at start-up with a message that says to use PostgreSQL for
more than one process. The kernel drops the lock when its process ends, however it ends
(SIGKILL included), so a restart never finds a stale lock. Connections that do not serve
(``tabula db copy``, a test reading the bot's log) do not take it: WAL lets them read while
the bot writes.

The schema lives in ``migrations/NNNN_name.sqlite.sql`` (the SQLite half of the one history,
:mod:`bot.storage.schema_history`); each is applied once, in order, in a write transaction of
its own that first reads ``PRAGMA user_version`` again (another process may have migrated
meanwhile) and then records its number there. SQLite's numbers before the shared history are
the shared ones, so a file of any age needs no translation (:mod:`bot.storage.old_numbering`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import ClassVar, TypeVar

from bot.storage.dialect import SQLITE, Backend, Dialect
from bot.storage.engine import (
    DEFAULT_BUSY_TIMEOUT_MS,
    Engine,
    Location,
    Params,
    Row,
    Transaction,
    remaining,
    run_in_worker,
    split_statements,
)
from bot.storage.errors import (
    ConstraintViolation,
    DatabaseBusy,
    DatabaseClosed,
    DatabaseOpenError,
    SchemaError,
    StorageError,
)
from bot.storage.schema_history import Migration, refuse_newer

try:
    import fcntl
except ImportError:  # Windows: no flock; the one-process rule is then the operator's
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

T = TypeVar("T")

# STRICT tables (3.37).
MIN_SQLITE_VERSION = (3, 37, 0)


def _translate(error: sqlite3.Error) -> StorageError:
    """Map a driver error to the storage error a caller can act on."""
    if isinstance(error, sqlite3.IntegrityError):
        return ConstraintViolation(str(error))
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF  # primary code of an extended one
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return DatabaseBusy(f"database is locked by another connection: {error}")
    return StorageError(f"sqlite error: {error}")


class SqliteTransaction(Transaction):
    __slots__ = ("_conn",)

    dialect: ClassVar[Dialect] = SQLITE

    def __init__(self, conn: sqlite3.Connection) -> None:
        super().__init__()
        self._conn = conn

    def _live(self) -> sqlite3.Connection:
        self._check_open()
        return self._conn

    def execute(self, sql: str, params: Params = ()) -> int:
        conn = self._live()
        try:
            return conn.execute(sql, params).rowcount
        except sqlite3.Error as error:
            raise self._failure(_translate(error)) from error

    def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        conn = self._live()
        try:
            conn.executemany(sql, rows)
        except sqlite3.Error as error:
            raise self._failure(_translate(error)) from error

    def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        conn = self._live()
        try:
            return conn.execute(sql, params).fetchall()
        except sqlite3.Error as error:
            raise self._failure(_translate(error)) from error

    def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        conn = self._live()
        try:
            cursor = conn.execute(sql, params)
            try:
                row: Row | None = cursor.fetchone()
            finally:
                cursor.close()  # a half-stepped statement would hold up COMMIT
        except sqlite3.Error as error:
            raise self._failure(_translate(error)) from error
        return row


def _run_transaction(
    owner: Engine,
    conn: sqlite3.Connection,
    begin: str,
    work: Callable[[Transaction], T],
    deadline: float | None,
    busy_timeout_ms: int,
) -> T:
    """``begin``, ``work``, COMMIT (ROLLBACK when anything raises); runs in the database's
    thread, so nothing the awaiting caller does (being cancelled included) can cut it short.

    With a ``deadline`` (a click's), the wait for a lock another connection holds (SQLite's
    busy timeout) ends by then instead of after the usual ``busy_timeout_ms``: a maintenance
    script holding the file's write lock cannot keep a click from its answer."""
    left = remaining(deadline)
    bounded = left is not None and left * 1000 < busy_timeout_ms
    try:
        if bounded:
            assert left is not None
            conn.execute(f"PRAGMA busy_timeout = {max(1, int(left * 1000))}")
        try:
            conn.execute(begin)
        finally:
            if bounded:  # only BEGIN IMMEDIATE waits for the write lock
                conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    except sqlite3.Error as error:
        raise _translate(error) from error
    tx = SqliteTransaction(conn)
    try:
        result = tx.perform(work, owner)
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


def _switch_to_wal(conn: sqlite3.Connection, busy_timeout_ms: int) -> str:
    """``PRAGMA journal_mode = WAL``, tried again while another process holds the file.

    On a new file several processes starting at once each try the switch, which needs the
    file to themselves; SQLite answers "database is locked" at once there, without waiting
    for the busy timeout (it cannot wait for a lock another connection may be waiting on).
    """
    deadline = time.monotonic() + busy_timeout_ms / 1000
    while True:
        try:
            return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]).lower()
        except sqlite3.OperationalError as error:
            code = getattr(error, "sqlite_errorcode", 0) & 0xFF
            if code not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                raise
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.01)


def _connect(location: str, busy_timeout_ms: int) -> sqlite3.Connection:
    """Open and configure the connection (in the database's thread, which alone uses it)."""
    conn = sqlite3.connect(location, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        # busy_timeout first: switching to WAL itself may wait for another connection.
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        mode = _switch_to_wal(conn, busy_timeout_ms)
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


# -- the file's owner lock ---------------------------------------------------------------------


class _OwnerLock:
    """The ``flock`` on ``<file>.lock`` a serving process holds (see the module docstring).

    One per process and file: the kernel's flock belongs to an open file, so a second
    serving Database in the same process (a test, a restart inside one process) shares it
    instead of locking itself out.
    """

    _held: ClassVar[dict[str, _OwnerLock]] = {}
    _guard: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, path: str, fd: int) -> None:
        self.path = path
        self.fd = fd
        self.users = 1

    @classmethod
    def claim(cls, database: Path) -> _OwnerLock | None:
        if fcntl is None:
            return None
        path = os.path.realpath(f"{database}.lock")
        with cls._guard:
            held = cls._held.get(path)
            if held is not None:
                held.users += 1
                return held
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as error:
                raise DatabaseOpenError(
                    database, f"cannot create the lock file {path!r}: {error.strerror}"
                ) from error
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                owner = _read_owner(fd)
                os.close(fd)
                raise DatabaseOpenError(
                    database,
                    f"another bot process{owner} is already serving this SQLite file (it "
                    f"holds {path!r}). A SQLite database serves one process; to run more "
                    "than one bot process (shards, machines), use PostgreSQL: set "
                    "DATABASE_URL=postgresql://USER@HOST/DB and move the data with "
                    "`tabula db copy`.",
                ) from None
            except OSError as error:
                os.close(fd)
                raise DatabaseOpenError(
                    database, f"cannot lock {path!r}: {error.strerror}"
                ) from error
            # The owner's pid, for the message a second process shows.
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            lock = cls(path, fd)
            cls._held[path] = lock
            return lock

    def release(self) -> None:
        with self._guard:
            self.users -= 1
            if self.users > 0:
                return
            self._held.pop(self.path, None)
            os.close(self.fd)  # closing the last descriptor drops the flock


def _read_owner(fd: int) -> str:
    try:
        pid = os.pread(fd, 32, 0).decode().strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return f" (pid {pid})" if pid.isdigit() else ""


# -- the database ----------------------------------------------------------------------------

# (file, lock name) held by Database.exclusive in this process.
_HELD: set[tuple[str, str]] = set()


class SqliteEngine(Engine):
    """One SQLite file: one connection and the one thread that uses it."""

    backend: ClassVar[Backend] = "sqlite"

    def __init__(self, path: str) -> None:
        super().__init__()
        self._path = path
        # The file whatever path names it (":memory:" is a database of its own each time).
        self._identity = f"{id(self)}:memory" if path == ":memory:" else os.path.realpath(path)
        self._conn: sqlite3.Connection | None = None
        self._closing: asyncio.Future[None] | None = None
        self._owner: _OwnerLock | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tabula-db")
        self._busy_timeout_ms = DEFAULT_BUSY_TIMEOUT_MS

    @classmethod
    async def connect(
        cls,
        location: Location,
        *,
        serving: bool,
        migrations: Sequence[Migration],
        busy_timeout_ms: int,
    ) -> SqliteEngine:
        path = location.target
        if sqlite3.sqlite_version_info < MIN_SQLITE_VERSION:
            raise DatabaseOpenError(
                path, f"SQLite {sqlite3.sqlite_version} is too old; 3.37 or newer is needed"
            )
        db = cls(path)
        db._busy_timeout_ms = busy_timeout_ms
        async with db.opening(path, (sqlite3.Error, StorageError)):
            if path != ":memory:":
                _prepare_location(Path(path))
                if serving:
                    db._owner = _OwnerLock.claim(Path(path))
            db._conn = await asyncio.get_running_loop().run_in_executor(
                db._executor, _connect, path, busy_timeout_ms
            )
            await db._migrate(migrations)
            # Migrations write nothing on an up-to-date file; prove writes work before serving.
            await db._probe_write()
        return db

    @property
    def path(self) -> str:
        """The file's path (as given)."""
        return self._path

    @property
    def url(self) -> str:
        return f"sqlite:///{self._path}"

    @property
    def closed(self) -> bool:
        return self._conn is None

    # -- transactions ----------------------------------------------------------------------

    async def run(
        self,
        work: Callable[[Transaction], T],
        *,
        write: bool,
        compare_and_set: bool,
        deadline: float | None = None,
    ) -> T:
        conn = self._conn
        if conn is None:
            raise DatabaseClosed()
        # Every write takes the file's write lock at BEGIN: serial, whatever the caller vouches.
        begin = "BEGIN IMMEDIATE" if write else "BEGIN"
        transaction = partial(
            _run_transaction, self, conn, begin, work, deadline, self._busy_timeout_ms
        )
        return await run_in_worker(self._executor, transaction, deadline)

    # -- locks -----------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def hold(self, name: str) -> AsyncIterator[bool]:
        # One process serves the file, so the holders to count are this process's, whichever
        # of its Database objects on the file they use.
        key = (self._identity, name)
        if key in _HELD:
            yield False
            return
        _HELD.add(key)
        try:
            yield True
        finally:
            _HELD.discard(key)

    # -- health and shutdown ---------------------------------------------------------------

    @staticmethod
    def _probe(tx: Transaction) -> None:
        # Rewriting user_version with its own value is a real page write (so a read-only file
        # or a full disk fails here) that needs no table and changes nothing.
        tx.execute(f"PRAGMA user_version = {_user_version(tx)}")

    async def close(self) -> None:
        if self._closing is None:
            conn, self._conn = self._conn, None
            if conn is not None:
                # Queued behind every transaction already submitted: they finish first.
                self._closing = asyncio.get_running_loop().run_in_executor(
                    self._executor, _disconnect, conn
                )
            else:
                self._closing = asyncio.get_running_loop().create_future()
                self._closing.set_result(None)
            # Lets the queued jobs finish, then ends the worker thread; does not block.
            self._executor.shutdown(wait=False)
        if not self._closing.done():
            await asyncio.shield(self._closing)
        if self._owner is not None:
            owner, self._owner = self._owner, None
            owner.release()

    # -- opening ---------------------------------------------------------------------------

    async def _migrate(self, migrations: Sequence[Migration]) -> None:
        current = await self.run(_user_version, write=False, compare_and_set=False)
        refuse_newer(self._path, current, migrations)
        for migration in migrations[current:]:
            await self.run(partial(_apply, migration), write=True, compare_and_set=False)
        self.schema_version = await self.run(_user_version, write=False, compare_and_set=False)


def _prepare_location(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DatabaseOpenError(
            path, f"cannot create directory {str(path.parent)!r}: {error.strerror or error}"
        ) from error
    if path.is_dir():
        raise DatabaseOpenError(path, "the path is a directory")
