"""What both backends share: where a database is, how a SQLite migration is cut into
statements, the :class:`Transaction` API, and the :class:`Engine` each backend implements
under :class:`~bot.storage.database.Database` (the migrations themselves:
:mod:`bot.storage.schema_history`).

Nothing here imports a backend, so the backends (:mod:`bot.storage.sqlite`,
:mod:`bot.storage.postgres`) import this and :mod:`bot.storage.database` imports them.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import contextvars
import dataclasses
import functools
import inspect
import logging
import re
import sqlite3
import threading
import time
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Coroutine,
    Iterable,
    Iterator,
    Sequence,
)
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias, TypeVar
from urllib.parse import urlsplit, urlunsplit

from bot.storage import errors
from bot.storage.dialect import Backend, Dialect
from bot.storage.schema_history import only_comments

if TYPE_CHECKING:
    from _typeshed import DataclassInstance
    from asyncpg import Record

log = logging.getLogger(__name__)

Params: TypeAlias = Sequence[Any]
# Both support row["column"], row[0] and dict(row).
Row: TypeAlias = "sqlite3.Row | Record"
T = TypeVar("T")
D = TypeVar("D", bound="DataclassInstance")

DEFAULT_POOL_SIZE = 8
# How long a write waits for a lock another connection holds, then DatabaseBusy.
DEFAULT_BUSY_TIMEOUT_MS = 5000
# A health probe's write answers in this long, or the database counts as not writable.
PROBE_SECONDS = 5.0


@functools.cache
def _field_names(cls: type[DataclassInstance]) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


def from_row(cls: type[D], row: Row, **converted: Any) -> D:
    """The record ``cls`` (a dataclass) with each field read from the row's column of the
    same name, except the fields given in ``converted``: a value the column does not hold as
    it is (a 0/1 that is a bool, a JSON list, an enum), or a field that is not a column."""
    return cls(
        **{name: converted[name] if name in converted else row[name] for name in _field_names(cls)}
    )


def from_record(cls: type[D], record: DataclassInstance, **converted: Any) -> D:
    """The record ``cls`` with each field taken from ``record``'s field of the same name,
    except the fields given in ``converted``: how a layer above turns a stored row into its
    own record (JSON text decoded, say) without naming every field twice."""
    return cls(
        **{
            name: converted[name] if name in converted else getattr(record, name)
            for name in _field_names(cls)
        }
    )


# -- where the database is ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Location:
    """A parsed database URL: the backend and what its driver opens."""

    backend: Backend
    target: str  # SQLite: the file's path (or ":memory:"); PostgreSQL: the DSN

    @property
    def display(self) -> str:
        """The URL for logs and messages, without a password."""
        if self.backend == "sqlite":
            return f"sqlite:///{self.target}"
        parts = urlsplit(self.target)
        if parts.password is None:
            return self.target
        host = parts.hostname or ""
        if parts.port is not None:
            host = f"{host}:{parts.port}"
        netloc = f"{parts.username or ''}:***@{host}"
        return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


SQLITE_PREFIX = "sqlite:///"
POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")


def locate(target: str | Path) -> Location:
    """The backend and location of ``target``: a ``sqlite:///PATH`` URL (three slashes, then
    the path: ``sqlite:////abs/path.db`` is absolute), a ``postgresql://`` (or ``postgres://``)
    URL, or a plain file path, which means SQLite."""
    if isinstance(target, Path):
        return Location("sqlite", str(target))
    if target.startswith(SQLITE_PREFIX):
        path = target[len(SQLITE_PREFIX) :]
        if not path:
            raise errors.DatabaseOpenError(target, "the sqlite URL names no file (sqlite:///PATH)")
        return Location("sqlite", path)
    if target.startswith(POSTGRESQL_SCHEMES):
        return Location("postgresql", target)
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", target):
        raise errors.DatabaseOpenError(
            target, "unknown database URL: use sqlite:///PATH or postgresql://USER@HOST/DB"
        )
    return Location("sqlite", target)


# -- running migrations --------------------------------------------------------------------


def split_statements(script: str) -> list[str]:
    """Split a SQLite script into single statements.

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
    return [s for s in statements if not only_comments(s)]


# -- transactions ----------------------------------------------------------------------------


class Transaction(abc.ABC):
    """The statements of one transaction, given to the function passed to
    :meth:`Database.write` or :meth:`Database.read`; they run in a worker thread of the
    database.

    Only valid while that function runs. A write transaction holds locks for its whole life,
    so keep the work short and never block on anything but the database. SQL uses ``?``
    placeholders on both backends; :attr:`dialect` says which one runs, for the few things
    that differ (see :mod:`bot.storage.dialect`). Errors are raised as :class:`StorageError`
    subclasses, and a statement that fails dooms its transaction on both backends (as
    PostgreSQL requires): catching the error does not save it, a later statement raises, and
    the transaction rolls back with the first error when its function returns.
    """

    __slots__ = ("_open", "failed")

    dialect: ClassVar[Dialect]

    def __init__(self) -> None:
        self._open = True
        self.failed: errors.StorageError | None = None

    def _check_open(self) -> None:
        if not self._open:
            raise errors.StorageError("transaction used after its function returned")
        if self.failed is not None:
            raise errors.StorageError(
                f"an earlier statement of this transaction failed ({self.failed}); "
                "it can only roll back"
            )

    def _failure(self, error: errors.StorageError) -> errors.StorageError:
        """Remember the first failed statement's error; returns it for raising."""
        if self.failed is None:
            self.failed = error
        return error

    @abc.abstractmethod
    def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""

    @abc.abstractmethod
    def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement once per parameter row (PostgreSQL sends them in one batch,
        which reports no row counts, so neither backend returns one)."""

    @abc.abstractmethod
    def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of one query."""

    @abc.abstractmethod
    def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """The first row, or None."""

    def fetchval(self, sql: str, params: Params = ()) -> Any:
        """The first column of the first row, or None."""
        row = self.fetchone(sql, params)
        return None if row is None else row[0]

    def perform(self, work: Callable[[Transaction], T], owner: Engine) -> T:
        """``work(self)``, run by ``owner``'s worker thread between BEGIN and COMMIT. Raises
        the first failed statement's error even when ``work`` caught it: the transaction can
        only roll back."""
        with running_work_of(owner):
            result = work(self)
        refuse_coroutine(result)
        if self.failed is not None:
            raise self.failed
        return result


def refuse_coroutine(result: object) -> None:
    """A work function that returned an awaitable was an ``async def`` in disguise."""
    if inspect.isawaitable(result):
        if inspect.iscoroutine(result):
            result.close()  # never awaited, and it must not warn about that later
        raise TypeError("a transaction's work must be a plain function, not a coroutine")


# The databases whose transaction work runs in this thread now: using one of them again from
# inside would wait for itself (SQLite) or take a second connection and deadlock on its own
# locks (PostgreSQL), so it fails fast instead.
_inside = threading.local()


@contextlib.contextmanager
def running_work_of(owner: object) -> Iterator[None]:
    """Marks this thread as running a transaction's work for ``owner`` (an engine)."""
    active: set[int] = getattr(_inside, "databases", set())
    _inside.databases = active
    active.add(id(owner))
    try:
        yield
    finally:
        active.discard(id(owner))


def refuse_nested_use(owner: object) -> None:
    """Fail fast when this thread runs a transaction's work of ``owner`` now."""
    if id(owner) in getattr(_inside, "databases", ()):
        raise errors.StorageError("the database is already in use by this transaction (nested use)")


# -- the engine ----------------------------------------------------------------------------


class Engine(abc.ABC):
    """One backend's connection(s) and worker thread(s), under one :class:`Database`."""

    backend: ClassVar[Backend]

    def __init__(self) -> None:
        self.schema_version = 0

    @property
    @abc.abstractmethod
    def url(self) -> str:
        """The database's URL, without a password."""

    @property
    @abc.abstractmethod
    def closed(self) -> bool: ...

    @property
    def retries(self) -> int:
        """Transactions run again after losing a serialization race (PostgreSQL only)."""
        return 0

    @abc.abstractmethod
    def run(
        self,
        work: Callable[[Transaction], T],
        *,
        write: bool,
        compare_and_set: bool,
        deadline: float | None = None,
    ) -> Coroutine[Any, Any, T]:
        """Submit the transaction to a worker thread and await it (see ``Database.write``).
        ``deadline`` (``time.monotonic()``): every wait of the transaction (for a worker,
        a connection, a lock, a statement's answer) ends by then with
        :class:`DatabaseUnavailable`; COMMIT cut short raises :class:`CommitUnknown`."""

    @abc.abstractmethod
    def hold(self, name: str) -> contextlib.AbstractAsyncContextManager[bool]:
        """The backend's part of ``Database.exclusive`` (the in-process check is done)."""

    @staticmethod
    @abc.abstractmethod
    def _probe(tx: Transaction) -> object:
        """A write the database must really perform, yet one that changes nothing: a
        read-only file or server refuses it."""

    async def check_writable(self) -> bool:
        try:
            await self._probe_write()
        except errors.StorageError as error:
            log.warning("database %s is not writable: %s", self.url, error)
            return False
        return True

    async def _probe_write(self) -> None:
        await self.run(
            self._probe,
            write=True,
            compare_and_set=False,
            deadline=time.monotonic() + PROBE_SECONDS,
        )

    @abc.abstractmethod
    async def close(self) -> None: ...

    @contextlib.asynccontextmanager
    async def opening(
        self,
        display: str,
        failures: tuple[type[BaseException], ...],
        reason: Callable[[BaseException], str] = str,
    ) -> AsyncIterator[None]:
        """Around a backend's ``connect``: an engine that fails to open is closed again, and
        a storage or driver error in ``failures`` is raised as :class:`DatabaseOpenError`
        about ``display`` (``reason`` says why); a :class:`SchemaError` stays what it is."""
        try:
            yield
        except BaseException as error:
            await self.close()
            if isinstance(error, failures) and not isinstance(
                error, errors.SchemaError | errors.DatabaseOpenError
            ):
                raise errors.DatabaseOpenError(display, reason(error)) from error
            raise


async def shielded(job: Awaitable[T]) -> T:
    """Await a submitted transaction; a cancelled caller does not cancel it (see
    :meth:`Database.write`)."""
    return await asyncio.shield(job)


# -- deadlines -------------------------------------------------------------------------------


# The deadline of the transactions of one interactive request: a click must hear back within
# Discord's 3 s, so its transactions give up by then, whatever the database does (a server
# restarting, a network gone silent, a lock held long), and the person is told that nothing
# was changed. Set by the request's frame (bot.ui.clicks, through the service); tasks started
# from it inherit it, background tasks start with a fresh context.
@dataclass(slots=True)
class RequestDeadline:
    """``at`` (``time.monotonic()``) bounds the request's transactions until its first write
    commits (``lifted``): from then on the change is stored and the person hears about it
    however long the rest takes (a board posted, a game opened), so what follows (recording
    the board's message id, say) must not fail for a deadline meant for the answer."""

    at: float
    lifted: bool = False


_deadline: contextvars.ContextVar[RequestDeadline | None] = contextvars.ContextVar(
    "tabula_db_deadline", default=None
)


@contextlib.contextmanager
def deadline_in(seconds: float) -> Iterator[RequestDeadline]:
    """The transactions started inside (in this task, and tasks it starts) end within
    ``seconds`` from now, until a write commits (see :class:`RequestDeadline`)."""
    token = _deadline.set(RequestDeadline(time.monotonic() + seconds))
    try:
        yield _deadline.get()  # type: ignore[misc]
    finally:
        _deadline.reset(token)


def request_deadline() -> RequestDeadline | None:
    """The deadline of the request under way, if it still applies."""
    limit = _deadline.get()
    return None if limit is None or limit.lifted else limit


def current_deadline(fallback_seconds: float | None = None) -> float | None:
    """The deadline of the request under way, else ``fallback_seconds`` from now (a
    database's bound for background work), else None."""
    limit = request_deadline()
    if limit is not None:
        return limit.at
    if fallback_seconds is not None:
        return time.monotonic() + fallback_seconds
    return None


def remaining(deadline: float | None) -> float | None:
    """Seconds left until ``deadline``; raises when none are."""
    if deadline is None:
        return None
    left = deadline - time.monotonic()
    if left <= 0:
        raise errors.DatabaseUnavailable("the database did not answer before the deadline")
    return left


class Gate:
    """Whether a submitted transaction has started in its worker thread. One still queued at
    its deadline (the workers busy with slower work) is given up and never starts, so the
    caller can say truthfully that nothing was changed."""

    __slots__ = ("_guard", "_state")

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._state = "queued"

    def enter(self) -> None:
        """In the worker thread, first thing: refuse to start a given-up transaction."""
        with self._guard:
            if self._state == "abandoned":
                raise errors.DatabaseUnavailable("no database worker was free before the deadline")
            self._state = "started"

    def abandon(self) -> bool:
        """True when the transaction had not started (it now never will)."""
        with self._guard:
            if self._state == "queued":
                self._state = "abandoned"
                return True
            return False


async def run_in_worker(
    executor: Executor, transaction: Callable[[], T], deadline: float | None
) -> T:
    """Run ``transaction`` in a thread of ``executor`` and await it. A cancelled caller does
    not cancel it, even before it started: every transaction asked for before ``close()``
    runs, and ``close()`` waits for it. One still queued at ``deadline`` (behind slower
    transactions) is given up and never starts (see :class:`Gate`)."""
    gate = Gate()

    def started() -> T:
        gate.enter()
        return transaction()

    try:
        job = asyncio.get_running_loop().run_in_executor(executor, started)
    except RuntimeError:  # the executor was shut down by a concurrent close()
        raise errors.DatabaseClosed() from None
    return await await_job(job, gate, deadline)


async def await_job(job: asyncio.Future[T], gate: Gate, deadline: float | None) -> T:
    """Await a submitted transaction (shielded, see :func:`shielded`); one that has not
    started by ``deadline`` is given up (:class:`DatabaseUnavailable`). One that has started
    is awaited to its end: it keeps to the deadline itself."""
    if deadline is not None and not job.done():
        await asyncio.wait({job}, timeout=max(0.0, deadline - time.monotonic()))
        if not job.done() and gate.abandon():
            job.add_done_callback(_consume)
            raise errors.DatabaseUnavailable("no database worker was free before the deadline")
    return await shielded(job)


def _consume(job: asyncio.Future[Any]) -> None:
    """Retrieve a given-up job's outcome, so asyncio does not report it as never retrieved."""
    if not job.cancelled():
        job.exception()
