"""Games and their seats: creation, lookups, the game message, drafts and the turn clock.

Writes that depend on what the caller saw are version-checked (optimistic concurrency): the
caller passes the ``version`` it read (a button carries it) and the write is refused with a
:class:`Conflict` subclass if the game moved on meanwhile. ``version`` grows by one per
action, per draft change and when the game ends, so any click made on an older view of the
game, including an older step of a backgammon draft, is refused. Appending actions and
finishing live in :mod:`bot.storage.actions`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage import live_positions
from bot.storage.challenges import claim_challenge
from bot.storage.database import Database, Row, Transaction, from_row
from bot.storage.errors import (
    AlreadyExists,
    ChannelBusy,
    GameNotActive,
    NotFound,
    StorageError,
    VersionConflict,
)
from bot.storage.records import GameRow, GameStatus, SeatRow
from bot.storage.tournaments import claim_table_game

_GAME_COLUMNS = (
    "id, game, guild_id, channel_id, parent_channel_id, message_id, options_json, state_json, "
    "version, action_count, status, draft_json, dice_seed_hash, dice_seed, rated, created_at, "
    "updated_at, finished_at, turn_deadline, reminder_sent, shown_version, message_seq, imported"
)


def _game(row: Row, seats: tuple[SeatRow, ...]) -> GameRow:
    return from_row(
        GameRow,
        row,
        status=GameStatus(row["status"]),
        rated=bool(row["rated"]),
        reminder_sent=bool(row["reminder_sent"]),
        imported=bool(row["imported"]),
        seats=seats,
    )


def _seat(row: Row) -> SeatRow:
    return from_row(SeatRow, row, resigned=bool(row["resigned"]))


def _select_games(
    tx: Transaction, where: str, params: Sequence[Any] = (), order: str = "created_at, id"
) -> list[GameRow]:
    """Games matching ``where`` (SQL over the games columns) with their seats: two queries.

    The seats' query selects its games with the same ``where`` (one transaction sees one
    state, so both find the same games) rather than a list of ids: portable SQL, and no
    limit on the number of parameters however many games match.
    """
    rows = tx.fetchall(f"SELECT {_GAME_COLUMNS} FROM games WHERE {where} ORDER BY {order}", params)
    if not rows:
        return []
    seats: dict[str, list[SeatRow]] = {row["id"]: [] for row in rows}
    for seat_row in tx.fetchall(
        "SELECT game_id, seat, user_id, ai_level, display_name, resigned, stand_in FROM seats "
        f"WHERE game_id IN (SELECT id FROM games WHERE {where}) ORDER BY game_id, seat",
        params,
    ):
        seats[seat_row["game_id"]].append(_seat(seat_row))
    return [_game(row, tuple(seats[row["id"]])) for row in rows]


def explain_refusal(tx: Transaction, game_id: str, expected_version: int) -> StorageError:
    """Why a version-checked UPDATE of an active game matched no row, as the error to raise."""
    row = tx.fetchone("SELECT version, status FROM games WHERE id = ?", (game_id,))
    if row is None:
        return NotFound("game", game_id)
    if row["version"] != expected_version:
        return VersionConflict(game_id, expected_version, row["version"])
    return GameNotActive(game_id, row["status"])


async def create_game(
    db: Database,
    *,
    game_id: str,
    game: str,
    guild_id: int | None,
    channel_id: int,
    parent_channel_id: int | None = None,
    message_id: int | None = None,
    options_json: str = "{}",
    state_json: str,
    seats: Sequence[SeatRow],
    dice_seed: str,
    dice_seed_hash: str,
    rated: bool = False,
    turn_deadline: float | None = None,
    now: float,
    challenge_id: int | None = None,
    tournament_table: tuple[int, int, int] | None = None,
    live_position: str | None = None,
) -> GameRow:
    """Store a new active game (version 0, no actions) with its seats, in one transaction.

    Raises :class:`ChannelBusy` if the channel already has an active game and
    :class:`AlreadyExists` if the id is taken. With ``challenge_id`` the challenge, claimed by
    an Accept (status ``starting``), is marked accepted (and linked to the game) in the same
    transaction, so one challenge cannot start two games: a second start raises
    :class:`ChallengeNotPending` and stores nothing. ``tournament_table`` (tournament id,
    round, board) links the game to its tournament table the same way, once.
    ``live_position``: a rated game's first position, for the index of live rated positions
    (:mod:`bot.storage.live_positions`).
    """
    if not seats:
        raise ValueError("a game needs at least one seat")

    def work(tx: Transaction) -> GameRow:
        # A write transaction is serializable, so these checks cannot go stale before the
        # insert; the unique indexes stay as the backstop.
        busy = tx.fetchval(
            "SELECT id FROM games WHERE channel_id = ? AND status = 'active'", (channel_id,)
        )
        if busy is not None:
            raise ChannelBusy(channel_id, busy)
        if tx.fetchval("SELECT 1 FROM games WHERE id = ?", (game_id,)) is not None:
            raise AlreadyExists("game", game_id)
        tx.execute(
            "INSERT INTO games (id, game, guild_id, channel_id, parent_channel_id, message_id, "
            "options_json, state_json, dice_seed_hash, dice_seed, rated, created_at, updated_at, "
            "turn_deadline) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                game,
                guild_id,
                channel_id,
                parent_channel_id,
                message_id,
                options_json,
                state_json,
                dice_seed_hash,
                dice_seed,
                int(rated),
                now,
                now,
                turn_deadline,
            ),
        )
        tx.executemany(
            "INSERT INTO seats (game_id, seat, user_id, ai_level, display_name, resigned) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [
                (game_id, s.seat, s.user_id, s.ai_level, s.display_name, int(s.resigned))
                for s in seats
            ],
        )
        if challenge_id is not None:
            claim_challenge(tx, challenge_id, game_id, now)
        if tournament_table is not None:
            claim_table_game(tx, tournament_table, game_id, channel_id)
        if live_position is not None:
            live_positions.put(tx, game_id, live_position)
        (created,) = _select_games(tx, "id = ?", (game_id,))
        return created

    return await db.write(work)


async def _read_games(
    db: Database, where: str, params: Sequence[Any] = (), order: str = "created_at, id"
) -> list[GameRow]:
    return await db.read(lambda tx: _select_games(tx, where, params, order))


async def load_game(db: Database, game_id: str) -> GameRow | None:
    games = await _read_games(db, "id = ?", (game_id,))
    return games[0] if games else None


async def stored_version(db: Database, game_id: str) -> int | None:
    """The game's version as stored now (None: no such game): a cheap look at whether it
    changed since it was read."""
    value = await db.read(
        lambda tx: tx.fetchval("SELECT version FROM games WHERE id = ?", (game_id,))
    )
    return None if value is None else int(value)


async def active_game_in_channel(db: Database, channel_id: int) -> GameRow | None:
    games = await _read_games(db, "channel_id = ? AND status = 'active'", (channel_id,))
    return games[0] if games else None


async def active_games_for_user(db: Database, user_id: int) -> list[GameRow]:
    """Active games in which the user holds a seat they have not resigned, oldest first."""
    return await _read_games(
        db,
        "status = 'active' AND id IN "
        "(SELECT game_id FROM seats WHERE user_id = ? AND resigned = 0)",
        (user_id,),
    )


async def recent_games_for_user(db: Database, user_id: int, limit: int = 25) -> list[GameRow]:
    """The user's latest games (any status, seats they resigned too), the newest first."""
    return await _read_games(
        db,
        "id IN (SELECT id FROM games WHERE id IN (SELECT game_id FROM seats WHERE user_id = ?) "
        "ORDER BY updated_at DESC, id LIMIT ?)",
        (user_id, limit),
        order="updated_at DESC, id",
    )


async def active_games(db: Database) -> list[GameRow]:
    """Every active game, oldest first (to re-attach the game views after a restart)."""
    return await _read_games(db, "status = 'active'")


# The time of the last edit belongs to the message it was read from: a new board starts
# without one (its post's mark gives it one).
_SHOWN_AT_KEPT = "shown_at = CASE WHEN message_id = ? THEN shown_at ELSE NULL END"


async def set_message(db: Database, game_id: str, message_id: int | None) -> int:
    """Point the game at its current message; returns the action count it starts at (the
    actions after it are the ones played on that board). A game's first board starts at 0:
    what was played before anyone saw a board (rolls and forced moves made for a person, a
    tied opening roll) is its own, told on it and in the line it collapses to. Not
    version-checked: it changes no game data."""

    def work(tx: Transaction) -> int:
        seq = tx.fetchval(
            "UPDATE games SET message_id = ?, "
            "message_seq = CASE WHEN message_id IS NULL THEN 0 ELSE action_count END, "
            f"{_SHOWN_AT_KEPT} WHERE id = ? RETURNING message_seq",
            (message_id, message_id, game_id),
        )
        if seq is None:
            raise NotFound("game", game_id)
        return int(seq)

    return await db.write(work, compare_and_set=True)


async def replace_message(
    db: Database, game_id: str, message_id: int, replacing: int | None
) -> int | None:
    """As :func:`set_message`, only where the game's board is still ``replacing`` (None: it
    has none yet); else None, and nothing changes: another process's board of the game came
    first (two processes on one shard, each drawing a board the game did not have yet), and
    it stays the board. A compare-and-set on the message id: at READ COMMITTED, the second of
    two such writes waits for the first and then finds the id changed."""

    def work(tx: Transaction) -> int | None:
        seq = tx.fetchval(
            "UPDATE games SET message_id = ?, "
            "message_seq = CASE WHEN message_id IS NULL THEN 0 ELSE action_count END, "
            f"{_SHOWN_AT_KEPT} WHERE id = ? AND COALESCE(message_id, 0) = ? RETURNING message_seq",
            (message_id, message_id, game_id, replacing or 0),
        )
        if seq is not None:
            return int(seq)
        if tx.fetchval("SELECT 1 FROM games WHERE id = ?", (game_id,)) is None:
            raise NotFound("game", game_id)
        return None

    return await db.write(work, compare_and_set=True)


@dataclass(frozen=True, slots=True)
class Shown:
    """What a game's board message shows: the game ``version`` it was drawn at, on message
    ``message_id``, and when Discord says that edit (or post) landed (``at``, seconds since
    the epoch; None when Discord did not say)."""

    message_id: int
    version: int
    at: float | None


def newer_mark(mark: Shown, than: Shown) -> bool:
    """Whether ``mark`` tells what the message shows now rather than ``than`` (the same
    message): the edit that landed last, whatever version it drew; at one instant, or
    without times, the older version (a redraw too many rather than a stale board kept)."""
    if mark.at is not None and than.at is not None and mark.at != than.at:
        return mark.at > than.at
    if mark.at is None and than.at is None:
        return mark.version > than.version
    return mark.version < than.version


async def mark_shown(db: Database, shown: Sequence[tuple[str, Shown]]) -> None:
    """Record, per game id, what its board now shows (:func:`newer_mark`): a mark for a message
    the game no longer uses changes nothing, and a timed mark replaces an older one even when
    its version is older, since that is what the message shows (the board is then behind)."""
    if not shown:
        return
    timed = [
        (m.version, m.at, game_id, m.message_id, m.at, m.at, m.version)
        for game_id, m in shown
        if m.at is not None
    ]
    untimed = [
        (m.version, game_id, m.message_id, m.version) for game_id, m in shown if m.at is None
    ]

    def work(tx: Transaction) -> None:
        if timed:
            tx.executemany(
                "UPDATE games SET shown_version = ?, shown_at = ? "
                "WHERE id = ? AND message_id = ? AND (shown_at IS NULL OR shown_at < ? "
                "OR (shown_at = ? AND shown_version > ?))",
                timed,
            )
        if untimed:
            tx.executemany(
                "UPDATE games SET shown_version = ? WHERE id = ? AND message_id = ? "
                "AND shown_at IS NULL AND (shown_version IS NULL OR shown_version < ?)",
                untimed,
            )

    await db.write(work, compare_and_set=True)


async def set_clock(
    db: Database, game_id: str, version: int, state_json: str, turn_deadline: float | None
) -> bool:
    """A timed game's clock started when its board was shown: the snapshot (which holds the
    clock) and the deadline change, the version does not (nothing was played). False when the
    game moved on meanwhile or is over."""
    changed = await db.write(
        lambda tx: tx.execute(
            "UPDATE games SET state_json = ?, turn_deadline = ? "
            "WHERE id = ? AND version = ? AND status = 'active'",
            (state_json, turn_deadline, game_id, version),
        ),
        compare_and_set=True,
    )
    return bool(changed)


async def boards_behind(db: Database) -> list[GameRow]:
    """Active games whose board does not show the stored version, the longest waiting first."""
    return await _read_games(
        db,
        "status = 'active' AND (shown_version IS NULL OR shown_version < version)",
        order="updated_at, id",
    )


async def board_behind(db: Database, game_id: str) -> bool:
    """Whether the active game's board does not show its stored version (one game of
    :func:`boards_behind`)."""
    value = await db.read(
        lambda tx: tx.fetchval(
            "SELECT 1 FROM games WHERE id = ? AND status = 'active' "
            "AND (shown_version IS NULL OR shown_version < version)",
            (game_id,),
        )
    )
    return value is not None


async def set_draft(
    db: Database, game_id: str, expected_version: int, draft_json: str | None
) -> int:
    """Replace (or with None clear) the uncommitted backgammon play; returns the new version.

    A draft change bumps ``version`` like an action does (but logs nothing and leaves
    ``action_count`` alone), so a step button drawn for an older draft is refused with
    :class:`VersionConflict` instead of being applied to a draft its player never saw.
    """

    def work(tx: Transaction) -> int:
        version = tx.fetchval(
            "UPDATE games SET draft_json = ?, version = version + 1 "
            "WHERE id = ? AND version = ? AND status = 'active' RETURNING version",
            (draft_json, game_id, expected_version),
        )
        if version is None:
            raise explain_refusal(tx, game_id, expected_version)
        return int(version)

    return await db.write(work, compare_and_set=True)


async def games_past_deadline(db: Database, now: float) -> list[GameRow]:
    """Active games whose turn deadline is at or before ``now``, most overdue first."""
    return await _read_games(
        db,
        "status = 'active' AND turn_deadline IS NOT NULL AND turn_deadline <= ?",
        (now,),
        order="turn_deadline, id",
    )


async def games_due_for_reminder(db: Database, deadline_before: float) -> list[GameRow]:
    """Active games not yet reminded whose deadline falls at or before ``deadline_before``
    (the caller passes ``now + reminder window``), soonest deadline first."""
    return await _read_games(
        db,
        "status = 'active' AND reminder_sent = 0 AND turn_deadline IS NOT NULL "
        "AND turn_deadline <= ?",
        (deadline_before,),
        order="turn_deadline, id",
    )


async def mark_reminder_sent(db: Database, game_id: str, expected_version: int) -> bool:
    """Claim the reminder for this turn; False if it was claimed already or the turn is over.

    Returns a flag rather than raising: two sweeps racing for one reminder is normal, and
    the loser just skips it. The flag is reset whenever an action sets a new deadline. It
    does not bump ``version``: a reminder must not make the player's buttons stale.
    """
    changed = await db.write(
        lambda tx: tx.execute(
            "UPDATE games SET reminder_sent = 1 WHERE id = ? AND version = ? "
            "AND status = 'active' AND reminder_sent = 0",
            (game_id, expected_version),
        ),
        compare_and_set=True,
    )
    return changed == 1


async def set_stand_in(db: Database, game_id: str, seat: int, level: str | None) -> None:
    """Let the AI at ``level`` play ``seat`` for its idle owner (None: the owner plays again).

    Clears the turn deadline too: the AI needs no clock. The version is not bumped: the
    buttons on the board stay valid for the seats still played by people.
    """

    def work(tx: Transaction) -> None:
        changed = tx.execute(
            "UPDATE seats SET stand_in = ? WHERE game_id = ? AND seat = ? AND user_id IS NOT NULL",
            (level, game_id, seat),
        )
        if changed != 1:
            raise NotFound("seat", (game_id, seat))
        tx.execute(
            # ai_turn: the AI may be on turn now (the resume sweep looks, and clears it if not).
            "UPDATE games SET turn_deadline = NULL, reminder_sent = 0, ai_turn = 1 WHERE id = ?",
            (game_id,),
        )

    await db.write(work, compare_and_set=True)


async def heads_waiting_for_the_bot(db: Database) -> list[GameHead]:
    """The heads (no state) of the active games whose next step may be the bot's: an AI
    seat may be on turn (``ai_turn``) or the board is behind the stored version. What the
    resume sweep looks at every few seconds, the longest unchanged first; the partial index
    ``games_waiting_for_the_bot`` holds exactly these rows."""
    rows = await db.read(
        lambda tx: tx.fetchall(
            "SELECT id, guild_id, version, shown_version, updated_at FROM games "
            "WHERE status = 'active' AND (ai_turn = 1 OR shown_version IS NULL "
            "OR shown_version < version) ORDER BY updated_at, id"
        )
    )
    return [
        GameHead(
            id=str(row[0]),
            guild_id=None if row[1] is None else int(row[1]),
            version=int(row[2]),
            shown_version=None if row[3] is None else int(row[3]),
            updated_at=float(row[4]),
        )
        for row in rows
    ]


@dataclass(frozen=True, slots=True)
class GameHead:
    """What is known of a game without reading its state."""

    id: str
    guild_id: int | None
    version: int
    shown_version: int | None  # the version its board shows (None: not known)
    updated_at: float  # the last change's time (Unix seconds)


async def clear_ai_turn(db: Database, game_id: str, version: int) -> None:
    """A person is on turn in ``game_id`` at ``version``: the resume sweep need not look at
    it until its next change (a change since then keeps the flag it wrote)."""
    await db.write(
        lambda tx: tx.execute(
            "UPDATE games SET ai_turn = 0 WHERE id = ? AND version = ? AND ai_turn = 1",
            (game_id, version),
        )
    )
