"""Challenges: who may invite whom, acceptance by every invitee, expiry."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot import storage as store
from bot.service.errors import ChallengeRefused
from bot.storage import Database


@dataclass(frozen=True, slots=True)
class Invitee:
    user_id: int
    name: str
    is_bot: bool = False


@dataclass(frozen=True, slots=True)
class Challenge:
    id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    challenger_id: int
    invitee_ids: tuple[int, ...]
    accepted_ids: tuple[int, ...]
    game: str
    options: dict[str, Any]
    status: str
    expires_at: float

    @property
    def everyone_accepted(self) -> bool:
        return set(self.invitee_ids) <= set(self.accepted_ids)


def _from_row(row: store.ChallengeRow) -> Challenge:
    return Challenge(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        message_id=row.message_id,
        challenger_id=row.challenger_id,
        invitee_ids=row.invitee_ids,
        accepted_ids=row.accepted_ids,
        game=row.game,
        options=json.loads(row.options_json),
        status=str(row.status),
        expires_at=row.expires_at,
    )


class ChallengeService:
    def __init__(self, db: Database, *, timeout: float, clock: Callable[[], float] = time.time):
        self.db = db
        self.timeout = timeout
        self.clock = clock

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        challenger_id: int,
        invitees: Sequence[Invitee],
        game: str,
        options: dict[str, Any],
    ) -> Challenge:
        seen: set[int] = set()
        for invitee in invitees:
            if invitee.user_id == challenger_id:
                raise ChallengeRefused("challenge.self")
            if invitee.is_bot:
                raise ChallengeRefused("challenge.bot", name=invitee.name)
            if invitee.user_id in seen:
                raise ChallengeRefused("challenge.duplicate", name=invitee.name)
            seen.add(invitee.user_id)
            pending = await store.pending_challenge_between(self.db, challenger_id, invitee.user_id)
            if pending is not None:
                raise ChallengeRefused("challenge.pending", name=invitee.name)
        now = self.clock()
        row = await store.create_challenge(
            self.db,
            guild_id=guild_id,
            channel_id=channel_id,
            challenger_id=challenger_id,
            invitee_ids=[i.user_id for i in invitees],
            game=game,
            options_json=json.dumps(options, sort_keys=True),
            now=now,
            expires_at=now + self.timeout,
        )
        return _from_row(row)

    async def set_message(self, challenge_id: int, message_id: int) -> None:
        await store.set_challenge_message(self.db, challenge_id, message_id)

    async def load(self, challenge_id: int) -> Challenge:
        row = await store.load_challenge(self.db, challenge_id)
        if row is None:
            raise ChallengeRefused("challenge.unknown")
        return _from_row(row)

    async def accept(self, challenge_id: int, user_id: int) -> Challenge:
        """Record ``user_id``'s acceptance; the result says whether everyone has accepted."""
        challenge = await self.load(challenge_id)
        self._check_open(challenge)
        if user_id not in challenge.invitee_ids:
            raise ChallengeRefused("challenge.not_invited")
        if user_id in challenge.accepted_ids:
            raise ChallengeRefused("challenge.already_accepted")
        try:
            row = await store.accept_challenge(self.db, challenge_id, user_id, now=self.clock())
        except store.ChallengeNotPending:  # a racing click or the expiry sweep settled it
            raise ChallengeRefused("challenge.closed") from None
        return _from_row(row)

    async def close(self, challenge_id: int, status: str) -> bool:
        """Move a pending challenge to ``status``; False when it was no longer pending."""
        try:
            await store.resolve_challenge(self.db, challenge_id, status)
        except store.ChallengeNotPending:
            return False
        return True

    async def decline(self, challenge_id: int, user_id: int) -> Challenge:
        challenge = await self.load(challenge_id)
        self._check_open(challenge)
        if user_id not in (*challenge.invitee_ids, challenge.challenger_id):
            raise ChallengeRefused("challenge.not_invited")
        status = "cancelled" if user_id == challenge.challenger_id else "declined"
        if not await self.close(challenge_id, status):
            raise ChallengeRefused("challenge.closed")
        return await self.load(challenge_id)

    async def expire_due(self) -> list[Challenge]:
        expired = []
        for row in await store.expired_challenges(self.db, self.clock()):
            if await self.close(row.id, "expired"):
                expired.append(await self.load(row.id))
        return expired

    def _check_open(self, challenge: Challenge) -> None:
        if challenge.status != "pending":
            raise ChallengeRefused("challenge.closed")
        if challenge.expires_at <= self.clock():
            raise ChallengeRefused("challenge.expired")
