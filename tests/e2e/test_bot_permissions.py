"""Channels where the bot lacks permissions: without thread creation the game is played in the
channel itself; without what a board needs (attach files, ...) nothing starts and the user is
told what to grant."""

from __future__ import annotations

import random

import pytest

from bot import storage as store
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.members import ack_seconds, answer, parse_link, wait_ephemeral
from tests.driver.player import Table
from tests.driver.starts import start_by_challenge
from tests.driver.stored import game_row
from tests.driver.timeouts import ACK_LIMIT
from tests.storage.helpers import pending_challenges

pytestmark = module_marks(timeout=90)


env = module_bot("permissions")


async def test_without_thread_permission_play_happens_in_the_channel(env: BotEnv) -> None:
    channel = await env.channel("no-threads")
    await env.fake.set_permissions(channel, deny="create_public_threads")
    ann = await env.member("ann")
    command = await env.fake.slash(ann, "play", {"game": "ur"}, channel=channel)
    reply = await answer(env, command)
    assert "ready" in reply.text
    assert parse_link(reply.text)[0] == channel.id
    assert env.fake.threads(channel) == []

    table = Table(env, channel.id, [ann])
    board = await table.wait_turn()
    row = await game_row(env, board.game_id)
    assert (row.channel_id, row.parent_channel_id) == (channel.id, None)
    board = await table.play(random.Random(2), until_clicks=4)
    assert not board.finished

    # The channel holds one game at a time: the next one is refused, nothing is created.
    ben = await env.member("ben")
    active = len(await store.active_games(await env.db()))
    second = await env.fake.slash(ben, "play", {"game": "ludo"}, channel=channel)
    assert "already has a game in progress" in await wait_ephemeral(env, second)
    invite = await env.fake.slash(
        ben, "challenge", {"game": "ur", "opponent": ann}, channel=channel
    )
    assert "already has a game in progress" in await wait_ephemeral(env, invite)
    assert len(await store.active_games(await env.db())) == active
    assert await pending_challenges(await env.db()) == []


async def test_without_thread_permission_a_challenge_is_played_in_the_channel(
    env: BotEnv,
) -> None:
    channel = await env.channel("no-threads-duel")
    await env.fake.set_permissions(channel, deny="create_public_threads")
    cleo, dan = await env.member("cleo"), await env.member("dan")
    table = await start_by_challenge(env, cleo, [dan], channel, "ur")
    assert table.channel_id == channel.id
    assert env.fake.threads(channel) == []
    board = await table.play(random.Random(3), until_clicks=6)
    row = await game_row(env, board.game_id)
    assert row.channel_id == channel.id


@pytest.mark.parametrize("denied", ["attach_files", "embed_links", "send_messages"])
@pytest.mark.parametrize("command", ["play", "challenge"])
async def test_without_what_a_board_needs_nothing_starts(
    env: BotEnv, command: str, denied: str
) -> None:
    channel = await env.channel(f"no-{denied}-{command}")
    await env.fake.set_permissions(channel, deny=denied)
    user = await env.member(f"{command}-{denied}")
    db = await env.db()
    games_before = len(await store.active_games(db))
    options: dict[str, object] = {"game": "ur"}
    if command == "challenge":
        options["opponent"] = await env.member(f"{command}-{denied}-guest")
    interaction = await env.fake.slash(user, command, options, channel=channel)
    text = await wait_ephemeral(env, interaction)
    assert "missing these permissions" in text and denied in text, text
    assert ack_seconds(interaction) < ACK_LIMIT
    assert len(await store.active_games(db)) == games_before
    assert await pending_challenges(db) == []
    assert env.fake.threads(channel) == []
    assert env.fake.messages(channel) == []
