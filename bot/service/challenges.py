"""Challenges: who may invite whom, answering exactly once, expiry.

Answering is a transition in storage, checked and written in one transaction: of clicks that
race (Accept three times, Accept and Decline, the expiry sweep) exactly one changes the
challenge and the others are refused with ``challenge.already_answered``. In this process
each transition of one challenge is also taken under its owner's lock
(:mod:`bot.service.live_challenges`), made at the offer and let go once the challenge is
over. The Accept that completes a challenge claims it (status ``starting``); its caller
starts the game (:mod:`bot.service.game_starts`), which calls :meth:`ChallengeService.release`
if that fails before the game is stored.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot import storage as store
from bot.clock import SYSTEM_CLOCK
from bot.service.live_challenges import LiveChallenges
from bot.service.lookup import Viewer, may_see
from bot.service.ratings import INITIAL_MU, INITIAL_SIGMA, display_rating
from bot.storage import Database
from bot.vocabulary.bounds import RATING
from bot.vocabulary.errors import ChallengeRefused
from bot.vocabulary.markup import plain_name

# The cluster-wide lock of the expiry sweep (``Database.exclusive``).
EXPIRY_LOCK = "challenge-expiry"
# The option that makes a challenge open to anyone: {"seats": joiners it waits for at most,
# "min": lowest rating that may join or None, "max": highest or None}.
OPEN = "open"
NAMES = "names"  # display names of everyone named or joined, by user id


@dataclass(frozen=True, slots=True)
class OpenSeats:
    seats: int
    min_rating: int | None = None
    max_rating: int | None = None

    def as_option(self) -> dict[str, int | None]:
        return {"seats": self.seats, "min": self.min_rating, "max": self.max_rating}

    def admits(self, rating: int) -> bool:
        return (self.min_rating is None or rating >= self.min_rating) and (
            self.max_rating is None or rating <= self.max_rating
        )


def parse_rating_range(text: str) -> tuple[int | None, int | None]:
    """``1200-1600``, ``1200-`` or ``-1600``; ChallengeRefused for anything else, and for a
    range nobody can meet (an end outside :data:`~bot.vocabulary.bounds.RATING`, the lower
    above the higher): its open invitation could never be joined."""
    found = _RATING_RANGE.fullmatch(text.replace(" ", ""))
    if found is None or not (found["low"] or found["high"]):
        raise ChallengeRefused("challenge.bad_rating_range", text=text)
    low, high = (int(end) if end else None for end in (found["low"], found["high"]))
    if any(end is not None and not RATING.holds(end) for end in (low, high)):
        raise ChallengeRefused(
            "challenge.rating_out_of_range", text=text, low=RATING.low, high=RATING.high
        )
    if low is not None and high is not None and low > high:
        raise ChallengeRefused("challenge.rating_range_empty", text=text, low=low, high=high)
    return low, high


# Digits only (int() would also take "+1_200" or other scripts' digits); 20 digits are past
# any bound, so the number is read whole and refused by its value.
_RATING_RANGE = re.compile(r"(?P<low>[0-9]{0,20})-(?P<high>[0-9]{0,20})", re.ASCII)


@dataclass(frozen=True, slots=True)
class Invitee:
    user_id: int
    name: str
    is_bot: bool = False


@dataclass(frozen=True, slots=True)
class Challenge(store.ChallengeFields):
    options: dict[str, Any]
    status: str
    expires_at: float
    game_id: str | None = None
    rematch_of: str | None = None

    @property
    def everyone_accepted(self) -> bool:
        return set(self.invitee_ids) <= set(self.accepted_ids)

    @property
    def starting(self) -> bool:
        """Claimed by the Accept that completed it: its game is being made."""
        return self.status == store.ChallengeStatus.STARTING

    @property
    def open_seats(self) -> OpenSeats | None:
        """For an open challenge (anyone may join), how many and who."""
        raw = self.options.get(OPEN)
        if not isinstance(raw, dict):
            return None
        return OpenSeats(int(raw["seats"]), raw.get("min"), raw.get("max"))

    @property
    def has_invitation(self) -> bool:
        """Whether people were asked (a rematch against the AI only asks nobody)."""
        return bool(self.invitee_ids) or self.open_seats is not None


def _from_row(row: store.ChallengeRow) -> Challenge:
    return store.from_record(
        Challenge, row, options=json.loads(row.options_json), status=str(row.status)
    )


def _answerable(row: store.ChallengeRow, viewer: Viewer) -> bool:
    people = (row.challenger_id, *row.invitee_ids, *row.accepted_ids)
    seen = may_see(viewer, guild_id=row.guild_id, channel_id=row.channel_id, people=people)
    # The game starts where the invitation is: an answer from elsewhere would start it there.
    return seen and viewer.channel_id == row.channel_id


def _answered(error: store.ChallengeNotPending, *, taken: bool = False) -> ChallengeRefused:
    """The refusal for a click that found the challenge no longer open (``taken``: an open
    challenge somebody else joined first)."""
    if error.status == store.ChallengeStatus.EXPIRED:
        return ChallengeRefused("challenge.expired")
    if taken and error.status in (store.ChallengeStatus.STARTING, store.ChallengeStatus.ACCEPTED):
        return ChallengeRefused("challenge.taken")
    return ChallengeRefused("challenge.already_answered")


class ChallengeService:
    def __init__(
        self, db: Database, *, timeout: float, clock: Callable[[], float] = SYSTEM_CLOCK.now
    ):
        self.db = db
        self.timeout = timeout
        self.clock = clock
        # An owner unused for as long as an invitation lives was ended by another process.
        self.live = LiveChallenges(idle_seconds=timeout, clock=clock)

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        challenger_id: int,
        invitees: Sequence[Invitee],
        game: str,
        options: dict[str, Any],
        rematch_of: str | None = None,
    ) -> Challenge:
        """A pending invitation. Refused (nothing stored) for oneself, bots, a name given
        twice, an invitee who already has one waiting from the challenger, and a second live
        rematch of the same game; the last two are checked in the insert's transaction."""
        names: dict[int, str] = {}
        for invitee in invitees:
            if invitee.user_id == challenger_id:
                raise ChallengeRefused("challenge.self")
            if invitee.is_bot:
                raise ChallengeRefused("challenge.bot", name=plain_name(invitee.name))
            if invitee.user_id in names:
                raise ChallengeRefused("challenge.duplicate", name=plain_name(invitee.name))
            names[invitee.user_id] = invitee.name
        return await self._store(
            guild_id=guild_id,
            channel_id=channel_id,
            challenger_id=challenger_id,
            invitee_names=names,
            game=game,
            options=options,
            rematch_of=rematch_of,
        )

    async def claim_rematch_against_ai(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        challenger_id: int,
        game: str,
        options: dict[str, Any],
        rematch_of: str,
        message_id: int | None,
    ) -> Challenge:
        """A rematch nobody has to accept, stored already claimed (``starting``): of two
        Rematch clicks at once only one gets it, the other ``rematch.exists``."""
        return await self._store(
            guild_id=guild_id,
            channel_id=channel_id,
            challenger_id=challenger_id,
            invitee_names={},
            game=game,
            options=options,
            rematch_of=rematch_of,
            message_id=message_id,
            status=store.ChallengeStatus.STARTING,
        )

    async def _store(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        challenger_id: int,
        invitee_names: dict[int, str],
        game: str,
        options: dict[str, Any],
        rematch_of: str | None,
        status: store.ChallengeStatus = store.ChallengeStatus.PENDING,
        message_id: int | None = None,
    ) -> Challenge:
        now = self.clock()
        try:
            row = await store.create_challenge(
                self.db,
                guild_id=guild_id,
                channel_id=channel_id,
                challenger_id=challenger_id,
                invitee_ids=list(invitee_names),
                game=game,
                options_json=json.dumps(options, sort_keys=True),
                now=now,
                expires_at=now + self.timeout,
                rematch_of=rematch_of,
                status=status,
                message_id=message_id,
            )
        except store.PendingChallengeExists as error:
            raise ChallengeRefused(
                "challenge.pending", name=plain_name(invitee_names.get(error.invitee_id, ""))
            ) from None
        except store.RematchExists:
            raise ChallengeRefused("rematch.exists") from None
        self.live.get(row.id)  # its owner, from the offer on
        return _from_row(row)

    async def set_message(self, challenge_id: int, message_id: int) -> None:
        await store.set_challenge_message(self.db, challenge_id, message_id)

    async def load(self, challenge_id: int, viewer: Viewer | None = None) -> Challenge:
        """The challenge; with ``viewer``, only where they may answer it: from the channel its
        invitation was posted in, under the rule of :mod:`bot.service.lookup`. Otherwise (a
        forged click from another server or chat) it is refused as an unknown one."""
        row = await store.load_challenge(self.db, challenge_id)
        if row is None or (viewer is not None and not _answerable(row, viewer)):
            raise ChallengeRefused("challenge.unknown")
        return _from_row(row)

    async def accept(
        self, challenge_id: int, user_id: int, *, message_id: int | None = None
    ) -> Challenge:
        """Record ``user_id``'s Accept. The result is ``starting`` for the one Accept that
        completed the challenge (the caller then starts the game), else still pending.
        ``message_id``: the invitation clicked, stored if the crash of an earlier bot left
        it unknown."""
        async with self.live.hold(challenge_id):
            return await self._accept(challenge_id, user_id, message_id)

    async def _accept(self, challenge_id: int, user_id: int, message_id: int | None) -> Challenge:
        challenge = await self.load(challenge_id)
        if user_id == challenge.challenger_id and user_id not in challenge.invitee_ids:
            # Their own invitation: it is addressed to them all right, only not for them to
            # accept.
            waiting = ", ".join(f"<@{invitee}>" for invitee in challenge.invitee_ids)
            raise ChallengeRefused("challenge.own_invitation", invitees=waiting)
        if user_id not in challenge.invitee_ids:
            raise ChallengeRefused("challenge.not_invited")
        try:
            answer = await store.accept_challenge(
                self.db, challenge_id, user_id, now=self.clock(), message_id=message_id
            )
        except store.ChallengeNotPending as error:
            raise _answered(error) from None
        if answer.repeated and not answer.starts:
            raise ChallengeRefused("challenge.already_accepted")
        return _from_row(answer.challenge)

    async def join(
        self,
        challenge_id: int,
        user_id: int,
        name: str,
        rating: int,
        *,
        message_id: int | None = None,
    ) -> Challenge:
        """Take a seat of an open challenge. Of joiners racing for the last seat exactly one
        gets it (the result is ``starting``: the caller starts the game), the others
        ``challenge.taken``. ``rating``: the joiner's, checked against the range asked for."""
        async with self.live.hold(challenge_id):
            return await self._join(challenge_id, user_id, name, rating, message_id)

    async def _join(
        self, challenge_id: int, user_id: int, name: str, rating: int, message_id: int | None
    ) -> Challenge:
        challenge = await self.load(challenge_id)
        seats = challenge.open_seats
        if seats is None:
            raise ChallengeRefused("challenge.not_invited")
        if user_id == challenge.challenger_id:
            # The creator is seated already: a table of several seats waits for their Start.
            own = "challenge.own_lobby" if seats.seats > 1 else "challenge.own_open"
            raise ChallengeRefused(own)
        if not seats.admits(rating):
            raise ChallengeRefused(
                "challenge.rating_outside",
                rating=rating,
                low=seats.min_rating if seats.min_rating is not None else "…",
                high=seats.max_rating if seats.max_rating is not None else "…",
            )

        def amend(options_json: str) -> str:
            options = json.loads(options_json)
            options.setdefault(NAMES, {})[str(user_id)] = name
            return json.dumps(options, sort_keys=True)

        try:
            answer = await store.accept_challenge(
                self.db,
                challenge_id,
                user_id,
                now=self.clock(),
                message_id=message_id,
                capacity=seats.seats,
                amend=amend,
            )
        except store.ChallengeNotPending as error:
            raise _answered(error, taken=True) from None
        if answer.repeated and not answer.starts:
            raise ChallengeRefused("challenge.already_joined")
        return _from_row(answer.challenge)

    async def start_lobby(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenger starts an open challenge with whoever joined (exactly once)."""
        async with self.live.hold(challenge_id):
            challenge = await self.load(challenge_id)
            if challenge.open_seats is None or user_id != challenge.challenger_id:
                raise ChallengeRefused("challenge.only_creator_starts")
            try:
                row = await store.start_open_challenge(
                    self.db, challenge_id, user_id, now=self.clock()
                )
            except store.ChallengeNotPending as error:
                raise _answered(error, taken=True) from None
            return _from_row(row)

    async def rating_of(self, user_id: int, game: str) -> int:
        """The user's global rating in ``game`` as shown (a newcomer's is the initial one)."""
        for row in await store.ratings_of_user(self.db, user_id, store.scope_key(None)):
            if row.game == game:
                return display_rating(row.mu, row.sigma)
        return display_rating(INITIAL_MU, INITIAL_SIGMA)

    async def decline(self, challenge_id: int, user_id: int) -> Challenge:
        """An invitee declines, or the challenger withdraws; only while it is pending."""
        async with self.live.hold(challenge_id):
            challenge = await self.load(challenge_id)
            if user_id not in (*challenge.invitee_ids, challenge.challenger_id):
                raise ChallengeRefused("challenge.not_invited")
            status = "cancelled" if user_id == challenge.challenger_id else "declined"
            try:
                row = await store.resolve_challenge(self.db, challenge_id, status, now=self.clock())
            except store.ChallengeNotPending as error:
                raise _answered(error) from None
            self.live.done(challenge_id)
            return _from_row(row)

    async def release(self, challenge: Challenge) -> bool:
        """Its start failed before the game was stored: the invitation can be answered again
        (a rematch against the AI, which nobody answers, is closed instead). False when the
        game was stored after all."""
        status = store.ChallengeStatus.PENDING if challenge.has_invitation else "cancelled"
        async with self.live.hold(challenge.id):
            released = await store.release_challenge(self.db, challenge.id, status)
        if released and not challenge.has_invitation:
            self.live.done(challenge.id)
        return released

    async def starting(self) -> list[Challenge]:
        """Starts a crash cut short, oldest first."""
        return [_from_row(row) for row in await store.starting_challenges(self.db)]

    async def unannounced(self) -> list[Challenge]:
        """Accepted invitations whose game has never shown a board (maybe not announced)."""
        return [_from_row(row) for row in await store.unannounced_challenges(self.db)]

    async def close(self, challenge_id: int, status: str) -> bool:
        """Move a pending challenge to ``status``; False when it was no longer pending."""
        async with self.live.hold(challenge_id):
            try:
                await store.resolve_challenge(self.db, challenge_id, status)
            except store.ChallengeNotPending:
                return False
            self.live.done(challenge_id)
            return True

    async def expire_due(self) -> list[Challenge]:
        """Expire the invitations whose time is up; returns those this call expired.

        A job for the whole cluster: every bot process runs the timer, and whichever holds the
        ``challenge-expiry`` lock does the work (the others get nothing to do). Each expiry is
        a conditional update as well, so even without the lock one invitation is expired, and
        its notice posted, once.
        """
        async with self.db.exclusive(EXPIRY_LOCK) as ours:
            if not ours:
                return []
            expired = []
            for row in await store.expired_challenges(self.db, self.clock()):
                if await self.close(row.id, "expired"):
                    expired.append(await self.load(row.id))
            return expired
