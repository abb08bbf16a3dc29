"""Challenges: create, answer exactly once (pending -> starting -> accepted, races on two
connections), release after a failed start, expiry, rematches, and the migration."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.storage import (
    Acceptance,
    ChallengeNotPending,
    ChallengeRow,
    ChallengeStatus,
    ChannelBusy,
    Database,
    NotFound,
    NotInvited,
    PendingChallengeExists,
    RematchExists,
    Transaction,
    accept_challenge,
    active_games,
    create_challenge,
    expired_challenges,
    load_challenge,
    load_game,
    load_migrations,
    release_challenge,
    resolve_challenge,
    set_challenge_message,
    set_message,
    start_open_challenge,
    starting_challenges,
    unannounced_challenges,
)

from .conftest import T0, human, new_game
from .helpers import pending_challenges, rows

EXPIRES = T0 + 300


async def challenge(
    db: Database,
    challenger: int = 1,
    invitees: tuple[int, ...] = (2,),
    *,
    game: str = "ur",
    now: float = T0,
    expires_at: float = EXPIRES,
    rematch_of: str | None = None,
    status: ChallengeStatus = ChallengeStatus.PENDING,
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
        rematch_of=rematch_of,
        status=status,
    )


@pytest.fixture
async def other(db: Database, db_url: str) -> AsyncIterator[Database]:
    """A second connection to the same database: another process, for the races."""
    second = await Database.open(db_url)
    yield second
    await second.close()


async def status_of(db: Database, challenge_id: int) -> ChallengeStatus:
    row = await load_challenge(db, challenge_id)
    assert row is not None
    return row.status


async def test_create_and_load_round_trip(db: Database) -> None:
    created = await challenge(db, 1, (2, 3), game="ludo")
    assert created == await load_challenge(db, created.id)
    assert (created.guild_id, created.channel_id, created.message_id) == (9, 100, None)
    assert (created.challenger_id, created.invitee_ids, created.accepted_ids) == (1, (2, 3), ())
    assert (created.game, created.options_json, created.status) == ("ludo", '{"x": 1}', "pending")
    assert (created.created_at, created.expires_at, created.game_id) == (T0, EXPIRES, None)
    assert created.rematch_of is None

    second = await challenge(db, 4, (5,))
    assert second.id > created.id  # ids are assigned by the database
    await set_challenge_message(db, second.id, 777)
    reloaded = await load_challenge(db, second.id)
    assert reloaded is not None and reloaded.message_id == 777
    assert await load_challenge(db, 12345) is None
    with pytest.raises(NotFound):
        await set_challenge_message(db, 12345, 1)


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


async def test_resolve_race_exactly_one_wins(db: Database) -> None:
    row = await challenge(db)
    outcomes = await asyncio.gather(
        resolve_challenge(db, row.id, ChallengeStatus.ACCEPTED),
        resolve_challenge(db, row.id, ChallengeStatus.CANCELLED),
        return_exceptions=True,
    )
    assert sum(isinstance(o, ChallengeRow) for o in outcomes) == 1
    assert sum(isinstance(o, ChallengeNotPending) for o in outcomes) == 1


async def test_one_of_three_accepts_on_two_connections_claims_the_challenge(
    db: Database, other: Database
) -> None:
    row = await challenge(db)
    outcomes = await asyncio.gather(
        accept_challenge(db, row.id, 2, now=T0, message_id=555),
        accept_challenge(other, row.id, 2, now=T0, message_id=555),
        accept_challenge(db, row.id, 2, now=T0, message_id=555),
        return_exceptions=True,
    )
    claims = [o for o in outcomes if isinstance(o, Acceptance)]
    assert len(claims) == 1 and claims[0].starts and not claims[0].repeated
    refusals = [o for o in outcomes if isinstance(o, ChallengeNotPending)]
    assert [r.status for r in refusals] == ["starting", "starting"]
    claimed = claims[0].challenge
    assert (claimed.status, claimed.accepted_ids, claimed.message_id) == ("starting", (2,), 555)
    assert [c.id for c in await starting_challenges(other)] == [row.id]
    assert await pending_challenges(db) == []


async def test_two_invitees_accepting_at_once_on_two_connections_both_count(
    db: Database, other: Database
) -> None:
    """Each Accept reads the accepted list and sets it: two at once must not overwrite each
    other (a lost Accept would leave the challenge waiting for someone who accepted)."""
    for round_ in range(4):
        row = await challenge(db, 10, (20 + round_, 30 + round_))
        outcomes = await asyncio.gather(
            accept_challenge(db, row.id, 20 + round_, now=T0),
            accept_challenge(other, row.id, 30 + round_, now=T0),
        )
        assert sorted(o.starts for o in outcomes) == [False, True], outcomes
        stored = await load_challenge(db, row.id)
        assert stored is not None and stored.status == ChallengeStatus.STARTING
        assert set(stored.accepted_ids) == {20 + round_, 30 + round_}


async def test_accept_and_decline_on_two_connections_exactly_one_wins(
    db: Database, other: Database
) -> None:
    for round_ in range(6):
        row = await challenge(db, 10 + round_, (20 + round_,))
        accept = accept_challenge(db, row.id, 20 + round_, now=T0)
        decline = resolve_challenge(other, row.id, ChallengeStatus.DECLINED, now=T0)
        pair = (accept, decline) if round_ % 2 else (decline, accept)
        outcomes = await asyncio.gather(*pair, return_exceptions=True)
        assert sum(isinstance(o, ChallengeNotPending) for o in outcomes) == 1, outcomes
        final = await status_of(db, row.id)
        won = next(o for o in outcomes if not isinstance(o, BaseException))
        if isinstance(won, Acceptance):
            assert final == ChallengeStatus.STARTING and won.starts
        else:
            assert final == ChallengeStatus.DECLINED


async def test_only_a_claimed_challenge_can_start_a_game(db: Database) -> None:
    row = await challenge(db)
    with pytest.raises(ChallengeNotPending):  # nobody accepted: nothing to start
        await new_game(db, "g0", challenge_id=row.id)
    assert await load_game(db, "g0") is None
    await accept_challenge(db, row.id, 2, now=T0)
    game = await new_game(db, "g1", challenge_id=row.id, seats=(human(0, 1), human(1, 2)))
    accepted = await load_challenge(db, row.id)
    assert accepted is not None
    assert (accepted.status, accepted.game_id) == (ChallengeStatus.ACCEPTED, game.id)
    with pytest.raises(ChallengeNotPending):  # a second game for it
        await new_game(db, "g2", channel_id=201, challenge_id=row.id)
    assert [g.id for g in await active_games(db)] == ["g1"]
    assert not await release_challenge(db, row.id)  # its game exists: nothing to undo
    with pytest.raises(NotFound):
        await new_game(db, "g3", channel_id=300, challenge_id=4242)


async def test_a_failed_start_is_released_and_answerable_again(db: Database) -> None:
    row = await challenge(db)
    await new_game(db, "busy", channel_id=100)
    assert (await accept_challenge(db, row.id, 2, now=T0)).starts
    with pytest.raises(ChannelBusy):
        await new_game(db, "g2", channel_id=100, challenge_id=row.id)
    assert await status_of(db, row.id) == ChallengeStatus.STARTING  # rolled back, still claimed
    assert await release_challenge(db, row.id)
    assert not await release_challenge(db, row.id)  # once
    assert await status_of(db, row.id) == ChallengeStatus.PENDING
    # The same Accept again claims it again (the user is on the accepted list already).
    again = await accept_challenge(db, row.id, 2, now=T0)
    assert again.starts and again.repeated
    with pytest.raises(ValueError, match="pending or a closed"):
        await release_challenge(db, row.id, ChallengeStatus.ACCEPTED)
    assert await release_challenge(db, row.id, ChallengeStatus.CANCELLED)
    assert await status_of(db, row.id) == ChallengeStatus.CANCELLED


async def test_the_first_accept_of_several_waits_and_the_last_claims(db: Database) -> None:
    row = await challenge(db, 1, (2, 3, 4), game="ludo")
    first = await accept_challenge(db, row.id, 3, now=T0)
    assert (first.challenge.accepted_ids, first.starts, first.repeated) == ((3,), False, False)
    assert first.challenge.status == ChallengeStatus.PENDING
    repeated = await accept_challenge(db, row.id, 3)
    assert (repeated.challenge.accepted_ids, repeated.starts, repeated.repeated) == (
        (3,),
        False,
        True,
    )
    assert (await accept_challenge(db, row.id, 2)).challenge.accepted_ids == (3, 2)  # in order
    with pytest.raises(NotInvited):
        await accept_challenge(db, row.id, 5)
    with pytest.raises(NotInvited):
        await accept_challenge(db, row.id, 1)  # the challenger is not their own invitee
    last = await accept_challenge(db, row.id, 4)
    assert last.starts and last.challenge.status == ChallengeStatus.STARTING
    with pytest.raises(ChallengeNotPending):
        await accept_challenge(db, row.id, 2)
    with pytest.raises(ChallengeNotPending):  # nor can the challenger withdraw it now
        await resolve_challenge(db, row.id, ChallengeStatus.CANCELLED)


async def test_an_open_challenge_takes_anyone_but_the_challenger(db: Database) -> None:
    row = await challenge(db, 1, ())
    with pytest.raises(NotInvited):
        await accept_challenge(db, row.id, 1)
    taken = await accept_challenge(db, row.id, 77)
    assert taken.starts and taken.challenge.accepted_ids == (77,)


async def test_a_lobby_counts_racing_joiners_and_its_creator_starts_it_once(
    db: Database, other: Database
) -> None:
    row = await challenge(db, 1, ())

    def named(user: int) -> Callable[[str], str]:
        return lambda options: options[:-1] + f', "u{user}": {user}}}'

    joined = await asyncio.gather(
        accept_challenge(db, row.id, 2, capacity=3, amend=named(2)),
        accept_challenge(other, row.id, 3, capacity=3, amend=named(3)),
        return_exceptions=True,
    )
    # Both joins count even when they race (one retries on the version it read).
    assert all(isinstance(j, Acceptance) and not j.starts for j in joined), joined
    current = await load_challenge(db, row.id)
    assert current is not None and current.status == ChallengeStatus.PENDING
    assert sorted(current.accepted_ids) == [2, 3]
    assert '"u2": 2' in current.options_json and '"u3": 3' in current.options_json
    with pytest.raises(NotInvited):
        await start_open_challenge(db, row.id, 2)
    outcomes = await asyncio.gather(
        start_open_challenge(db, row.id, 1, now=T0),
        accept_challenge(other, row.id, 4, capacity=3, now=T0),
        start_open_challenge(other, row.id, 1, now=T0),
        return_exceptions=True,
    )
    winners = [o for o in outcomes if not isinstance(o, ChallengeNotPending)]
    assert len(winners) == 1, outcomes
    assert await status_of(db, row.id) == ChallengeStatus.STARTING


async def test_expiry_never_takes_a_claimed_challenge(db: Database) -> None:
    old = await challenge(db, 1, (2,), expires_at=T0 + 10)
    late = await challenge(db, 3, (4,), expires_at=T0 + 10)
    fresh = await challenge(db, 5, (6,), expires_at=T0 + 1000)
    assert await expired_challenges(db, T0 + 9) == []
    assert (await accept_challenge(db, late.id, 4, now=T0 + 9)).starts  # just in time
    assert [c.id for c in await expired_challenges(db, T0 + 10)] == [old.id]  # inclusive

    # Not swept yet, but an answer after the expiry is refused all the same.
    with pytest.raises(ChallengeNotPending) as caught:
        await accept_challenge(db, old.id, 2, now=T0 + 11)
    assert caught.value.status == "expired"
    with pytest.raises(ChallengeNotPending):
        await resolve_challenge(db, old.id, ChallengeStatus.DECLINED, now=T0 + 11)

    swept = await resolve_challenge(db, old.id, "expired", now=T0 + 11)
    assert swept.status == ChallengeStatus.EXPIRED
    with pytest.raises(ChallengeNotPending) as starting:
        await resolve_challenge(db, late.id, "expired", now=T0 + 11)
    assert starting.value.status == "starting"
    # The claimed one still gets its game after its expiry: the Accept came in time.
    await new_game(db, "g1", challenge_id=late.id, now=T0 + 60)
    assert await status_of(db, late.id) == ChallengeStatus.ACCEPTED
    assert await expired_challenges(db, T0 + 11) == []
    assert [c.id for c in await pending_challenges(db)] == [fresh.id]


async def test_three_identical_challenges_on_two_connections_store_one(
    db: Database, other: Database
) -> None:
    outcomes = await asyncio.gather(
        challenge(db, 1, (2,)),
        challenge(other, 1, (2,)),
        challenge(db, 1, (3, 2)),
        return_exceptions=True,
    )
    stored = [o for o in outcomes if isinstance(o, ChallengeRow)]
    refused = [o for o in outcomes if isinstance(o, PendingChallengeExists)]
    assert len(stored) == 1 and len(refused) == 2, outcomes
    assert {r.invitee_id for r in refused} == {2}
    assert [c.id for c in await pending_challenges(db)] == [stored[0].id]
    # Once answered, the next one may be sent; other pairs were never blocked.
    await resolve_challenge(db, stored[0].id, ChallengeStatus.DECLINED)
    await challenge(db, 1, (2,))
    await challenge(db, 2, (1,))


async def test_one_live_rematch_per_finished_game(db: Database, other: Database) -> None:
    await new_game(db, "old", channel_id=500)
    outcomes = await asyncio.gather(
        challenge(db, 1, (2,), rematch_of="old"),
        challenge(other, 2, (1,), rematch_of="old"),
        return_exceptions=True,
    )
    (first,) = [o for o in outcomes if isinstance(o, ChallengeRow)]
    assert sum(isinstance(o, RematchExists) for o in outcomes) == 1, outcomes
    assert first.rematch_of == "old"
    await resolve_challenge(db, first.id, ChallengeStatus.DECLINED)
    # Declined: another rematch may be offered; one nobody answers starts claimed.
    against_ai = await challenge(db, 1, (), rematch_of="old", status=ChallengeStatus.STARTING)
    assert against_ai.status == ChallengeStatus.STARTING
    with pytest.raises(RematchExists):
        await challenge(db, 2, (1,), rematch_of="old")
    await new_game(db, "again", channel_id=501, challenge_id=against_ai.id)
    with pytest.raises(RematchExists):  # accepted still counts: the rematch was played
        await challenge(db, 3, (), rematch_of="old", status=ChallengeStatus.STARTING)
    with pytest.raises(ValueError, match="pending or starting"):
        await challenge(db, 3, (4,), status=ChallengeStatus.ACCEPTED)


async def test_accepted_challenges_whose_game_never_showed_a_board(db: Database) -> None:
    shown, unshown, nobody_asked = (
        await challenge(db, 1, (2,)),
        await challenge(db, 3, (4,)),
        await challenge(db, 5, (), status=ChallengeStatus.STARTING),
    )
    for row, user in ((shown, 2), (unshown, 4)):
        await accept_challenge(db, row.id, user, now=T0)
    assert await unannounced_challenges(db) == []
    await new_game(db, "g1", channel_id=601, challenge_id=shown.id)
    await new_game(db, "g2", channel_id=602, challenge_id=unshown.id)
    await new_game(db, "g3", channel_id=603, challenge_id=nobody_asked.id)
    await set_message(db, "g1", 9001)
    assert [c.id for c in await unannounced_challenges(db)] == [unshown.id]


async def test_accept_keeps_a_known_invitation_id(db: Database) -> None:
    row = await challenge(db)
    await set_challenge_message(db, row.id, 42)
    claimed = await accept_challenge(db, row.id, 2, now=T0, message_id=43)
    assert claimed.challenge.message_id == 42


async def test_the_migration_keeps_challenges_and_their_ids(db_path: Path) -> None:
    before = load_migrations()[:4]  # the schema before challenges could be starting
    old = await Database.open(db_path, migrations=before)

    def three_then_one_gone(tx: Transaction) -> None:
        for _ in range(3):
            tx.execute(
                "INSERT INTO challenges (channel_id, challenger_id, invitee_ids_json, game, "
                "status, created_at, expires_at) VALUES (1, 2, '[3]', 'ur', 'declined', ?, ?)",
                (T0, EXPIRES),
            )
        tx.execute("DELETE FROM challenges WHERE id = 3")

    await old.write(three_then_one_gone)
    await old.close()
    db = await Database.open(db_path)
    try:
        kept = [await load_challenge(db, i) for i in (1, 2)]
        assert [(c.id, c.status, c.rematch_of) for c in kept if c] == [
            (1, "declined", None),
            (2, "declined", None),
        ]
        # AUTOINCREMENT survives the rebuild: id 3 was used once and is not handed out again.
        assert (await challenge(db)).id == 4
        assert await rows(db, "PRAGMA foreign_key_check") == []
    finally:
        await db.close()
