"""Games in people's own group DMs through the app a user installed on their account (issue
32): the bot is no member there, so every request goes through the interactions (the fake
refuses the bot token on such a channel), at most 5 followups each; a game idle for longer
than a token lives goes on with the next click."""

from __future__ import annotations

import random

import aiohttp

from sandbox.fake_limits import BOT_TOKEN
from sandbox.fake_model import Channel, walk_components
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.starts import start_by_challenge, start_by_play
from tests.driver.stored import game_row
from tests.e2e.discord_spec import RAW_TEST_AGENT

pytestmark = module_marks(timeout=240)

env = module_bot("group_dm")

USER_INSTALL_COMMANDS = ("play", "challenge", "rules", "help", "stats", "games")


def bot_token_requests(env: BotEnv, channel: Channel) -> list[str]:
    """The bot's own bot-token requests about ``channel`` (the fake's traffic counters and
    its request log must agree: none)."""
    counted = env.fake.traffic.report().channel_requests.get(channel.id, 0)
    logged = [
        f"{r.method} {r.path} -> {r.status}"
        for r in env.fake.requests
        if r.budget == BOT_TOKEN
        and str(channel.id) in r.path
        and not r.user_agent.startswith(RAW_TEST_AGENT)
    ]
    assert counted == len(logged), (counted, logged)
    return logged


def check_followup_limit(env: BotEnv, channel: Channel) -> None:
    """Discord's 5 followups per interaction where the app is no member: never reached."""
    here = [ix for ix in env.fake.interactions if ix.channel_id == channel.id]
    assert here and all(ix.context == 2 for ix in here)
    assert max(len(ix.followup_ids) for ix in here) <= 5
    tokens = {ix.token for ix in here}
    refused = [
        r
        for r in env.fake.requests
        if r.route.startswith("/webhooks/")
        and r.status >= 400
        and not r.user_agent.startswith(RAW_TEST_AGENT)
        and any(token in r.path for token in tokens)
    ]
    assert not refused, [(r.method, r.path, r.status) for r in refused]


async def test_play_and_challenge_are_offered_to_user_installs_everywhere(env: BotEnv) -> None:
    synced = env.fake.commands() or env.fake.commands(env.fake.guild)
    bodies = {c.name: c.payload() for c in synced}
    for name in USER_INSTALL_COMMANDS:
        assert sorted(bodies[name]["integration_types"]) == [0, 1], name
        assert sorted(bodies[name]["contexts"]) == [0, 1, 2], name


async def test_the_bot_token_is_refused_in_a_group_dm(env: BotEnv) -> None:
    ann, ben = await env.member("ann0"), await env.member("ben0")
    chat = await env.fake.group_dm([ann, ben])
    headers = {"Authorization": f"Bot {env.fake.token}", "User-Agent": RAW_TEST_AGENT}
    async with aiohttp.ClientSession(base_url=env.fake.base_url, headers=headers) as http:
        async with http.get(f"/api/v10/channels/{chat.id}") as response:
            assert response.status == 403
            assert (await response.json())["code"] == 50001  # Missing Access
        async with http.post(
            f"/api/v10/channels/{chat.id}/messages", json={"content": "hi"}
        ) as response:
            assert response.status == 403


async def test_a_whole_game_in_a_group_dm_goes_through_interactions_only(env: BotEnv) -> None:
    ann, ben = await env.member("ann"), await env.member("ben")
    chat = await env.fake.group_dm([ann, ben])
    table = await start_by_challenge(env, ann, [ben], chat, "ur")
    board = await table.wait_turn()
    assert "only when someone clicks" in board.message.text
    # No reminders, no notices here: the Claim button is on the board from the start, and
    # refused while the player on turn still has time.
    assert "claim" in board.tokens
    waiting = ben if table.player_on_turn(board).id == ann.id else ann
    early = await table.click(board, "claim", waiting)
    assert early.refusal is not None and "still has time" in early.refusal
    last = await table.play(random.Random(32))
    assert last.finished
    # Each turn change was a followup of the click, naming (pinging) the next player.
    shown = [
        str(c.get("content") or "")
        for m in env.fake.world.messages.values()
        if m.channel_id == chat.id and m.interaction_id is not None
        for state in [*m.versions, m.snapshot()]
        for c in walk_components(state["components"])
        if c.get("type") == 10
    ]
    pinged = {u.id for u in (ann, ben) if any(f"<@{u.id}>" in text for text in shown)}
    assert {ann.id, ben.id} <= pinged
    assert bot_token_requests(env, chat) == []
    check_followup_limit(env, chat)
    assert not (await game_row(env, last.game_id)).rated  # no rated:yes: unrated in DMs


async def test_a_game_goes_on_with_a_click_after_twenty_minutes(env: BotEnv) -> None:
    cy, dee = await env.member("cy"), await env.member("dee")
    chat = await env.fake.group_dm([cy, dee])
    table = await start_by_play(env, cy, chat, "ur")
    board = await table.wait_turn()
    rng = random.Random(7)
    click = await table.click(board, table.choose(board, rng))
    assert click.refusal is None
    board = await table.wait_turn(click.version)
    # Every interaction of the game is older than its 15 minutes now.
    env.fake.advance(1200)
    click = await table.click(board, table.choose(board, rng))
    assert click.refusal is None, click.refusal
    after = await table.wait_turn(click.version)
    assert after.version > board.version
    assert bot_token_requests(env, chat) == []
    check_followup_limit(env, chat)


async def test_a_dm_challenge_with_rated_yes_is_rated_once_accepted(env: BotEnv) -> None:
    eve, fin = await env.member("eve"), await env.member("fin")
    chat = await env.fake.group_dm([eve, fin])
    table = await start_by_challenge(env, eve, [fin], chat, "ur", {"rated": "yes"})
    board = await table.wait_turn()
    assert (await game_row(env, board.game_id)).rated
    assert bot_token_requests(env, chat) == []


async def test_an_interaction_in_a_group_dm_takes_five_followups_at_most(env: BotEnv) -> None:
    gus = await env.member("gus")
    chat = await env.fake.group_dm([gus])
    asked = await env.fake.slash(gus, "rules", {"game": "ur"}, channel=chat)
    reply = await env.fake.response_of(asked)
    assert reply.original is not None and "Ur" in reply.original.text
    assert asked.payload["context"] == 2 and "guild_id" not in asked.payload
    assert asked.payload["authorizing_integration_owners"] == {"1": str(gus.id)}
    hook = f"/api/v10/webhooks/{env.fake.application_id}/{asked.token}"
    headers = {"User-Agent": RAW_TEST_AGENT}
    statuses = []
    async with aiohttp.ClientSession(base_url=env.fake.base_url, headers=headers) as http:
        for number in range(6):
            body = {"content": f"followup {number}", "flags": 64}
            async with http.post(hook, json=body) as response:
                statuses.append((response.status, (await response.json(content_type=None) or {})))
    assert [s for s, _ in statuses[:5]] == [204] * 5, statuses
    status, error = statuses[5]
    assert status == 400 and error["code"] == 40094, statuses
