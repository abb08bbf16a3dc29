"""Challenges: an invitation to a game, pending until accepted, declined, cancelled or expired.

Every status change is conditional on the challenge still being pending, so a double click on
Accept, or Accept racing the expiry sweep, changes the status exactly once; the loser gets
:class:`ChallengeNotPending`. To start the game in the same transaction as the acceptance,
pass ``challenge_id`` to :func:`bot.storage.games.create_game`.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.database import Database, Row, Transaction
from bot.storage.errors import ChallengeNotPending, NotFound, NotInvited


class ChallengeStatus(enum.StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    EXPIRED = "expired"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    challenger_id: int
    invitee_ids: tuple[int, ...]
    accepted_ids: tuple[int, ...]
    game: str
    options_json: str
    status: ChallengeStatus
    created_at: float
    expires_at: float
    game_id: str | None  # the game it started, once accepted

    def invites(self, user_id: int) -> bool:
        """True if the user may accept (named, or the challenge is open to anyone)."""
        if user_id == self.challenger_id:
            return False
        return not self.invitee_ids or user_id in self.invitee_ids


_COLUMNS = (
    "id, guild_id, channel_id, message_id, challenger_id, invitee_ids_json, accepted_ids_json, "
    "game, options_json, status, created_at, expires_at, game_id"
)


def _challenge(row: Row) -> ChallengeRow:
    return ChallengeRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        challenger_id=row["challenger_id"],
        invitee_ids=tuple(json.loads(row["invitee_ids_json"])),
        accepted_ids=tuple(json.loads(row["accepted_ids_json"])),
        game=row["game"],
        options_json=row["options_json"],
        status=ChallengeStatus(row["status"]),
        created_at=row["created_at"],
        expires_at=row["expires_at"],
        game_id=row["game_id"],
    )


async def _select(tx: Transaction, where: str, params: Sequence[Any] = ()) -> list[ChallengeRow]:
    rows = await tx.fetchall(
        f"SELECT {_COLUMNS} FROM challenges WHERE {where} ORDER BY created_at, id", params
    )
    return [_challenge(row) for row in rows]


async def _load(tx: Transaction, challenge_id: int) -> ChallengeRow:
    found = await _select(tx, "id = ?", (challenge_id,))
    if not found:
        raise NotFound("challenge", challenge_id)
    return found[0]


async def _refusal(tx: Transaction, challenge_id: int, now: float | None) -> ChallengeNotPending:
    """Why a pending-only UPDATE matched nothing."""
    current = await _load(tx, challenge_id)
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
) -> ChallengeRow:
    """Store a pending challenge; its id is assigned here. No invitees: open to anyone."""
    async with db.transaction() as tx:
        challenge_id = await tx.fetchval(
            "INSERT INTO challenges (guild_id, channel_id, message_id, challenger_id, "
            "invitee_ids_json, game, options_json, created_at, expires_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                guild_id,
                channel_id,
                message_id,
                challenger_id,
                json.dumps([int(i) for i in invitee_ids]),
                game,
                options_json,
                now,
                expires_at,
            ),
        )
        return await _load(tx, int(challenge_id))


async def load_challenge(db: Database, challenge_id: int) -> ChallengeRow | None:
    async with db.snapshot() as tx:
        found = await _select(tx, "id = ?", (challenge_id,))
    return found[0] if found else None


async def set_challenge_message(db: Database, challenge_id: int, message_id: int | None) -> None:
    async with db.transaction() as tx:
        if not await tx.execute(
            "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
        ):
            raise NotFound("challenge", challenge_id)


async def pending_challenge_between(
    db: Database, challenger_id: int, invitee_id: int, *, now: float | None = None
) -> ChallengeRow | None:
    """The newest pending challenge from ``challenger_id`` that names ``invitee_id``.

    With ``now``, challenges past their expiry (not yet swept) do not count.
    """
    where = (
        "status = 'pending' AND challenger_id = ? "
        "AND EXISTS (SELECT 1 FROM json_each(invitee_ids_json) WHERE value = ?)"
    )
    params: list[Any] = [challenger_id, invitee_id]
    if now is not None:
        where += " AND expires_at > ?"
        params.append(now)
    async with db.snapshot() as tx:
        found = await _select(tx, where, params)
    return found[-1] if found else None


async def accept_challenge(
    db: Database, challenge_id: int, user_id: int, *, now: float | None = None
) -> ChallengeRow:
    """Add ``user_id`` to the accepted list of a pending multi-player challenge (idempotent).

    The challenge stays pending: the caller starts the game once everyone it needs has
    accepted, with ``create_game(..., challenge_id=...)``. Raises :class:`NotInvited` for a
    user the challenge does not name and :class:`ChallengeNotPending` once it is closed.
    """
    async with db.transaction() as tx:
        current = await _load(tx, challenge_id)
        if current.status != ChallengeStatus.PENDING or (
            now is not None and current.expires_at <= now
        ):
            raise await _refusal(tx, challenge_id, now)
        if not current.invites(user_id):
            raise NotInvited(challenge_id, user_id)
        if user_id in current.accepted_ids:
            return current
        await tx.execute(
            "UPDATE challenges SET accepted_ids_json = ? WHERE id = ?",
            (json.dumps([*current.accepted_ids, user_id]), challenge_id),
        )
        return await _load(tx, challenge_id)


async def resolve_challenge(
    db: Database, challenge_id: int, status: ChallengeStatus | str, *, now: float | None = None
) -> ChallengeRow:
    """Close a pending challenge with ``status``; returns it as stored.

    Raises :class:`ChallengeNotPending` if it was closed already (by a faster click, the
    expiry sweep, ...), and with ``now`` also if it is past its expiry, unless ``status`` is
    ``expired`` itself. Raises :class:`NotFound` for an unknown id.
    """
    status = ChallengeStatus(status)  # ValueError for an unknown status
    if status == ChallengeStatus.PENDING:
        raise ValueError("resolve a challenge to a final status, not pending")
    sql = "UPDATE challenges SET status = ? WHERE id = ? AND status = 'pending'"
    params: list[Any] = [str(status), challenge_id]
    if now is not None and status != ChallengeStatus.EXPIRED:
        sql += " AND expires_at > ?"
        params.append(now)
    async with db.transaction() as tx:
        if not await tx.execute(sql, params):
            raise await _refusal(tx, challenge_id, now)
        return await _load(tx, challenge_id)


async def claim_challenge(tx: Transaction, challenge_id: int, game_id: str, now: float) -> None:
    """Inside the transaction that creates ``game_id``: mark the challenge accepted by it."""
    if not await tx.execute(
        "UPDATE challenges SET status = 'accepted', game_id = ? "
        "WHERE id = ? AND status = 'pending' AND expires_at > ?",
        (game_id, challenge_id, now),
    ):
        raise await _refusal(tx, challenge_id, now)


async def expired_challenges(db: Database, now: float) -> list[ChallengeRow]:
    """Pending challenges whose expiry is at or before ``now`` (the sweep then resolves each
    to ``expired``; one accepted meanwhile makes that resolve raise and is skipped)."""
    async with db.snapshot() as tx:
        return await _select(tx, "status = 'pending' AND expires_at <= ?", (now,))


async def pending_challenges(db: Database) -> list[ChallengeRow]:
    """Every pending challenge, oldest first (to re-attach their buttons after a restart)."""
    async with db.snapshot() as tx:
        return await _select(tx, "status = 'pending'")
