"""The storage's one interface, :class:`Database`, whichever backend runs under it.

``Database.open(url)`` picks the backend from the URL: ``sqlite:///path/to/tabula.db`` (or a
plain path) is one SQLite file (:mod:`bot.storage.sqlite`: embedded, zero set-up, one bot
process), ``postgresql://user@host/db`` is a PostgreSQL database shared by any number of
bot processes (:mod:`bot.storage.postgres`: asyncpg and a connection pool). Nothing above
storage knows which one runs: both give the same :class:`Transaction` API and the same
guarantees.

A transaction is a plain function handed to :meth:`Database.write` or :meth:`Database.read`.
It gets a :class:`Transaction` and runs from BEGIN to COMMIT (or ROLLBACK) in a worker thread
of the database: one hop from the event loop per transaction, however many statements it has.
That matters more than it looks: a write transaction holds locks from BEGIN to COMMIT, and
with one await per statement each statement also waited for a busy event loop, so the locks
were held many times longer than the database worked and clicks queued for them.

The guarantees, on both backends:

- a write transaction is serializable: it behaves as if no other write ran while it did, in
  this process or another one. SQLite gets this from ``BEGIN IMMEDIATE`` (one writer at a
  time); PostgreSQL from ``SERIALIZABLE`` isolation, re-running the work function when the
  server reports a serialization failure (so a work function must do nothing but use its
  transaction: it may run more than once, and only the last run commits). The hot writes
  that only compare-and-set rows say so (``compare_and_set=True``) and need no more;
- the optimistic version check holds everywhere: of two writes guarded by ``WHERE version
  = ?`` on the same version, exactly one changes the row, whatever the processes;
- a read transaction sees one consistent state of the database;
- once started, a transaction runs to its end even if the awaiting task is cancelled;
  :meth:`Database.close` waits for the ones already asked for;
- errors are :class:`~bot.storage.errors.StorageError` subclasses, never a driver's.

The schema is built by one numbered history of steps shared by both backends, a file per
step and dialect, ``migrations/NNNN_name.<backend>.sql`` (:mod:`bot.storage.schema_history`),
each applied once, in order, in a transaction of its own, also when several processes start
at the same moment.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

from bot.storage.dialect import Backend
from bot.storage.engine import (
    DEFAULT_BUSY_TIMEOUT_MS,
    DEFAULT_POOL_SIZE,
    Engine,
    Params,
    RequestDeadline,
    Row,
    Transaction,
    current_deadline,
    deadline_in,
    from_record,
    from_row,
    locate,
    refuse_nested_use,
    request_deadline,
    split_statements,
)
from bot.storage.schema_history import Migration, check_migrations, load_migrations

__all__ = [
    "DEFAULT_BUSY_TIMEOUT_MS",
    "DEFAULT_POOL_SIZE",
    "Database",
    "Migration",
    "Params",
    "Row",
    "Transaction",
    "check_migrations",
    "deadline_in",
    "from_record",
    "from_row",
    "load_migrations",
    "locate",
    "split_statements",
]

T = TypeVar("T")


async def _lifting(run: Coroutine[Any, Any, T], limit: RequestDeadline) -> T:
    """A request's write: once it has committed, the request's deadline no longer applies."""
    result = await run
    limit.lifted = True
    return result


class Database:
    """The bot's database. Create it with :meth:`open`; run transactions with :meth:`write`
    and :meth:`read`; close it with :meth:`close` (or ``async with``)."""

    def __init__(self, engine: Engine, *, background_seconds: float | None = None) -> None:
        self._engine = engine
        self._held: set[str] = set()
        self._background_seconds = background_seconds

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        serving: bool = False,
        migrations: tuple[Migration, ...] | list[Migration] | None = None,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        pool_size: int = DEFAULT_POOL_SIZE,
        background_seconds: float | None = None,
    ) -> Database:
        """Open (creating it if needed) and migrate the database at ``target``, a URL or a
        SQLite file's path (see :func:`~bot.storage.engine.locate`).

        ``serving``: this process serves the bot from the database. A SQLite file is served by
        one process at a time: a second one is refused with :class:`DatabaseOpenError`, which
        says to use PostgreSQL for more (tools and tests that only look need not ask).
        PostgreSQL takes any number. ``migrations`` replaces the packaged ones (tests only);
        ``busy_timeout_ms`` is how long a write waits for a lock another connection holds
        (SQLite's busy timeout, PostgreSQL's ``lock_timeout``) before
        :class:`~bot.storage.errors.DatabaseBusy`; ``pool_size`` is PostgreSQL's number of
        connections (and of concurrent transactions) in this process.
        ``background_seconds`` bounds every transaction that no request's deadline
        (:func:`deadline_in`) bounds more tightly: a server or network gone silent fails it
        with :class:`~bot.storage.errors.DatabaseUnavailable` in that time, so the work can
        be tried again on a fresh connection (the bot: AI moves, sweeps); None leaves the
        driver's own limits (tools that copy a whole database in one transaction).

        Raises :class:`~bot.storage.errors.DatabaseOpenError` when the database cannot be
        created, reached, written to or migrated, and :class:`~bot.storage.errors.SchemaError`
        when it was written by a newer schema than this code knows.
        """
        location = locate(target)
        if migrations is None:
            steps = load_migrations(location.backend)
        else:
            check_migrations(migrations)
            steps = tuple(migrations)
        engine: Engine
        if location.backend == "sqlite":
            from bot.storage.sqlite import SqliteEngine

            engine = await SqliteEngine.connect(
                location, serving=serving, migrations=steps, busy_timeout_ms=busy_timeout_ms
            )
        else:
            from bot.storage.postgres import PostgresEngine

            engine = await PostgresEngine.connect(
                location,
                migrations=steps,
                pool_size=pool_size,
                lock_timeout_ms=busy_timeout_ms,
            )
        return cls(engine, background_seconds=background_seconds)

    # -- what it is ------------------------------------------------------------------------

    @property
    def backend(self) -> Backend:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._engine.backend

    @property
    def url(self) -> str:
        """The database's URL, without a password (for logs and messages)."""
        return self._engine.url

    @property
    def schema_version(self) -> int:
        """Number of the last migration applied."""
        return self._engine.schema_version

    @property
    def closed(self) -> bool:
        return self._engine.closed

    @property
    def retries(self) -> int:
        """Write transactions run again after losing a serialization race, since opening
        (PostgreSQL; always 0 on SQLite): a cost of concurrency worth watching."""
        return self._engine.retries

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # -- transactions ----------------------------------------------------------------------

    def write(
        self, work: Callable[[Transaction], T], *, compare_and_set: bool = False
    ) -> Coroutine[Any, Any, T]:
        """Run ``work`` as one write transaction (serializable, see the module's docstring):
        BEGIN, ``work(tx)``, COMMIT, or ROLLBACK if it raises (the exception then
        propagates), all in one hop to a worker thread; returns what ``work`` returns.

        Once started, the transaction runs to its end even if the awaiting task is cancelled
        meanwhile: it commits or rolls back whole.

        ``compare_and_set``: the caller vouches that every row ``work`` changes is either
        changed blindly or guarded by the statement's own WHERE clause (``UPDATE ... WHERE
        id = ? AND version = ?``, the optimistic version check), and that nothing it writes
        depends on another row it read. Such a transaction is safe without serializability:
        PostgreSQL runs it at READ COMMITTED, where an UPDATE that meets a row changed
        concurrently waits for that change and checks its WHERE again on the new row (so a
        stale version matches nothing, exactly once), and it never has to be retried. The
        busiest writes (a move, a draft step, a board shown) are of this kind, and serializable
        checking would make moves in different games abort each other for sharing an index
        page. SQLite runs every write one at a time anyway.
        """
        return self._transaction(work, write=True, compare_and_set=compare_and_set)

    def read(self, work: Callable[[Transaction], T]) -> Coroutine[Any, Any, T]:
        """Run ``work`` as one read transaction: its queries see one consistent state of the
        database. Otherwise as :meth:`write`."""
        return self._transaction(work, write=False)

    def _transaction(
        self, work: Callable[[Transaction], T], *, write: bool, compare_and_set: bool = False
    ) -> Coroutine[Any, Any, T]:
        # Checked when called, not when awaited: called from inside a transaction's work (in
        # a worker thread) it would only make a coroutine that is never run.
        self._refuse_nested_use()
        if inspect.iscoroutinefunction(work):
            raise TypeError("a transaction's work must be a plain function, not a coroutine")
        run = self._engine.run(
            work,
            write=write,
            compare_and_set=compare_and_set,
            deadline=current_deadline(self._background_seconds),
        )
        limit = request_deadline()
        return _lifting(run, limit) if write and limit is not None else run

    def _refuse_nested_use(self) -> None:
        refuse_nested_use(self._engine)

    # -- cluster-wide locks ----------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def exclusive(self, name: str) -> AsyncIterator[bool]:
        """``async with db.exclusive("challenge-expiry") as mine:`` - ``mine`` is True when
        this holder, and no other in any process on this database, holds the lock ``name``
        until the block ends; False when someone else holds it (nothing waits).

        For work that must run in one place at a time, such as a sweep over every server's
        data. PostgreSQL: a session-level advisory lock on a connection of its own, held
        while inside (a crash or a lost connection releases it). SQLite serves one process,
        so this process is the whole cluster and only holders in it are counted. Take it for
        one round of the work and leave, rather than for the life of the process: a holder
        that lost its connection is told in the log, but cannot be interrupted.
        """
        self._refuse_nested_use()
        if name in self._held:
            yield False
            return
        self._held.add(name)
        try:
            async with self._engine.hold(name) as mine:
                yield mine
        finally:
            self._held.discard(name)

    # -- health and shutdown ---------------------------------------------------------------

    async def check_writable(self) -> bool:
        """True when a write reaches the database now (not closed, not read-only, not locked,
        reachable)."""
        return await self._engine.check_writable()

    def close(self) -> Coroutine[Any, Any, None]:
        """Wait for the transactions already asked for, then close. Closing twice is
        harmless; a transaction asked for afterwards raises
        :class:`~bot.storage.errors.DatabaseClosed`."""
        self._refuse_nested_use()
        return self._engine.close()
