"""Open challenges: ``/challenge game`` without an opponent posts an invitation anyone may
Join. Joining is the same exactly-once transition as an Accept: of two people clicking Join at
once one plays and the other is told the game is taken. A Ludo table fills its seats with each
Join and starts with its creator's Start (the bot plays the empty seats); ``rating_range``
keeps out whoever is outside it."""

from __future__ import annotations

from typing import Any

from bot import storage as store
from sandbox.fake_model import Channel, Message, User
from tests.driver.boards import as_shown
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.members import answer, ephemeral_text, parse_link, wait_ephemeral
from tests.driver.player import Table
from tests.driver.timeouts import STEP_TIMEOUT

pytestmark = module_marks(timeout=180)

env = module_bot("open-challenges")

TAKEN = "already taken"


async def open_invitation(
    env: BotEnv, creator: User, channel: Channel, game: str, **options: Any
) -> Message:
    command = await env.fake.slash(creator, "challenge", {"game": game, **options}, channel=channel)
    response = await answer(env, command)
    assert not response.ephemeral, ephemeral_text(env, command)
    assert response.original is not None
    return response.original


def button(message: Message, token: str) -> str:
    return next(c for c in message.custom_ids() if c.endswith(f":{token}"))


async def challenge_row(env: BotEnv, custom_id: str) -> store.ChallengeRow:
    row = await store.load_challenge(await env.db(), int(custom_id.split(":")[2]))
    assert row is not None
    return row


async def started(env: BotEnv, invitation: Message) -> int:
    """The game's channel, once the invitation says the game is on (and has no buttons)."""
    await env.fake.wait_for(
        lambda: "Challenge accepted" in env.fake.message(invitation).content,
        STEP_TIMEOUT,
        what="the invitation to say the game is on",
    )
    assert env.fake.message(invitation).custom_ids() == []
    return parse_link(env.fake.message(invitation).content)[0]


async def test_two_joiners_at_once_get_one_game_and_one_already_taken(env: BotEnv) -> None:
    ann, ben, cat = [await env.member(n) for n in ("ann-open", "ben-open", "cat-open")]
    channel = await env.channel("open-race")
    invitation = await open_invitation(env, ann, channel, "ur")
    assert "looking for an opponent for **Royal Game of Ur**" in invitation.content
    join = button(invitation, "join")

    own = await env.fake.click(ann, invitation, join)
    assert "your own invitation" in await wait_ephemeral(env, own)

    clicks = {user.name: await env.fake.click(user, invitation, join) for user in (ben, cat)}
    for click in clicks.values():
        await answer(env, click)
    channel_id = await started(env, invitation)
    replies = {name: ephemeral_text(env, click) for name, click in clicks.items()}
    winners = [name for name, reply in replies.items() if not reply]
    assert len(winners) == 1, replies
    loser = next(name for name in replies if name not in winners)
    assert TAKEN in replies[loser], replies

    joiner = ben if winners == [ben.name] else cat
    table = Table(env, channel_id, [ann, joiner])
    board = await table.wait_turn()
    row = await challenge_row(env, join)
    assert (row.status, row.game_id, row.accepted_ids) == (
        store.ChallengeStatus.ACCEPTED,
        board.game_id,
        (joiner.id,),
    )
    (game,) = await store.active_games_for_user(await env.db(), joiner.id)
    assert game.id == board.game_id and game.rated
    assert (
        await store.active_games_for_user(await env.db(), (cat if joiner is ben else ben).id) == []
    )
    late = await env.fake.click_stale(cat, invitation, join)
    assert "already" in await wait_ephemeral(env, late)


async def test_ludo_lobby_fills_seats_and_starts_with_its_creator(env: BotEnv) -> None:
    ann, ben, cat = [await env.member(n) for n in ("ann-lobby", "ben-lobby", "cat-lobby")]
    channel = await env.channel("lobby")
    invitation = await open_invitation(env, ann, channel, "ludo")
    # The creator holds a seat from the start, and the table names the game by its title.
    assert f"(seated so far: <@{ann.id}>)" in invitation.content
    assert "**Ludo**" in invitation.content
    join, start = button(invitation, "join"), button(invitation, "start")

    await answer(env, await env.fake.click(ben, invitation, join))
    await env.fake.wait_for(
        lambda: ben.name in as_shown(env.fake.message(invitation).content),
        STEP_TIMEOUT,
        what="the lobby to show who sits there",
    )
    again = await env.fake.click(ben, invitation, join)
    assert "joined already" in await wait_ephemeral(env, again)
    own = await env.fake.click(ann, invitation, join)
    assert "Start begins the game" in await wait_ephemeral(env, own)  # not "wait"
    not_theirs = await env.fake.click(cat, invitation, start)
    assert "Only the one who opened" in await wait_ephemeral(env, not_theirs)
    assert (await challenge_row(env, join)).status == store.ChallengeStatus.PENDING

    await answer(env, await env.fake.click(ann, invitation, start))
    channel_id = await started(env, invitation)
    table = Table(env, channel_id, [ann, ben])
    board = await table.wait_turn()
    row = await store.load_game(await env.db(), board.game_id)
    assert row is not None
    people = sorted((s.seat, s.user_id) for s in row.seats if s.user_id is not None)
    assert people == [(0, ann.id), (1, ben.id)]
    assert sum(1 for s in row.seats if s.user_id is None) == 2, "the bot plays the empty seats"


async def test_rating_range_keeps_out_whoever_is_outside_it(env: BotEnv) -> None:
    ann, ben = await env.member("ann-range"), await env.member("ben-range")
    channel = await env.channel("range")
    bad = await env.fake.slash(
        ann, "challenge", {"game": "ur", "rating_range": "high"}, channel=channel
    )
    assert "not a rating range" in await wait_ephemeral(env, bad)
    invitation = await open_invitation(env, ann, channel, "ur", rating_range="1600-")
    assert "for ratings 1600–…" in invitation.content
    join = button(invitation, "join")
    refused = await env.fake.click(ben, invitation, join)
    assert "outside the range" in await wait_ephemeral(env, refused)
    assert (await challenge_row(env, join)).accepted_ids == ()

    welcome = await open_invitation(env, ann, channel, "ur", rating_range="1000-1600")
    await answer(env, await env.fake.click(ben, welcome, button(welcome, "join")))
    await started(env, welcome)
