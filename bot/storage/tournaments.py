"""Tournaments: entrants, the tables of each round, results and the admin log.

Every transition of a tournament (start, a round's advance, finish, cancel, an extended
deadline) is one write transaction guarded by ``tournaments.version``: of two processes, or
a restarted one and a click, advancing the same round, exactly one changes anything and the
others get :class:`TournamentConflict`. A round's tables are inserted in the transaction that
advances to it; a table's game is linked in the transaction that creates the game
(:func:`claim_table_game`, called by :func:`bot.storage.games.create_game`), and its points
are written once (``WHERE points_json IS NULL``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.database import Database, Row, Transaction, from_row
from bot.storage.errors import Conflict, ConstraintViolation, NotFound

_COLUMNS = (
    "id, guild_id, channel_id, message_id, creator_id, game, format, rounds, points, "
    "round_seconds, rated, status, round, round_deadline, version, options_json, event_id, "
    "created_at, updated_at"
)
_TABLE_COLUMNS = (
    "tournament_id, round, board, seats_json, channel_id, game_id, points_json, decided_by"
)


@dataclass(eq=False)
class TournamentConflict(Conflict):
    """The tournament is not at the version (or status) the caller saw."""

    message = "tournament {tournament_id}: {reason}"
    tournament_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class TournamentFields:
    """What the stored row and the service's tournament share: all but the options (JSON
    text here, decoded above) and the row's timestamps."""

    id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    creator_id: int
    game: str
    format: str
    rounds: int
    points: int
    round_seconds: float
    rated: bool
    status: str
    round: int
    round_deadline: float | None
    version: int
    event_id: int | None


@dataclass(frozen=True, slots=True)
class TournamentRow(TournamentFields):
    options_json: str
    created_at: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class EntrantRow:
    tournament_id: int
    user_id: int
    name: str
    rating: float
    joined_at: float
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class TableRow:
    tournament_id: int
    round: int
    board: int
    seats: tuple[int | None, ...]
    channel_id: int | None
    game_id: str | None
    points: dict[int, float] | None  # None until decided
    decided_by: str | None


@dataclass(frozen=True, slots=True)
class NewTable:
    """A table of the round being started; ``points`` set for one decided at once (a bye)."""

    board: int
    seats: tuple[int | None, ...]
    points: Mapping[int, float] | None = None
    decided_by: str | None = None


@dataclass(frozen=True, slots=True)
class LogRow:
    id: int
    tournament_id: int
    at: float
    actor_id: int | None
    action: str
    detail: str


def _tournament(row: Row) -> TournamentRow:
    return from_row(TournamentRow, row, rated=bool(row["rated"]))


def _points_json(points: Mapping[int, float] | None) -> str | None:
    return None if points is None else json.dumps({str(k): v for k, v in points.items()})


def _table(row: Row) -> TableRow:
    points = row["points_json"]
    return TableRow(
        tournament_id=int(row["tournament_id"]),
        round=int(row["round"]),
        board=int(row["board"]),
        seats=tuple(json.loads(row["seats_json"])),
        channel_id=row["channel_id"],
        game_id=row["game_id"],
        points=None
        if points is None
        else {int(k): float(v) for k, v in json.loads(points).items()},
        decided_by=row["decided_by"],
    )


def _load(tx: Transaction, tournament_id: int) -> TournamentRow:
    row = tx.fetchone(f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,))
    if row is None:
        raise NotFound("tournament", tournament_id)
    return _tournament(row)


def _touch(tx: Transaction, tournament_id: int, now: float) -> None:
    """A change below the tournament (its entrants, its tables) is a new version of it: a
    button drawn before it is stale."""
    tx.execute(
        "UPDATE tournaments SET version = version + 1, updated_at = ? WHERE id = ?",
        (now, tournament_id),
    )


def _log(
    tx: Transaction, tournament_id: int, now: float, actor: int | None, action: str, detail: str
) -> None:
    tx.execute(
        "INSERT INTO tournament_log (tournament_id, at, actor_id, action, detail) "
        "VALUES (?, ?, ?, ?, ?)",
        (tournament_id, now, actor, action, detail),
    )


async def create_tournament(
    db: Database,
    *,
    guild_id: int | None,
    channel_id: int,
    creator_id: int,
    game: str,
    format: str,
    rounds: int,
    points: int,
    round_seconds: float,
    rated: bool,
    options_json: str,
    now: float,
    interaction_id: int | None = None,
) -> TournamentRow:
    """Store an open tournament. :class:`TournamentConflict` when ``interaction_id`` (the
    command that asked for it) made one already: two processes on one shard both receive
    the command."""

    def work(tx: Transaction) -> TournamentRow:
        if interaction_id is not None and tx.fetchval(
            "SELECT id FROM tournaments WHERE interaction_id = ?", (interaction_id,)
        ):
            raise TournamentConflict(0, f"interaction {interaction_id} made one already")
        try:
            tournament_id = _insert(tx)
        except ConstraintViolation as error:  # the unique index: a concurrent twin won
            raise TournamentConflict(0, f"interaction {interaction_id}") from error
        _log(tx, int(tournament_id), now, creator_id, "create", "")
        return _load(tx, int(tournament_id))

    def _insert(tx: Transaction) -> Any:
        return tx.fetchval(
            "INSERT INTO tournaments (guild_id, channel_id, creator_id, game, format, rounds, "
            "points, round_seconds, rated, options_json, created_at, updated_at, "
            "interaction_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                guild_id,
                channel_id,
                creator_id,
                game,
                format,
                rounds,
                points,
                round_seconds,
                int(rated),
                options_json,
                now,
                now,
                interaction_id,
            ),
        )

    return await db.write(work)


async def load_tournament(db: Database, tournament_id: int) -> TournamentRow | None:
    def work(tx: Transaction) -> TournamentRow | None:
        try:
            return _load(tx, tournament_id)
        except NotFound:
            return None

    return await db.read(work)


async def live_tournaments(db: Database) -> list[TournamentRow]:
    """Open and running tournaments, oldest first."""
    rows = await db.read(
        lambda tx: tx.fetchall(
            f"SELECT {_COLUMNS} FROM tournaments WHERE status IN ('open', 'running') ORDER BY id"
        )
    )
    return [_tournament(r) for r in rows]


async def tournaments_in_channel(db: Database, channel_id: int) -> list[TournamentRow]:
    rows = await db.read(
        lambda tx: tx.fetchall(
            f"SELECT {_COLUMNS} FROM tournaments WHERE channel_id = ? ORDER BY id DESC",
            (channel_id,),
        )
    )
    return [_tournament(r) for r in rows]


async def set_tournament_message(
    db: Database, tournament_id: int, message_id: int | None, event_id: int | None = None
) -> None:
    await db.write(
        lambda tx: tx.execute(
            "UPDATE tournaments SET message_id = COALESCE(?, message_id), "
            "event_id = COALESCE(?, event_id) WHERE id = ?",
            (message_id, event_id, tournament_id),
        ),
        compare_and_set=True,
    )


async def claim_tournament_message(db: Database, tournament_id: int, message_id: int) -> bool:
    """Record ``message_id`` as the announcement unless one is recorded already (another
    process's, or the command's own answer); True when this one was recorded."""
    changed = await db.write(
        lambda tx: tx.execute(
            "UPDATE tournaments SET message_id = ? WHERE id = ? AND message_id IS NULL",
            (message_id, tournament_id),
        ),
        compare_and_set=True,
    )
    return changed == 1


async def replace_tournament_message(
    db: Database, tournament_id: int, message_id: int
) -> int | None:
    """Record ``message_id`` as the announcement; returns the one recorded before, if any."""

    def work(tx: Transaction) -> int | None:
        before = tx.fetchval("SELECT message_id FROM tournaments WHERE id = ?", (tournament_id,))
        tx.execute(
            "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id)
        )
        return None if before is None else int(before)

    return await db.write(work)


async def entrants(db: Database, tournament_id: int) -> list[EntrantRow]:
    rows = await db.read(
        lambda tx: tx.fetchall(
            "SELECT tournament_id, user_id, name, rating, joined_at, withdrawn "
            "FROM tournament_entrants WHERE tournament_id = ? ORDER BY joined_at, user_id",
            (tournament_id,),
        )
    )
    return [from_row(EntrantRow, r, withdrawn=bool(r["withdrawn"])) for r in rows]


async def join_tournament(
    db: Database, tournament_id: int, user_id: int, name: str, rating: float, now: float
) -> bool:
    """Enter an open tournament; False when already in. :class:`TournamentConflict` when it
    is no longer open."""

    def work(tx: Transaction) -> bool:
        if _load(tx, tournament_id).status != "open":
            raise TournamentConflict(tournament_id, "not open")
        if tx.fetchval(
            "SELECT 1 FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
            (tournament_id, user_id),
        ):
            return False
        tx.execute(
            "INSERT INTO tournament_entrants (tournament_id, user_id, name, rating, joined_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (tournament_id, user_id, name, rating, now),
        )
        _touch(tx, tournament_id, now)
        return True

    return await db.write(work)


async def leave_tournament(
    db: Database,
    tournament_id: int,
    user_id: int,
    now: float,
    *,
    actor: int | None = None,
    action: str = "remove",
) -> str | None:
    """Leave: removed while open, withdrawn while running (later rounds leave them out).
    Returns ``left`` / ``withdrawn``, None when not entered (or already withdrawn)."""

    def work(tx: Transaction) -> str | None:
        status = _load(tx, tournament_id).status
        if status == "open":
            done = tx.execute(
                "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                (tournament_id, user_id),
            )
            outcome = "left" if done else None
        elif status == "running":
            done = tx.execute(
                "UPDATE tournament_entrants SET withdrawn = 1 "
                "WHERE tournament_id = ? AND user_id = ? AND withdrawn = 0",
                (tournament_id, user_id),
            )
            outcome = "withdrawn" if done else None
        else:
            raise TournamentConflict(tournament_id, status)
        if outcome is not None:
            _touch(tx, tournament_id, now)
            if actor is not None and actor != user_id:
                _log(tx, tournament_id, now, actor, action, str(user_id))
        return outcome

    return await db.write(work)


async def advance_tournament(
    db: Database,
    tournament_id: int,
    expected_version: int,
    *,
    tables: Sequence[NewTable],
    deadline: float | None,
    now: float,
    rounds: int | None = None,
    finish: bool = False,
) -> TournamentRow:
    """Start the next round (its ``tables``, inserted here) or, with ``finish``, end the
    tournament: one transaction, guarded by the version the pairing was computed from and
    by every table of the round in play being decided. ``rounds`` fixes the round count
    (at the start)."""

    def work(tx: Transaction) -> TournamentRow:
        current = _load(tx, tournament_id)
        if current.version != expected_version or current.status not in ("open", "running"):
            raise TournamentConflict(tournament_id, "moved on")
        if current.round and tx.fetchval(
            "SELECT 1 FROM tournament_tables WHERE tournament_id = ? AND round = ? "
            "AND points_json IS NULL",
            (tournament_id, current.round),
        ):
            raise TournamentConflict(tournament_id, "round not decided")
        if finish:
            tx.execute(
                "UPDATE tournaments SET status = 'finished', round_deadline = NULL, "
                "version = version + 1, updated_at = ? WHERE id = ?",
                (now, tournament_id),
            )
            return _load(tx, tournament_id)
        new_round = current.round + 1
        tx.executemany(
            "INSERT INTO tournament_tables (tournament_id, round, board, seats_json, "
            "points_json, decided_by) VALUES (?, ?, ?, ?, ?, ?)",
            [
                (
                    tournament_id,
                    new_round,
                    t.board,
                    json.dumps(list(t.seats)),
                    _points_json(t.points),
                    t.decided_by,
                )
                for t in tables
            ],
        )
        tx.execute(
            "UPDATE tournaments SET status = 'running', round = ?, round_deadline = ?, "
            "rounds = COALESCE(?, rounds), version = version + 1, updated_at = ? WHERE id = ?",
            (new_round, deadline, rounds, now, tournament_id),
        )
        return _load(tx, tournament_id)

    return await db.write(work)


async def tournament_tables(
    db: Database, tournament_id: int, round: int | None = None
) -> list[TableRow]:
    where = "tournament_id = ?" + (" AND round = ?" if round is not None else "")
    params: tuple[Any, ...] = (tournament_id,) if round is None else (tournament_id, round)
    rows = await db.read(
        lambda tx: tx.fetchall(
            f"SELECT {_TABLE_COLUMNS} FROM tournament_tables WHERE {where} ORDER BY round, board",
            params,
        )
    )
    return [_table(r) for r in rows]


async def table_of_game(db: Database, game_id: str) -> TableRow | None:
    row = await db.read(
        lambda tx: tx.fetchone(
            f"SELECT {_TABLE_COLUMNS} FROM tournament_tables WHERE game_id = ?", (game_id,)
        )
    )
    return None if row is None else _table(row)


async def claim_table_channel(
    db: Database, tournament_id: int, round: int, board: int, channel_id: int
) -> int:
    """Record the thread a table's game is played in, unless one is recorded already;
    returns the one stored (an earlier try's wins)."""

    def work(tx: Transaction) -> int:
        tx.execute(
            "UPDATE tournament_tables SET channel_id = ? WHERE tournament_id = ? AND round = ? "
            "AND board = ? AND channel_id IS NULL",
            (channel_id, tournament_id, round, board),
        )
        stored = tx.fetchval(
            "SELECT channel_id FROM tournament_tables WHERE tournament_id = ? AND round = ? "
            "AND board = ?",
            (tournament_id, round, board),
        )
        if stored is None:
            raise NotFound("tournament table", (tournament_id, round, board))
        return int(stored)

    return await db.write(work, compare_and_set=True)


async def table_in_channel(db: Database, channel_id: int) -> TableRow | None:
    """The tournament table whose game is played in ``channel_id`` (a thread), if any."""
    row = await db.read(
        lambda tx: tx.fetchone(
            f"SELECT {_TABLE_COLUMNS} FROM tournament_tables WHERE channel_id = ? "
            "ORDER BY round DESC LIMIT 1",
            (channel_id,),
        )
    )
    return None if row is None else _table(row)


async def move_table_game(
    db: Database,
    table: tuple[int, int, int],
    game_id: str,
    channel_id: int,
    parent_channel_id: int | None,
) -> bool:
    """The table's thread was deleted with its game still on: the game moves to a new
    thread (its board is posted again there). One transaction for the table and the game;
    False when the game is over or not the table's."""
    tournament_id, round, board = table

    def work(tx: Transaction) -> bool:
        if not tx.execute(
            "UPDATE games SET channel_id = ?, parent_channel_id = ?, message_id = NULL, "
            "shown_version = NULL, shown_at = NULL WHERE id = ? AND status = 'active'",
            (channel_id, parent_channel_id, game_id),
        ):
            return False
        return bool(
            tx.execute(
                "UPDATE tournament_tables SET channel_id = ? WHERE tournament_id = ? "
                "AND round = ? AND board = ? AND game_id = ?",
                (channel_id, tournament_id, round, board, game_id),
            )
        )

    return await db.write(work)


async def reset_table_channel(
    db: Database, tournament_id: int, round: int, board: int, channel_id: int
) -> None:
    """The table's thread is gone before its game was made: the next try opens another."""
    await db.write(
        lambda tx: tx.execute(
            "UPDATE tournament_tables SET channel_id = NULL WHERE tournament_id = ? "
            "AND round = ? AND board = ? AND channel_id = ? AND game_id IS NULL",
            (tournament_id, round, board, channel_id),
        ),
        compare_and_set=True,
    )


def claim_table_game(
    tx: Transaction, table: tuple[int, int, int], game_id: str, channel_id: int
) -> None:
    """Inside the transaction that creates ``game_id``: the table gets it, once."""
    tournament_id, round, board = table
    if not tx.execute(
        "UPDATE tournament_tables SET game_id = ?, channel_id = ? WHERE tournament_id = ? "
        "AND round = ? AND board = ? AND game_id IS NULL AND points_json IS NULL",
        (game_id, channel_id, tournament_id, round, board),
    ):
        raise TournamentConflict(tournament_id, f"table {round}.{board} has its game already")


async def decide_table(
    db: Database,
    tournament_id: int,
    round: int,
    board: int,
    points: Mapping[int, float],
    decided_by: str,
    now: float,
    *,
    actor: int | None = None,
    detail: str = "",
) -> bool:
    """Write a table's points, once; False when it was decided already. An admin's
    decision (``actor``) is logged."""

    def work(tx: Transaction) -> bool:
        changed = tx.execute(
            "UPDATE tournament_tables SET points_json = ?, decided_by = ? "
            "WHERE tournament_id = ? AND round = ? AND board = ? AND points_json IS NULL",
            (_points_json(points), decided_by, tournament_id, round, board),
        )
        if changed:
            _touch(tx, tournament_id, now)
            if actor is not None:
                _log(tx, tournament_id, now, actor, decided_by, detail)
        return bool(changed)

    return await db.write(work)


async def undecided_finished_tables(db: Database) -> list[TableRow]:
    """Tables whose game is over but whose points were never written (a crash between the
    two): the start-up and the sweep write them."""
    rows = await db.read(
        lambda tx: tx.fetchall(
            f"SELECT {', '.join('t.' + c.strip() for c in _TABLE_COLUMNS.split(','))} "
            "FROM tournament_tables t JOIN games g ON g.id = t.game_id "
            "WHERE t.points_json IS NULL AND g.status <> 'active' ORDER BY t.tournament_id"
        )
    )
    return [_table(r) for r in rows]


async def set_tournament_status(
    db: Database,
    tournament_id: int,
    status: str,
    now: float,
    *,
    actor: int | None,
    expected: Sequence[str] = ("open", "running"),
) -> TournamentRow:
    def work(tx: Transaction) -> TournamentRow:
        current = _load(tx, tournament_id)
        if current.status not in expected:
            raise TournamentConflict(tournament_id, current.status)
        tx.execute(
            "UPDATE tournaments SET status = ?, round_deadline = NULL, version = version + 1, "
            "updated_at = ? WHERE id = ?",
            (status, now, tournament_id),
        )
        _log(tx, tournament_id, now, actor, status, "")
        return _load(tx, tournament_id)

    return await db.write(work)


async def extend_round(
    db: Database, tournament_id: int, seconds: float, now: float, *, actor: int
) -> TournamentRow:
    def work(tx: Transaction) -> TournamentRow:
        current = _load(tx, tournament_id)
        if current.status != "running" or current.round_deadline is None:
            raise TournamentConflict(tournament_id, current.status)
        tx.execute(
            "UPDATE tournaments SET round_deadline = round_deadline + ?, version = version + 1, "
            "updated_at = ? WHERE id = ?",
            (seconds, now, tournament_id),
        )
        _log(tx, tournament_id, now, actor, "extend", f"{seconds / 3600:g}")
        return _load(tx, tournament_id)

    return await db.write(work)


async def tournament_log(db: Database, tournament_id: int) -> list[LogRow]:
    rows = await db.read(
        lambda tx: tx.fetchall(
            "SELECT id, tournament_id, at, actor_id, action, detail FROM tournament_log "
            "WHERE tournament_id = ? ORDER BY id",
            (tournament_id,),
        )
    )
    return [from_row(LogRow, r) for r in rows]
