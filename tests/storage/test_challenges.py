"""Challenges: create, accept (and the accept race), decline, expiry."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import (
    ChallengeNotPending,
    ChallengeRow,
    ChallengeStatus,
    ChannelBusy,
    Database,
    NotFound,
    NotInvited,
    accept_challenge,
    active_games,
    create_challenge,
    expired_challenges,
    load_challenge,
    load_game,
    pending_challenge_between,
    pending_challenges,
    resolve_challenge,
    set_challenge_message,
)

from .conftest import T0, human, new_game

EXPIRES = T0 + 300


async def challenge(
    db: Database,
    challenger: int = 1,
    invitees: tuple[int, ...] = (2,),
    *,
    game: str = "ur",
    now: float = T0,
    expires_at: float = EXPIRES,
) -> ChallengeRow:
    return await create_challenge(
        db,
        guild_id=9,
        channel_id=100,
        challenger_id=challenger,
        invitee_ids=invitees,
        game=game,
        options_json='{"x": 1}',
        now=now,
        expires_at=expires_at,
    )


async def test_create_and_load_round_trip(db: Database) -> None:
    created = await challenge(db, 1, (2, 3), game="ludo")
    assert created == await load_challenge(db, created.id)
    assert (created.guild_id, created.channel_id, created.message_id) == (9, 100, None)
    assert (created.challenger_id, created.invitee_ids, created.accepted_ids) == (1, (2, 3), ())
    assert (created.game, created.options_json, created.status) == ("ludo", '{"x": 1}', "pending")
    assert (created.created_at, created.expires_at, created.game_id) == (T0, EXPIRES, None)

    second = await challenge(db)
    assert second.id > created.id  # ids are assigned by the database
    await set_challenge_message(db, second.id, 777)
    reloaded = await load_challenge(db, second.id)
    assert reloaded is not None and reloaded.message_id == 777
    assert await load_challenge(db, 12345) is None
    with pytest.raises(NotFound):
        await set_challenge_message(db, 12345, 1)


async def test_pending_challenge_between(db: Database) -> None:
    first = await challenge(db, 1, (2, 3))
    assert await pending_challenge_between(db, 1, 2) == first
    assert await pending_challenge_between(db, 1, 3) == first
    assert await pending_challenge_between(db, 2, 1) is None  # direction matters
    assert await pending_challenge_between(db, 1, 4) is None
    # Big snowflakes survive the JSON round trip and still match.
    big = await challenge(db, 1, (1_234_567_890_123_456_789,))
    assert await pending_challenge_between(db, 1, 1_234_567_890_123_456_789) == big
    # An expired one does not count once the caller says what time it is.
    assert await pending_challenge_between(db, 1, 2, now=EXPIRES) is None
    await resolve_challenge(db, first.id, ChallengeStatus.DECLINED)
    assert await pending_challenge_between(db, 1, 2) is None


async def test_a_challenge_resolves_once(db: Database) -> None:
    row = await challenge(db)
    declined = await resolve_challenge(db, row.id, ChallengeStatus.DECLINED)
    assert declined.status == ChallengeStatus.DECLINED
    with pytest.raises(ChallengeNotPending) as caught:
        await resolve_challenge(db, row.id, ChallengeStatus.CANCELLED)
    assert caught.value.status == "declined"
    with pytest.raises(NotFound):
        await resolve_challenge(db, 999, ChallengeStatus.DECLINED)
    with pytest.raises(ValueError, match="pending"):
        await resolve_challenge(db, row.id, ChallengeStatus.PENDING)


async def test_accept_race_starts_exactly_one_game(db: Database) -> None:
    """Accept clicked twice (two channels, so ChannelBusy cannot be what stops the second)."""
    row = await challenge(db)
    starts = [
        new_game(
            db, f"g{i}", channel_id=200 + i, challenge_id=row.id, seats=(human(0, 1), human(1, 2))
        )
        for i in range(3)
    ]
    outcomes = await asyncio.gather(*starts, return_exceptions=True)
    games = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(games) == 1
    assert sum(isinstance(o, ChallengeNotPending) for o in outcomes) == 2
    assert [g.id for g in await active_games(db)] == [games[0].id]
    accepted = await load_challenge(db, row.id)
    assert accepted is not None
    assert (accepted.status, accepted.game_id) == (ChallengeStatus.ACCEPTED, games[0].id)


async def test_resolve_race_exactly_one_wins(db: Database) -> None:
    row = await challenge(db)
    outcomes = await asyncio.gather(
        resolve_challenge(db, row.id, ChallengeStatus.ACCEPTED),
        resolve_challenge(db, row.id, ChallengeStatus.CANCELLED),
        return_exceptions=True,
    )
    assert sum(isinstance(o, ChallengeRow) for o in outcomes) == 1
    assert sum(isinstance(o, ChallengeNotPending) for o in outcomes) == 1


async def test_a_failed_game_start_leaves_the_challenge_pending(db: Database) -> None:
    row = await challenge(db)
    await new_game(db, "busy", channel_id=100)
    with pytest.raises(ChannelBusy):
        await new_game(db, "g2", channel_id=100, challenge_id=row.id)
    still = await load_challenge(db, row.id)
    assert still is not None and still.status == ChallengeStatus.PENDING and still.game_id is None
    with pytest.raises(NotFound):
        await new_game(db, "g3", channel_id=300, challenge_id=4242)
    assert await load_game(db, "g3") is None


async def test_expiry(db: Database) -> None:
    old = await challenge(db, 1, (2,), expires_at=T0 + 10)
    fresh = await challenge(db, 3, (4,), expires_at=T0 + 1000)
    assert await expired_challenges(db, T0 + 9) == []
    assert [c.id for c in await expired_challenges(db, T0 + 10)] == [old.id]  # inclusive

    # Not swept yet, but an accept after the expiry is refused all the same.
    with pytest.raises(ChallengeNotPending) as caught:
        await new_game(db, "g1", challenge_id=old.id, now=T0 + 11)
    assert caught.value.status == "expired"
    with pytest.raises(ChallengeNotPending):
        await resolve_challenge(db, old.id, ChallengeStatus.ACCEPTED, now=T0 + 11)
    with pytest.raises(ChallengeNotPending):
        await accept_challenge(db, old.id, 2, now=T0 + 11)

    swept = await resolve_challenge(db, old.id, "expired", now=T0 + 11)
    assert swept.status == ChallengeStatus.EXPIRED
    assert await expired_challenges(db, T0 + 11) == []
    assert [c.id for c in await pending_challenges(db)] == [fresh.id]


async def test_accepting_a_multi_player_challenge(db: Database) -> None:
    row = await challenge(db, 1, (2, 3, 4), game="ludo")
    after = await accept_challenge(db, row.id, 3, now=T0)
    assert after.accepted_ids == (3,) and after.status == ChallengeStatus.PENDING
    assert (await accept_challenge(db, row.id, 3)).accepted_ids == (3,)  # idempotent
    assert (await accept_challenge(db, row.id, 2)).accepted_ids == (3, 2)  # in order
    with pytest.raises(NotInvited):
        await accept_challenge(db, row.id, 5)
    with pytest.raises(NotInvited):
        await accept_challenge(db, row.id, 1)  # the challenger is not their own invitee
    await resolve_challenge(db, row.id, ChallengeStatus.CANCELLED)
    with pytest.raises(ChallengeNotPending):
        await accept_challenge(db, row.id, 4)


async def test_an_open_challenge_takes_anyone_but_the_challenger(db: Database) -> None:
    row = await challenge(db, 1, ())
    assert (await accept_challenge(db, row.id, 77)).accepted_ids == (77,)
    with pytest.raises(NotInvited):
        await accept_challenge(db, row.id, 1)
