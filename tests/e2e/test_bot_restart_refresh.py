"""At start-up the bot redraws only the boards that are behind their stored game, the longest
waiting first: a restart with many games must not spend Discord's rate limits on boards that
are already right."""

from __future__ import annotations

import asyncio
import random
import time

from tests.driver.bots import BotEnv, module_bot, module_marks, settle_quietly, start_and_wait_ready
from tests.driver.player import Table
from tests.driver.starts import start_by_play
from tests.driver.stored import game_row, wait_board_current

pytestmark = module_marks(timeout=180, process=True)


env = module_bot("refresh", process=True)


async def wait_marked(env: BotEnv, game_id: str) -> None:
    """Until the bot has recorded that the game's board shows its stored version."""
    for _ in range(200):
        row = await game_row(env, game_id)
        if row.shown_version == row.version:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"game {game_id}: shown version never recorded")


async def test_only_boards_behind_are_redrawn_oldest_click_first(env: BotEnv) -> None:
    tables: list[Table] = []
    for index in range(4):
        player = await env.member(f"refresh-{index}")
        tables.append(await start_by_play(env, player, await env.channel(f"refresh-{index}"), "ur"))
    boards = [await t.wait_turn() for t in tables]
    for board in boards:
        await wait_marked(env, board.game_id)

    # Games 2 and 0 (in that order) make a move whose board Discord refuses to show: they
    # fall behind. Games 1 and 3 stay as they are.
    rng = random.Random(18)
    for index in (2, 0):
        table, board = tables[index], boards[index]
        env.fake.rest.fail_next("PATCH", rf"/channels/{table.channel_id}/", 503, count=50)
        env.fake.rest.fail_next("POST", rf"/channels/{table.channel_id}/", 503, count=50)
        # The click's boards go through its interaction (@original edits, followups):
        # refused too, so the player's note that the move was saved is refused with them.
        # (A 400: discord.py's webhook client retries a 5xx for 25 s before it gives up.)
        env.fake.rest.fail_next("PATCH", r"/webhooks/", 400, count=50)
        env.fake.rest.fail_next("POST", r"/webhooks/", 400, count=50)
        click = await table.click(board, table.choose(board, rng), wait=False)
        await env.fake.response_of(click.interaction, settled=False)
        await settle_quietly(env)  # the click and the AI's answer to it are stored
        await asyncio.sleep(0.05)  # distinct update times: 2 is older than 0
    behind = {boards[i].game_id for i in (2, 0)}
    for board in boards:
        row = await game_row(env, board.game_id)
        assert (row.shown_version != row.version) == (board.game_id in behind)
    env.fake.rest.faults.clear()

    await env.bot.kill()
    since = time.monotonic()
    await start_and_wait_ready(env.bot)

    for board in boards:
        await wait_board_current(env, board.game_id)
    redrawn = [
        r.path
        for r in env.fake.requests
        if r.at >= since and r.method in ("PATCH", "POST") and "/channels/" in r.path
    ]
    touched = [
        index
        for path in redrawn
        for index, table in enumerate(tables)
        if f"/channels/{table.channel_id}/" in path
    ]
    assert touched, redrawn
    # Only the two boards behind, the one that waited longest first.
    assert set(touched) == {0, 2}, touched
    started = [
        line.rsplit(" ", 1)[-1]
        for line in env.bot.output().splitlines()
        if "start-up: redrawing the board of game" in line
    ]
    assert started[-2:] == [boards[2].game_id, boards[0].game_id], started
    for board in boards:
        row = await game_row(env, board.game_id)
        await wait_marked(env, board.game_id)
        assert row.status == "active"
