"""Discord refuses to show boards for a while (an outage of its API for the bot's channel): the
moves are stored all the same, the AI plays on, and once Discord answers again the resume
sweep redraws the board that fell behind, so the person plays on without typing /board."""

from __future__ import annotations

import asyncio
import random
import time

from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.starts import start_by_play
from tests.driver.stored import game_row

pytestmark = module_marks(timeout=120)

env = module_bot("discord-outage", {"RESUME_SWEEP_SECONDS": "1"})

OUTAGE_SECONDS = 3.0
RECOVERY_LIMIT = 10.0


async def test_a_board_behind_after_a_discord_outage_is_redrawn_by_itself(env: BotEnv) -> None:
    player = await env.member("olga")
    table = await start_by_play(env, player, await env.channel("outage"), "ur")
    board = await table.wait_turn()
    channel = rf"/channels/{table.channel_id}/"
    env.fake.rest.fail_next("PATCH", channel, 403, count=1000)
    env.fake.rest.fail_next("POST", channel, 403, count=1000)
    # Boards after a click go through its interaction: its webhook fails too, so nothing but
    # the acknowledgement gets through (not even the ephemeral "was made and saved").
    env.fake.rest.fail_next("PATCH", r"^/webhooks/", 403, count=1000)
    env.fake.rest.fail_next("POST", r"^/webhooks/", 403, count=1000)
    await table.click(board, table.choose(board, random.Random(3)), wait=False)
    await asyncio.sleep(OUTAGE_SECONDS)  # the AI moves meanwhile; no board shows it
    row = await game_row(env, board.game_id)
    assert row.version > board.version and row.shown_version != row.version
    env.fake.rest.faults.clear()
    back = time.monotonic()
    await table.wait_turn(board.version, timeout=RECOVERY_LIMIT)  # nobody typed /board
    print(f"\nboard current again {time.monotonic() - back:.1f} s after Discord's return")
    assert "resume: redrawing the board of game" in env.bot.output()
    assert "board" not in {i.name for i in env.fake.interactions}
