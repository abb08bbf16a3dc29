"""The challenge service against a real SQLite file: who may invite whom, answering exactly
once (the refusals a losing click gets), releasing a failed start, and expiry."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

import pytest

from bot import storage
from bot.service.challenges import Challenge, ChallengeService, Invitee
from bot.service.games import GameService
from bot.service.models import SeatInfo
from bot.vocabulary.errors import ChallengeRefused
from tests.service.playing import Clock

ANN, BEN, CAT, DAN = 1, 2, 3, 4
TIMEOUT = 300.0


@pytest.fixture
def clock() -> Clock:
    return Clock(1_700_000_000.0)


@pytest.fixture
def service(db: storage.Database, clock: Clock) -> ChallengeService:
    return ChallengeService(db, timeout=TIMEOUT, clock=clock)


async def invite(
    service: ChallengeService,
    challenger: int = ANN,
    invitees: tuple[int, ...] = (BEN,),
    *,
    rematch_of: str | None = None,
) -> Challenge:
    return await service.create(
        guild_id=9,
        channel_id=100,
        challenger_id=challenger,
        invitees=[Invitee(i, f"user{i}") for i in invitees],
        game="ludo" if len(invitees) > 1 else "ur",
        options={},
        rematch_of=rematch_of,
    )


async def refusal(awaitable: Awaitable[Any]) -> str:
    with pytest.raises(ChallengeRefused) as caught:
        await awaitable
    return caught.value.key


async def test_who_may_be_invited(service: ChallengeService) -> None:
    assert await refusal(invite(service, ANN, (ANN,))) == "challenge.self"
    bot = service.create(
        guild_id=9,
        channel_id=100,
        challenger_id=ANN,
        invitees=[Invitee(BEN, "ben", is_bot=True)],
        game="ur",
        options={},
    )
    assert await refusal(bot) == "challenge.bot"
    assert await refusal(invite(service, ANN, (BEN, BEN))) == "challenge.duplicate"
    first = await invite(service)
    with pytest.raises(ChallengeRefused) as caught:
        await invite(service, ANN, (CAT, BEN))
    assert (caught.value.key, caught.value.params) == ("challenge.pending", {"name": "user2"})
    await service.decline(first.id, BEN)
    await invite(service)  # answered: the next one may be sent


async def test_challenge_sent_three_times_at_once_is_stored_once(
    service: ChallengeService,
) -> None:
    outcomes = await asyncio.gather(*(invite(service) for _ in range(3)), return_exceptions=True)
    sent = [o for o in outcomes if isinstance(o, Challenge)]
    refused = [o.key for o in outcomes if isinstance(o, ChallengeRefused)]
    assert len(sent) == 1 and refused == ["challenge.pending"] * 2


async def test_accept_three_times_at_once_claims_once(service: ChallengeService) -> None:
    challenge = await invite(service)
    outcomes = await asyncio.gather(
        *(service.accept(challenge.id, BEN, message_id=77) for _ in range(3)),
        return_exceptions=True,
    )
    claimed = [o for o in outcomes if isinstance(o, Challenge)]
    assert len(claimed) == 1 and claimed[0].starting and claimed[0].message_id == 77
    refused = [o.key for o in outcomes if isinstance(o, ChallengeRefused)]
    assert refused == ["challenge.already_answered"] * 2
    assert await refusal(service.decline(challenge.id, BEN)) == "challenge.already_answered"
    assert [c.id for c in await service.starting()] == [challenge.id]


async def test_the_refusals_of_an_accept(service: ChallengeService, clock: Clock) -> None:
    ludo = await invite(service, ANN, (BEN, CAT))
    assert await refusal(service.accept(ludo.id, DAN)) == "challenge.not_invited"
    assert await refusal(service.accept(ludo.id, ANN)) == "challenge.own_invitation"
    waiting = await service.accept(ludo.id, BEN)
    assert waiting.status == "pending" and not waiting.starting
    assert await refusal(service.accept(ludo.id, BEN)) == "challenge.already_accepted"
    assert (await service.accept(ludo.id, CAT)).starting
    assert await refusal(service.accept(4242, BEN)) == "challenge.unknown"

    late = await invite(service, DAN, (ANN,))
    clock.now += TIMEOUT
    assert await refusal(service.accept(late.id, ANN)) == "challenge.expired"
    assert await refusal(service.decline(late.id, ANN)) == "challenge.expired"


async def test_decline_and_cancel(service: ChallengeService) -> None:
    declined = await invite(service)
    assert await refusal(service.decline(declined.id, CAT)) == "challenge.not_invited"
    assert (await service.decline(declined.id, BEN)).status == "declined"
    assert await refusal(service.accept(declined.id, BEN)) == "challenge.already_answered"
    cancelled = await invite(service)
    assert (await service.decline(cancelled.id, ANN)).status == "cancelled"


async def test_a_released_start_can_be_accepted_again(
    db: storage.Database, service: ChallengeService
) -> None:
    challenge = await service.accept((await invite(service)).id, BEN)
    assert await service.release(challenge)
    assert (await service.load(challenge.id)).status == "pending"
    again = await service.accept(challenge.id, BEN)  # the same person clicks Accept again
    assert again.starting
    games = GameService(db)
    seats = [SeatInfo(0, ANN, "ann"), SeatInfo(1, BEN, "ben")]
    game = await games.start(
        game="ur",
        guild_id=9,
        channel_id=100,
        parent_channel_id=None,
        seats=seats,
        challenge_id=again.id,
    )
    assert not await service.release(again)  # the game exists: nothing to release
    accepted = await service.load(again.id)
    assert (accepted.status, accepted.game_id) == ("accepted", game.id)
    assert [c.id for c in await service.unannounced()] == [again.id]


async def test_one_rematch_per_game_and_against_the_ai_it_starts_claimed(
    db: storage.Database, service: ChallengeService
) -> None:
    games = GameService(db)
    seats = [SeatInfo(0, ANN, "ann"), SeatInfo(1, BEN, "ben")]
    old = await games.start(
        game="ur", guild_id=9, channel_id=100, parent_channel_id=None, seats=seats
    )
    outcomes = await asyncio.gather(
        invite(service, ANN, (BEN,), rematch_of=old.id),
        invite(service, BEN, (ANN,), rematch_of=old.id),
        return_exceptions=True,
    )
    (offer,) = [o for o in outcomes if isinstance(o, Challenge)]
    assert [o.key for o in outcomes if isinstance(o, ChallengeRefused)] == ["rematch.exists"]
    await service.decline(offer.id, ANN if offer.challenger_id == BEN else BEN)

    claim = service.claim_rematch_against_ai(
        guild_id=9,
        channel_id=100,
        challenger_id=ANN,
        game="ur",
        options={},
        rematch_of=old.id,
        message_id=5,
    )
    outcomes = await asyncio.gather(claim, claim_again(service, old.id), return_exceptions=True)
    (solo,) = [o for o in outcomes if isinstance(o, Challenge)]
    assert [o.key for o in outcomes if isinstance(o, ChallengeRefused)] == ["rematch.exists"]
    assert solo.starting and not solo.has_invitation and solo.message_id == 5
    # Nobody answers it: a failed start closes it instead of leaving it pending.
    assert await service.release(solo)
    assert (await service.load(solo.id)).status == "cancelled"


async def claim_again(service: ChallengeService, game_id: str) -> Challenge:
    return await service.claim_rematch_against_ai(
        guild_id=9,
        channel_id=100,
        challenger_id=ANN,
        game="ur",
        options={},
        rematch_of=game_id,
        message_id=5,
    )


async def test_expiry_skips_a_started_challenge(service: ChallengeService, clock: Clock) -> None:
    idle = await invite(service, ANN, (BEN,))
    claimed = await service.accept((await invite(service, CAT, (DAN,))).id, DAN)
    clock.now += TIMEOUT
    assert [c.id for c in await service.expire_due()] == [idle.id]
    assert (await service.load(claimed.id)).status == "starting"
