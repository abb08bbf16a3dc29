"""Copy every row from one database to another, whatever their backends, and check the copy.

``tabula db copy SRC_URL DST_URL`` (:mod:`bot.db_copy_command`) is built on this: moving a
bot from its SQLite file to PostgreSQL when it outgrows one process, and back. The copy

- refuses a destination that holds any row (:class:`DestinationNotEmpty`): it never merges;
- reads the source in ONE read transaction (one consistent state, even while something
  writes to it) and writes the destination in ONE write transaction (all or nothing), page by
  page through a small queue between the two worker threads, so memory stays flat however
  big the database is;
- refuses two databases at different schema versions (the migrations are one history for
  both backends, so the same number is the same schema), and knows every table and column of
  the schema (:data:`TABLES`) and refuses to run when either database has one it does not
  know, so a future migration cannot be copied half;
- carries the challenges' id counter over, so an id handed out once is never handed out
  again on the destination either;
- is checked by :func:`compare`: the same row count and the same content digest (an
  order-independent hash of every row) per table on both sides.

Rows travel unchanged: both schemas store the same values (64-bit integers, doubles, text;
see ``migrations/0001_initial.postgresql.sql``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import queue
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field

from bot.storage.actions import _action
from bot.storage.database import Database, Row, Transaction
from bot.storage.errors import StorageError
from bot.storage.games import _select_games
from bot.storage.records import ActionRow, GameRow

PAGE = 2000
_QUEUE_PAGES = 4
_PUT_WAIT = 0.5  # seconds between checks whether the writer gave up


@dataclass(frozen=True, slots=True)
class Table:
    """One table as the copy moves it: its columns, and its key (the order pages follow)."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]


# In an order that satisfies the foreign keys (games first, seats before results).
TABLES: tuple[Table, ...] = (
    Table(
        "games",
        (
            "id",
            "game",
            "guild_id",
            "channel_id",
            "parent_channel_id",
            "message_id",
            "options_json",
            "state_json",
            "version",
            "action_count",
            "status",
            "draft_json",
            "dice_seed_hash",
            "dice_seed",
            "rated",
            "created_at",
            "updated_at",
            "finished_at",
            "turn_deadline",
            "reminder_sent",
            "shown_version",
            "message_seq",
            "ai_turn",
            "shown_at",
            "imported",
        ),
        ("id",),
    ),
    Table(
        "seats",
        ("game_id", "seat", "user_id", "ai_level", "display_name", "resigned", "stand_in"),
        ("game_id", "seat"),
    ),
    Table(
        "actions",
        ("game_id", "seq", "seat", "user_id", "kind", "notation", "created_at"),
        ("game_id", "seq"),
    ),
    Table(
        "results",
        (
            "game_id",
            "seat",
            "user_id",
            "place",
            "points",
            "outcome_kind",
            "reason",
            "guild_id",
            "game",
            "finished_at",
        ),
        ("game_id", "seat"),
    ),
    Table(
        "challenges",
        (
            "id",
            "guild_id",
            "channel_id",
            "message_id",
            "challenger_id",
            "invitee_ids_json",
            "accepted_ids_json",
            "game",
            "options_json",
            "status",
            "created_at",
            "expires_at",
            "game_id",
            "rematch_of",
        ),
        ("id",),
    ),
    Table(
        "guild_settings",
        ("guild_id", "thread_mode", "turn_timeout_seconds", "enabled_games_json"),
        ("guild_id",),
    ),
    Table("preferences", ("user_id", "name", "value"), ("user_id", "name")),
    Table(
        "ratings",
        (
            "scope",
            "game",
            "user_id",
            "mu",
            "sigma",
            "ordinal",
            "games",
            "wins",
            "losses",
            "streak",
            "updated",
        ),
        ("scope", "game", "user_id"),
    ),
    Table("rated_games", ("game_id", "rated_at"), ("game_id",)),
    Table("notices", ("game_id", "kind", "version", "posted_at"), ("game_id", "kind", "version")),
    Table("follows", ("game_id", "user_id", "every_turn"), ("game_id", "user_id")),
    Table("live_positions", ("game_id", "game", "position_key"), ("game_id",)),
    Table(
        "reviews",
        ("game_id", "version", "level", "actions", "review_json", "created_at"),
        ("game_id",),
    ),
    Table(
        "imports",
        ("game_id", "user_id", "format", "filename", "size", "sha256", "created_at"),
        ("game_id",),
    ),
    Table("puzzles", ("id", "game", "guild_id", "puzzle_json", "created_at"), ("id",)),
    Table(
        "puzzle_answers",
        ("user_id", "puzzle_id", "guild_id", "game", "choice", "solved", "answered_at"),
        ("user_id", "puzzle_id"),
    ),
    Table("puzzle_streaks", ("user_id", "streak", "best"), ("user_id",)),
    Table("puzzle_settings", ("guild_id", "channel_id", "hour"), ("guild_id",)),
    Table(
        "daily_puzzles",
        ("guild_id", "day", "puzzle_id", "channel_id", "claimed_at", "message_id"),
        ("guild_id", "day"),
    ),
    Table(
        "tournaments",
        (
            "id",
            "guild_id",
            "channel_id",
            "message_id",
            "creator_id",
            "game",
            "format",
            "rounds",
            "points",
            "round_seconds",
            "rated",
            "status",
            "round",
            "round_deadline",
            "version",
            "options_json",
            "event_id",
            "interaction_id",
            "created_at",
            "updated_at",
        ),
        ("id",),
    ),
    Table(
        "tournament_entrants",
        ("tournament_id", "user_id", "name", "rating", "joined_at", "withdrawn"),
        ("tournament_id", "user_id"),
    ),
    Table(
        "tournament_tables",
        (
            "tournament_id",
            "round",
            "board",
            "seats_json",
            "channel_id",
            "game_id",
            "points_json",
            "decided_by",
        ),
        ("tournament_id", "round", "board"),
    ),
    Table(
        "tournament_log",
        ("id", "tournament_id", "at", "actor_id", "action", "detail"),
        ("id",),
    ),
    Table(
        "review_queue",
        ("game_id", "status", "queued_at", "claimed_by", "claimed_at", "attempts", "note"),
        ("game_id",),
    ),
    Table(
        "skill_records",
        (
            "game_id",
            "seat",
            "user_id",
            "guild_id",
            "game",
            "finished_at",
            "rating",
            "decisions",
            "loss",
            "loss_sq",
            "agreed",
            "luck",
            "luck_games_json",
            "result",
            "adjusted",
            "accuracy",
        ),
        ("game_id", "seat"),
    ),
    Table(
        "fairplay_cases",
        ("guild_id", "game", "user_id", "decisions", "moderator_id", "reviewed_at"),
        ("guild_id", "game", "user_id"),
    ),
    Table(
        "fairplay_audit",
        ("id", "guild_id", "moderator_id", "action", "user_id", "game", "at", "detail"),
        ("id",),
    ),
    Table(
        "deck_cards",
        (
            "user_id",
            "game_id",
            "action_index",
            "game",
            "seat",
            "card_json",
            "played",
            "added_at",
            "due_at",
            "box",
            "answers",
            "misses",
            "shown_on",
            "asked",
        ),
        ("user_id", "game_id", "action_index"),
    ),
    Table(
        "deck_people",
        ("user_id", "streak", "best", "reminded_on", "dm_closed_at"),
        ("user_id",),
    ),
    Table(
        "tutor_warnings",
        (
            "id",
            "game_id",
            "version",
            "action_index",
            "seat",
            "user_id",
            "move",
            "best",
            "cost",
            "asked_at",
            "answer",
            "answered_at",
        ),
        ("id",),
    ),
)


class DestinationNotEmpty(StorageError):
    """The destination already holds rows; the copy never merges."""

    def __init__(self, url: str, counts: dict[str, int]) -> None:
        held = ", ".join(f"{name}: {n}" for name, n in counts.items() if n)
        super().__init__(
            f"the destination {url} is not empty ({held}); copy into an empty database"
        )
        self.counts = counts


class SchemaMismatch(StorageError):
    """A database has a table or column the copy does not know (or lacks one it needs), or
    the two are at different schema versions."""


@dataclass(frozen=True, slots=True)
class TableSummary:
    rows: int
    digest: str  # order-independent hash of every row (see _digest)


@dataclass(frozen=True, slots=True)
class Summary:
    """What one database holds: per table, its rows and their digest; the challenge id
    counter (the last id handed out, None when none ever was)."""

    tables: dict[str, TableSummary]
    challenge_counter: int | None


@dataclass(frozen=True, slots=True)
class Comparison:
    source: Summary
    destination: Summary
    problems: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.problems


# -- checks ----------------------------------------------------------------------------------


def check_versions(source: Database, destination: Database) -> None:
    """Refuse two databases at different schema versions: one was opened by other code (or
    with other migrations), and its rows may not mean what the other's do."""
    if source.schema_version != destination.schema_version:
        raise SchemaMismatch(
            f"{source.url} is at schema version {source.schema_version}, {destination.url} "
            f"at {destination.schema_version}: open both with the same version of the bot"
        )


def _check_schema(tx: Transaction, url: str) -> None:
    """Refuse a database whose tables or columns differ from :data:`TABLES`."""
    known = {table.name: table for table in TABLES}
    found = [str(row[0]) for row in tx.fetchall(tx.dialect.tables_sql)]
    if set(found) != set(known):
        extra = sorted(set(found) - set(known))
        missing = sorted(set(known) - set(found))
        raise SchemaMismatch(
            f"{url}: its tables are not the ones the copy knows (unknown: {extra or 'none'}, "
            f"missing: {missing or 'none'})"
        )
    for table in TABLES:
        columns = {str(row[0]) for row in tx.fetchall(tx.dialect.columns_sql, (table.name,))}
        if columns != set(table.columns):
            raise SchemaMismatch(
                f"{url}: table {table.name} has columns {sorted(columns)}, the copy knows "
                f"{sorted(table.columns)}"
            )


def _counts(tx: Transaction) -> dict[str, int]:
    return {t.name: int(tx.fetchval(f"SELECT COUNT(*) FROM {t.name}")) for t in TABLES}


def _counter(tx: Transaction) -> int | None:
    value = tx.fetchval(tx.dialect.challenge_counter_sql)
    return None if value is None else int(value)


def _row_hash(row: Row) -> int:
    # repr tells 1 from 1.0 and None from "None": a value stored as another type differs.
    return int.from_bytes(hashlib.sha256(repr(tuple(row)).encode()).digest(), "big")


def _pages(tx: Transaction, table: Table) -> Iterator[list[Row]]:
    """The table's rows, a page at a time, in key order (keyset pagination: each page is
    an index range scan, however deep into the table)."""
    columns = ", ".join(table.columns)
    key = ", ".join(table.key)
    marks = ", ".join("?" for _ in table.key)
    first = f"SELECT {columns} FROM {table.name} ORDER BY {key} LIMIT {PAGE}"
    after = (
        f"SELECT {columns} FROM {table.name} WHERE ({key}) > ({marks}) ORDER BY {key} LIMIT {PAGE}"
    )
    positions = [table.columns.index(k) for k in table.key]
    rows: list[Row] = tx.fetchall(first)
    while rows:
        yield rows
        if len(rows) < PAGE:
            return
        last = rows[-1]
        rows = tx.fetchall(after, [last[i] for i in positions])


_MASK = (1 << 256) - 1


class _Summing:
    """A summary built from the pages as they are read (the copy's own reading of the
    source, so its summary is of the very snapshot that was copied)."""

    def __init__(self) -> None:
        self.totals = {table.name: 0 for table in TABLES}
        self.counts = {table.name: 0 for table in TABLES}

    def add(self, table: Table, page: list[Row]) -> None:
        total = self.totals[table.name]
        for row in page:
            total = (total + _row_hash(row)) & _MASK  # a sum: the order does not matter
        self.totals[table.name] = total
        self.counts[table.name] += len(page)

    def summary(self, counter: int | None) -> Summary:
        tables = {
            name: TableSummary(self.counts[name], f"{self.totals[name]:064x}")
            for name in self.totals
        }
        return Summary(tables, counter)


def _summary(tx: Transaction) -> Summary:
    summing = _Summing()
    for table in TABLES:
        for page in _pages(tx, table):
            summing.add(table, page)
    return summing.summary(_counter(tx))


async def summarise(db: Database) -> Summary:
    """Row counts and content digests of every table, read in one transaction."""

    def work(tx: Transaction) -> Summary:
        _check_schema(tx, db.url)
        return _summary(tx)

    return await db.read(work)


async def row_counts(db: Database) -> dict[str, int]:
    """Rows per table (after checking the schema is the one the copy knows)."""

    def work(tx: Transaction) -> dict[str, int]:
        _check_schema(tx, db.url)
        return _counts(tx)

    return await db.read(work)


def compare(source: Summary, destination: Summary) -> Comparison:
    problems: list[str] = []
    for table in TABLES:
        mine, theirs = source.tables[table.name], destination.tables[table.name]
        if mine.rows != theirs.rows:
            problems.append(
                f"{table.name}: {mine.rows} rows in the source, {theirs.rows} in the destination"
            )
        elif mine.digest != theirs.digest:
            problems.append(f"{table.name}: the same number of rows, but not the same rows")
    if (destination.challenge_counter or 0) < (source.challenge_counter or 0):
        problems.append(
            f"challenge ids: the destination would hand out {destination.challenge_counter}+1 "
            f"again (the source had reached {source.challenge_counter})"
        )
    return Comparison(source, destination, tuple(problems))


# -- the copy --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Page:
    table: Table
    rows: list[Row]


@dataclass(frozen=True, slots=True)
class _End:
    challenge_counter: int | None


@dataclass(frozen=True, slots=True)
class _Failed:
    error: BaseException


Progress = Callable[[str, int], None]
"""Called in a worker thread after each page written: (table, rows of it so far)."""


@dataclass(frozen=True, slots=True)
class Copied:
    """What a copy wrote (rows per table), and the summary of the source snapshot it read:
    compare it with the destination's to verify the copy while the source is written to."""

    rows: dict[str, int]
    source: Summary


async def copy_database(
    source: Database, destination: Database, *, progress: Progress | None = None
) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``destination``; returns the rows copied
    per table. Raises :class:`DestinationNotEmpty` (nothing written) when the destination
    holds anything, :class:`SchemaMismatch` when the two are at different schema versions
    or either schema is not the one this code knows. Check the result with
    :func:`copy_and_summarise` (or :func:`summarise` of a source nothing writes to) and
    :func:`compare`."""
    return (await copy_and_summarise(source, destination, progress=progress)).rows


async def copy_and_summarise(
    source: Database, destination: Database, *, progress: Progress | None = None
) -> Copied:
    """:func:`copy_database`, with the source's summary computed from the rows the copy
    read, in its one read transaction: a verification that holds while bots write to the
    source (a second reading would see their writes and fail a copy that is right)."""
    check_versions(source, destination)
    summing = _Summing()
    counter: list[int | None] = []
    counts = await row_counts(destination)
    if any(counts.values()):
        raise DestinationNotEmpty(destination.url, counts)
    pages: queue.Queue[_Page | _End | _Failed] = queue.Queue(maxsize=_QUEUE_PAGES)
    stop = threading.Event()  # the writer gave up: the reader must not wait for it

    def put(item: _Page | _End | _Failed) -> None:
        while not stop.is_set():
            try:
                pages.put(item, timeout=_PUT_WAIT)
                return
            except queue.Full:
                continue
        raise _WriterGone()

    def read(tx: Transaction) -> None:
        try:
            _check_schema(tx, source.url)
            for table in TABLES:
                for page in _pages(tx, table):
                    summing.add(table, page)
                    put(_Page(table, page))
            counter.append(_counter(tx))
            put(_End(counter[-1]))
        except _WriterGone:
            return
        except BaseException as error:
            with contextlib.suppress(_WriterGone):
                put(_Failed(error))
            raise

    started = threading.Event()

    def write(tx: Transaction) -> dict[str, int]:
        if started.is_set():
            # PostgreSQL retries a transaction that lost a race with a concurrent one; the
            # pages already taken from the queue cannot be read again.
            raise StorageError(
                f"something else wrote to {destination.url} during the copy; nothing was "
                "copied: stop whatever uses it and run the copy again"
            )
        started.set()
        try:
            return _write_pages(tx, destination.url, pages, progress)
        finally:
            stop.set()

    reading = asyncio.ensure_future(source.read(read))
    try:
        copied = await destination.write(write)
    except BaseException:
        stop.set()
        await asyncio.gather(reading, return_exceptions=True)
        raise
    await reading
    return Copied(copied, summing.summary(counter[-1] if counter else None))


# Tables whose ids the database hands out, copied with their ids (besides challenges).
_IDENTITIES = ("tournaments", "tournament_log", "fairplay_audit", "tutor_warnings")


def _carry_identities(tx: Transaction) -> None:
    """PostgreSQL's identity sequences do not see ids inserted explicitly: set them past the
    largest copied, so the next tournament does not collide with a copied one (SQLite's
    AUTOINCREMENT counter follows explicit ids by itself)."""
    if tx.dialect.name != "postgresql":
        return
    for name in _IDENTITIES:
        largest = tx.fetchval(f"SELECT MAX(id) FROM {name}")
        if largest is not None:
            tx.fetchval(
                f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), ?, true)", (largest,)
            )


class _WriterGone(Exception):
    """The writer stopped taking pages (it failed, or finished)."""


def _write_pages(
    tx: Transaction,
    url: str,
    pages: queue.Queue[_Page | _End | _Failed],
    progress: Progress | None,
) -> dict[str, int]:
    _check_schema(tx, url)
    counts = _counts(tx)  # again inside the transaction that writes: nobody slipped in
    if any(counts.values()):
        raise DestinationNotEmpty(url, counts)
    copied = {table.name: 0 for table in TABLES}
    largest_challenge = 0
    while True:
        item = pages.get()
        if isinstance(item, _Failed):
            raise StorageError(f"reading the source failed: {item.error}") from item.error
        if isinstance(item, _End):
            counter = max(item.challenge_counter or 0, largest_challenge)
            if counter:
                if tx.dialect.clear_challenge_counter_sql is not None:
                    tx.execute(tx.dialect.clear_challenge_counter_sql)
                tx.execute(tx.dialect.set_challenge_counter_sql, (counter,))
            _carry_identities(tx)
            return copied
        table = item.table
        columns = ", ".join(table.columns)
        marks = ", ".join("?" for _ in table.columns)
        tx.executemany(
            f"INSERT INTO {table.name} ({columns}) VALUES ({marks})",
            [tuple(row) for row in item.rows],
        )
        if table.name == "challenges":
            largest_challenge = max(largest_challenge, *(int(row[0]) for row in item.rows))
        copied[table.name] += len(item.rows)
        if progress is not None:
            progress(table.name, copied[table.name])


# -- reading games back ------------------------------------------------------------------------

_GAME_PAGE = 200


async def games_with_logs(
    db: Database, *, page: int = _GAME_PAGE
) -> AsyncIterator[tuple[GameRow, list[ActionRow]]]:
    """Every game with its whole action log, in id order, a page of games per read
    transaction (for checking that each log replays to its game's stored state)."""
    after = ""
    while True:

        def work(tx: Transaction, after: str = after) -> tuple[list[GameRow], list[ActionRow]]:
            where = "id IN (SELECT id FROM games WHERE id > ? ORDER BY id LIMIT ?)"
            found = _select_games(tx, where, (after, page), order="id")
            actions = tx.fetchall(
                "SELECT game_id, seq, seat, user_id, kind, notation, created_at FROM actions "
                "WHERE game_id IN (SELECT id FROM games WHERE id > ? ORDER BY id LIMIT ?) "
                "ORDER BY game_id, seq",
                (after, page),
            )
            return found, [_action(row) for row in actions]

        found, actions = await db.read(work)
        if not found:
            return
        logs: dict[str, list[ActionRow]] = {game.id: [] for game in found}
        for action in actions:
            logs[action.game_id].append(action)
        for game in found:
            yield game, logs[game.id]
        after = found[-1].id
