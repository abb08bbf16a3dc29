"""The emulator behaves as Discord does where the sandbox showed it did not: heartbeats are
acknowledged after a round trip, and a click on a removed button reaches the bot."""

from __future__ import annotations

import json
import time
from pathlib import Path

import aiohttp
import pytest

from sandbox.fake_discord import FakeDiscord
from sandbox.fake_gateway import HEARTBEAT_ACK_DELAY
from sandbox.fake_model import User
from sandbox.page_api import PageApi
from sandbox.page_view import BotStatus
from tests.driver.bots import BotEnv, bot_process, start_and_wait_ready
from tests.driver.members import wait_ephemeral
from tests.driver.player import Table
from tests.driver.starts import start_by_play

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60)]


async def test_a_heartbeat_is_acknowledged_after_a_round_trip() -> None:
    """discord.py notes a heartbeat as sent in its keep-alive thread after the send returns;
    an ACK that beats it there made the bot log "Can't keep up, websocket is 41.3s behind"
    (the time since the beat before) at every heartbeat, idle or not."""
    async with (
        FakeDiscord() as fake,
        aiohttp.ClientSession() as session,
        session.ws_connect(fake.gateway_url) as ws,
    ):
        hello = json.loads((await ws.receive()).data)
        assert hello["op"] == 10
        for _ in range(2):
            sent = time.monotonic()
            await ws.send_str(json.dumps({"op": 1, "d": None}))
            ack = json.loads((await ws.receive(timeout=5)).data)
            assert ack["op"] == 11
            assert time.monotonic() - sent >= HEARTBEAT_ACK_DELAY * 0.9


async def test_the_page_forwards_a_click_on_a_removed_button(tmp_path: Path) -> None:
    """A page drawn before the bot took a board's buttons away sends their click; Discord
    delivers it, and the bot says the board is out of date (the page showed the emulator's
    own "no component ... on message" error instead)."""
    fake = FakeDiscord()
    members: list[User] = []
    page = PageApi(fake, members, BotStatus())
    fake.route_installers.append(page.install)
    async with fake:
        bot = bot_process(fake, tmp_path)
        try:
            await start_and_wait_ready(bot)
            ben = await fake.add_member("ben")
            members.append(ben)
            env = BotEnv(fake, bot, tmp_path)
            table = await new_table_for(env, ben)
            board = await table.wait_turn()
            old = board.custom_id(board.tokens[0])
            click = await table.click(board, board.tokens[0])
            assert click.applied, click.refusal
            await fake.wait_for(lambda: old not in fake.message(board.message).custom_ids(), 10)
            async with aiohttp.ClientSession() as session:
                sent = await session.post(
                    f"{fake.base_url}/sandbox/click",
                    json={
                        "member": str(ben.id),
                        "message": str(board.message.id),
                        "custom_id": old,
                    },
                )
                assert sent.status == 200, await sent.text()
                assert (await sent.json())["ok"] is True
            (stale,) = [i for i in fake.world.interactions.values() if i.name == old][-1:]
            reply = await wait_ephemeral(env, stale)
            assert "out of date" in reply or "over" in reply, reply
        finally:
            await bot.kill()


async def new_table_for(env: BotEnv, user: User) -> Table:
    return await start_by_play(env, user, await env.channel("stale-page"), "ur")
