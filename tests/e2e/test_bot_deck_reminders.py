"""The daily training reminder through the fake Discord: turned on with /prefs, sent by DM
once a day (the fake's clock moved a day at a time, no waiting); a person whose DMs are
closed to the bot (``fake.close_dms``: Discord answers 403, error 50007) is tried exactly
once, noted, never tried again on the following days, and /prefs tells them why."""

from __future__ import annotations

import json

from bot.games.puzzles import load_set
from bot.storage import deck as deck_store
from sandbox.fake_model import Message, User
from sandbox.fake_rest import RequestRecord
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.members import wait_ephemeral
from tests.driver.timeouts import STEP_TIMEOUT

pytestmark = module_marks(timeout=120)

# The reminder sweep runs every 0.2 s (real time); the days are the fake's clock's.
env = module_bot("deck-reminders", {"PUZZLE_SWEEP_SECONDS": "0.2", "EXPERT_WORKERS": "0"})

DAY = 86_400.0
REMINDER = "card of your training deck is due"
MESSAGES = "/channels/{channel_id}/messages"


def dm_channel_ids(env: BotEnv, user: User) -> set[int]:
    return {c.id for c in env.fake.world.channels.values() if c.is_dm and c.recipient_id == user.id}


def direct_messages(env: BotEnv, user: User) -> list[Message]:
    return [m for c in sorted(dm_channel_ids(env, user)) for m in env.fake.messages(c)]


def dm_posts(env: BotEnv, user: User) -> list[RequestRecord]:
    """Every message the bot tried to send to ``user``'s DM channel, answered or refused."""
    paths = {f"/channels/{c}/messages" for c in dm_channel_ids(env, user)}
    return [r for r in env.fake.find_requests("POST", MESSAGES) if r.path in paths]


async def seed_card(env: BotEnv, user: User, game_id: str) -> None:
    """One card in ``user``'s deck, due now: a position of the built-in Ur puzzles, as a
    review's costly move is stored."""
    puzzle = load_set("ur")[0]
    card = deck_store.NewCard(
        user.id, game_id, 7, "ur", puzzle.seat, json.dumps({"puzzle": puzzle.to_json()}), 1
    )
    assert await deck_store.add_cards(await env.db(), [card], env.fake.wall_time()) == 1


async def prefs(env: BotEnv, user: User, options: dict[str, str]) -> str:
    asked = await env.fake.slash(user, "prefs", options, channel=await env.channel("prefs"))
    return await wait_ephemeral(env, asked)


async def test_a_closed_dm_is_tried_once_and_prefs_says_why(env: BotEnv) -> None:
    # ben is made first: each sweep comes to him before ann (by id), so ann's reminder of a
    # day says that day's sweep is past ben.
    ben = env.fake.close_dms(await env.member("ben"))
    ann = await env.member("ann")
    await seed_card(env, ben, "be000001")
    await seed_card(env, ann, "a0000001")
    stored = await env.db()

    assert "Daily training reminder by DM: on." in await prefs(env, ben, {"train_reminder": "on"})
    assert "Daily training reminder by DM: on." in await prefs(env, ann, {"train_reminder": "on"})

    # Today: ann hears by DM; ben's DM channel opens, the message is refused (50007), noted.
    await env.fake.wait_for(
        lambda: len(direct_messages(env, ann)) == 1, STEP_TIMEOUT, what="ann's first reminder"
    )
    (first,) = direct_messages(env, ann)
    assert "1 card of your training deck is due: `/train`" in first.content
    refused = await env.fake.wait_for(
        lambda: dm_posts(env, ben), STEP_TIMEOUT, what="the attempt at ben's DM"
    )
    assert [(r.status, r.json["content"]) for r in refused] == [
        (403, "🧠 1 card of your training deck is due: `/train` to practise it.")
    ]
    assert direct_messages(env, ben) == []
    assert await deck_store.closed_at(stored, ben.id) is not None
    assert await deck_store.closed_at(stored, ann.id) is None

    # The next days: ann is reminded each day, ben is never tried again.
    for day in (2, 3):
        env.fake.advance(DAY)
        await env.fake.wait_for(
            lambda n=day: len(direct_messages(env, ann)) == n,
            STEP_TIMEOUT,
            what=f"ann's reminder of day {day}",
        )
        assert all(REMINDER in m.content for m in direct_messages(env, ann))
        assert len(dm_posts(env, ben)) == 1
    opened = [
        r
        for r in env.fake.find_requests("POST", "/users/@me/channels")
        if r.json["recipient_id"] == str(ben.id)
    ]
    assert len(opened) == 1
    assert [r.status for r in dm_posts(env, ben)] == [403]

    # /prefs tells ben why the reminders stopped (and ann that hers are on).
    told = await prefs(env, ben, {})
    assert "stopped, because your direct messages are closed to me" in told, told
    assert "Daily training reminder by DM: on." in await prefs(env, ann, {})
