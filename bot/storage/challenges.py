"""Challenges: an invitation to a game, answered exactly once.

A challenge is ``pending`` until it is answered. Accept is a two-step transition, like a move:
the one Accept that completes the challenge (the only invitee's, or the last of several) moves
it from ``pending`` to ``starting`` in one write transaction, so of Accept clicked three times,
or Accept racing Decline or the expiry sweep, exactly one wins and the others get
:class:`ChallengeNotPending`. ``starting`` becomes ``accepted`` in the transaction that creates
the game (pass ``challenge_id`` to :func:`bot.storage.games.create_game`), or goes back with
:func:`release_challenge` when the start fails; a crash in between leaves it ``starting``,
which the start-up recovery finishes (:func:`starting_challenges`). Decline, cancel and expiry
close only a pending challenge.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.database import Database, Row, Transaction, from_row
from bot.storage.dialect import advisory_key
from bot.storage.errors import (
    ChallengeNotPending,
    Conflict,
    ConstraintViolation,
    NotFound,
    NotInvited,
)


class ChallengeStatus(enum.StrEnum):
    PENDING = "pending"
    STARTING = "starting"  # claimed by the Accept that completed it; its game is being made
    ACCEPTED = "accepted"
    DECLINED = "declined"
    EXPIRED = "expired"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class ChallengeFields:
    """What the stored row and the service's challenge share: who asks whom, to what game."""

    id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    challenger_id: int
    invitee_ids: tuple[int, ...]
    accepted_ids: tuple[int, ...]
    game: str


@dataclass(frozen=True, slots=True)
class ChallengeRow(ChallengeFields):
    options_json: str
    status: ChallengeStatus
    created_at: float
    expires_at: float
    game_id: str | None  # the game it started, once accepted
    rematch_of: str | None  # the finished game this challenge replays

    def invites(self, user_id: int) -> bool:
        """True if the user may accept (named, or the challenge is open to anyone)."""
        if user_id == self.challenger_id:
            return False
        return not self.invitee_ids or user_id in self.invitee_ids

    def complete_with(self, accepted: Sequence[int], capacity: int = 1) -> bool:
        """True when ``accepted`` is everyone the challenge waits for; an open challenge (no
        invitees) is complete once ``capacity`` people joined."""
        if not self.invitee_ids:
            return len(accepted) >= capacity
        return set(self.invitee_ids) <= set(accepted)


@dataclass(eq=False)
class PendingChallengeExists(Conflict):
    """The challenger already has a pending challenge naming this invitee."""

    message = "challenge {challenge_id} already invites user {invitee_id}"
    challenge_id: int
    invitee_id: int


@dataclass(eq=False)
class RematchExists(Conflict):
    """The finished game already has a live (pending, starting or accepted) rematch."""

    message = "game {game_id!r} already has a rematch under way"
    game_id: str


@dataclass(frozen=True, slots=True)
class Acceptance:
    """What one Accept did: ``starts`` is True for the one Accept that claimed the challenge
    (its caller makes the game); ``repeated`` when the user had accepted before."""

    challenge: ChallengeRow
    starts: bool
    repeated: bool


_COLUMNS = (
    "id, guild_id, channel_id, message_id, challenger_id, invitee_ids_json, accepted_ids_json, "
    "game, options_json, status, created_at, expires_at, game_id, rematch_of"
)
_LIVE = "('pending', 'starting', 'accepted')"  # the statuses that block another rematch


def _challenge(row: Row) -> ChallengeRow:
    return from_row(
        ChallengeRow,
        row,
        invitee_ids=tuple(json.loads(row["invitee_ids_json"])),
        accepted_ids=tuple(json.loads(row["accepted_ids_json"])),
        status=ChallengeStatus(row["status"]),
    )


def _select(tx: Transaction, where: str, params: Sequence[Any] = ()) -> list[ChallengeRow]:
    rows = tx.fetchall(
        f"SELECT {_COLUMNS} FROM challenges WHERE {where} ORDER BY created_at, id", params
    )
    return [_challenge(row) for row in rows]


def _load(tx: Transaction, challenge_id: int) -> ChallengeRow:
    found = _select(tx, "id = ?", (challenge_id,))
    if not found:
        raise NotFound("challenge", challenge_id)
    return found[0]


def _refusal(tx: Transaction, challenge_id: int, now: float | None) -> ChallengeNotPending:
    """Why a pending-only UPDATE matched nothing."""
    current = _load(tx, challenge_id)
    if current.status == ChallengeStatus.PENDING and now is not None and current.expires_at <= now:
        return ChallengeNotPending(challenge_id, ChallengeStatus.EXPIRED)
    return ChallengeNotPending(challenge_id, current.status)


async def create_challenge(
    db: Database,
    *,
    guild_id: int | None,
    channel_id: int,
    challenger_id: int,
    invitee_ids: Sequence[int],
    game: str,
    options_json: str = "{}",
    message_id: int | None = None,
    now: float,
    expires_at: float,
    rematch_of: str | None = None,
    status: ChallengeStatus | str = ChallengeStatus.PENDING,
) -> ChallengeRow:
    """Store a new challenge; its id is assigned here. No invitees: open to anyone.

    Refused, in the same write transaction as the insert (so three identical commands at
    once store one challenge), with :class:`PendingChallengeExists` when the challenger
    already has a pending challenge naming one of the invitees, and with
    :class:`RematchExists` when ``rematch_of`` already has a live rematch. ``status`` is
    ``pending``, or ``starting`` for a challenge nobody needs to answer (a rematch against the
    AI only), which its caller then starts like an accepted one.
    """
    status = ChallengeStatus(status)
    if status not in (ChallengeStatus.PENDING, ChallengeStatus.STARTING):
        raise ValueError(f"a new challenge is pending or starting, not {status}")
    invitees = [int(i) for i in invitee_ids]

    def work(tx: Transaction) -> ChallengeRow:
        # The checks below read, then the insert depends on what they read: two of them at
        # once must run one after the other. PostgreSQL: a lock per challenger (and per
        # rematched game), taken first, queues them at READ COMMITTED, where each statement
        # sees what the one before committed. Serializable checking did the same by aborting
        # and retrying, and on a small table (a fresh database) it aborted challenges of
        # different people for sharing its pages, until a few ran out of retries. SQLite
        # runs every write alone. The unique index on rematch_of stays as the backstop.
        if tx.dialect.xact_lock_sql is not None:
            names = [f"challenger:{challenger_id}"]
            if rematch_of is not None:
                names.append(f"rematch:{rematch_of}")
            for key in sorted(advisory_key(name) for name in names):  # one order: no deadlock
                tx.execute(tx.dialect.xact_lock_sql, (key,))
        if rematch_of is not None and tx.fetchval(
            f"SELECT 1 FROM challenges WHERE rematch_of = ? AND status IN {_LIVE}", (rematch_of,)
        ):
            raise RematchExists(rematch_of)
        if invitees:
            # A challenger has a handful of pending challenges (an index finds them); their
            # invitee lists are read here rather than searched in SQL, which has no portable
            # way into a JSON list.
            pending = [
                (int(row["id"]), set(json.loads(row["invitee_ids_json"])))
                for row in tx.fetchall(
                    "SELECT id, invitee_ids_json FROM challenges "
                    "WHERE status = 'pending' AND challenger_id = ? ORDER BY id",
                    (challenger_id,),
                )
            ]
            for invitee in invitees:
                for pending_id, invited in pending:
                    if invitee in invited:
                        raise PendingChallengeExists(pending_id, invitee)
        try:
            challenge_id = tx.fetchval(
                "INSERT INTO challenges (guild_id, channel_id, message_id, challenger_id, "
                "invitee_ids_json, game, options_json, status, created_at, expires_at, "
                "rematch_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    guild_id,
                    channel_id,
                    message_id,
                    challenger_id,
                    json.dumps(invitees),
                    game,
                    options_json,
                    str(status),
                    now,
                    expires_at,
                    rematch_of,
                ),
            )
        except ConstraintViolation as error:
            # SQLite names the column, PostgreSQL the index and the key.
            if rematch_of is not None and "rematch_of" in str(error):
                raise RematchExists(rematch_of) from error
            raise
        return _load(tx, int(challenge_id))

    # Correct at READ COMMITTED under the locks above (see there), and never retried.
    return await db.write(work, compare_and_set=True)


async def load_challenge(db: Database, challenge_id: int) -> ChallengeRow | None:
    found = await db.read(lambda tx: _select(tx, "id = ?", (challenge_id,)))
    return found[0] if found else None


async def set_challenge_message(db: Database, challenge_id: int, message_id: int | None) -> None:
    def work(tx: Transaction) -> None:
        if not tx.execute(
            "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
        ):
            raise NotFound("challenge", challenge_id)

    await db.write(work, compare_and_set=True)


async def accept_challenge(
    db: Database,
    challenge_id: int,
    user_id: int,
    *,
    now: float | None = None,
    message_id: int | None = None,
    capacity: int = 1,
    amend: Callable[[str], str] | None = None,
) -> Acceptance:
    """Record ``user_id``'s Accept of a pending challenge, in one write transaction.

    The Accept that makes everyone the challenge waits for accepted moves it to ``starting``
    (``starts`` is True): its caller, and only it, makes the game. An earlier Accept leaves
    it pending; a repeated one changes nothing (``repeated``), except that it claims a
    challenge whose start failed and was released while everyone had accepted. Raises
    :class:`NotInvited` for a user the challenge does not name, and
    :class:`ChallengeNotPending` once it is starting, closed or (with ``now``) past its expiry.
    ``message_id``, the invitation the click came from, is stored if none is yet: a crash
    can cut the bot off between posting the invitation and storing its id, and the game's
    thread is started from that message. An open challenge starts with its ``capacity``-th
    joiner; ``amend`` rewrites its options in the same write (the joiner's name, known only
    to the click).
    """

    def work(tx: Transaction) -> Acceptance:
        current = _load(tx, challenge_id)
        if current.status != ChallengeStatus.PENDING or (
            now is not None and current.expires_at <= now
        ):
            raise _refusal(tx, challenge_id, now)
        if not current.invites(user_id):
            raise NotInvited(challenge_id, user_id)
        repeated = user_id in current.accepted_ids
        accepted = current.accepted_ids if repeated else (*current.accepted_ids, user_id)
        starts = current.complete_with(accepted, capacity)
        if repeated and not starts:
            return Acceptance(current, starts=False, repeated=True)
        options_json = amend(current.options_json) if amend is not None else current.options_json
        # The accepted list read above is the version this write is based on.
        changed = tx.execute(
            "UPDATE challenges SET accepted_ids_json = ?, status = ?, options_json = ?, "
            "message_id = COALESCE(message_id, ?) "
            "WHERE id = ? AND status = 'pending' AND accepted_ids_json = ?",
            (
                json.dumps(list(accepted)),
                str(ChallengeStatus.STARTING if starts else ChallengeStatus.PENDING),
                options_json,
                message_id,
                challenge_id,
                json.dumps(list(current.accepted_ids)),
            ),
        )
        if not changed:
            raise _refusal(tx, challenge_id, now)
        return Acceptance(_load(tx, challenge_id), starts=starts, repeated=repeated)

    return await db.write(work)


async def start_open_challenge(
    db: Database, challenge_id: int, user_id: int, *, now: float | None = None
) -> ChallengeRow:
    """The challenger starts their open lobby with whoever joined (the rest of the seats are
    played by the AI): pending becomes starting, exactly once. Raises
    :class:`ChallengeNotPending` once it is starting, closed or past its expiry, and
    :class:`NotInvited` for anyone but the challenger."""

    def work(tx: Transaction) -> ChallengeRow:
        current = _load(tx, challenge_id)
        if current.challenger_id != user_id:
            raise NotInvited(challenge_id, user_id)
        sql = "UPDATE challenges SET status = 'starting' WHERE id = ? AND status = 'pending'"
        params: list[Any] = [challenge_id]
        if now is not None:
            sql += " AND expires_at > ?"
            params.append(now)
        if not tx.execute(sql, params):
            raise _refusal(tx, challenge_id, now)
        return _load(tx, challenge_id)

    return await db.write(work)


async def release_challenge(
    db: Database, challenge_id: int, status: ChallengeStatus | str = ChallengeStatus.PENDING
) -> bool:
    """A start that failed before its game was stored: the starting challenge goes back to
    ``pending`` (answerable again; the expiry sweep takes it if nobody does) or is closed with
    ``status``. False when it was not starting (its game exists: nothing to undo)."""
    status = ChallengeStatus(status)
    if status in (ChallengeStatus.STARTING, ChallengeStatus.ACCEPTED):
        raise ValueError(
            f"release a starting challenge to pending or a closed status, not {status}"
        )
    changed = await db.write(
        lambda tx: tx.execute(
            "UPDATE challenges SET status = ? WHERE id = ? AND status = 'starting'",
            (str(status), challenge_id),
        ),
        compare_and_set=True,
    )
    return bool(changed)


async def resolve_challenge(
    db: Database, challenge_id: int, status: ChallengeStatus | str, *, now: float | None = None
) -> ChallengeRow:
    """Close a pending challenge with ``status``; returns it as stored.

    Raises :class:`ChallengeNotPending` if it was answered already (by a faster click, the
    expiry sweep, ...), and with ``now`` also if it is past its expiry, unless ``status`` is
    ``expired`` itself. Raises :class:`NotFound` for an unknown id.
    """
    status = ChallengeStatus(status)  # ValueError for an unknown status
    if status in (ChallengeStatus.PENDING, ChallengeStatus.STARTING):
        raise ValueError("resolve a challenge to a final status, not pending or starting")
    sql = "UPDATE challenges SET status = ? WHERE id = ? AND status = 'pending'"
    params: list[Any] = [str(status), challenge_id]
    if now is not None and status != ChallengeStatus.EXPIRED:
        sql += " AND expires_at > ?"
        params.append(now)

    def work(tx: Transaction) -> ChallengeRow:
        if not tx.execute(sql, params):
            raise _refusal(tx, challenge_id, now)
        return _load(tx, challenge_id)

    return await db.write(work, compare_and_set=True)


def claim_challenge(tx: Transaction, challenge_id: int, game_id: str, now: float) -> None:
    """Inside the transaction that creates ``game_id``: the starting challenge becomes
    accepted by it. Its expiry no longer counts: the Accept that claimed it came in time."""
    if not tx.execute(
        "UPDATE challenges SET status = 'accepted', game_id = ? "
        "WHERE id = ? AND status = 'starting'",
        (game_id, challenge_id),
    ):
        raise _refusal(tx, challenge_id, None)


async def expired_challenges(db: Database, now: float) -> list[ChallengeRow]:
    """Pending challenges whose expiry is at or before ``now`` (the sweep then resolves each
    to ``expired``; one accepted meanwhile makes that resolve raise and is skipped). A
    starting challenge is never among them: its game is being made."""
    return await db.read(lambda tx: _select(tx, "status = 'pending' AND expires_at <= ?", (now,)))


async def starting_challenges(db: Database) -> list[ChallengeRow]:
    """Challenges claimed by an Accept whose game was not stored yet, oldest first: after a
    crash, the start-up finishes them (or releases them)."""
    return await db.read(lambda tx: _select(tx, "status = 'starting'"))


async def unannounced_challenges(db: Database) -> list[ChallengeRow]:
    """Accepted challenges with an invitation whose game has never shown a board: a crash
    may have cut the bot off before it edited the invitation to say the game is on."""
    return await db.read(
        lambda tx: _select(
            tx,
            "status = 'accepted' AND (invitee_ids_json <> '[]' OR accepted_ids_json <> '[]') "
            "AND game_id IN "
            "(SELECT id FROM games WHERE status = 'active' AND message_id IS NULL)",
        )
    )
