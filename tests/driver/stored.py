"""The bot's database read back by the test (``bot.storage``, as the bot reads it): a game's
row, its action log and results, and waits for the bot to store or draw a version."""

from __future__ import annotations

import asyncio
import time

from bot import storage as store
from tests.driver.boards import Board, read_board
from tests.driver.bots import BotEnv
from tests.driver.timeouts import STEP_TIMEOUT


async def game_row(env: BotEnv, game_id: str) -> store.GameRow:
    row = await store.load_game(await env.db(), game_id)
    assert row is not None, f"no game {game_id} in the database"
    return row


async def action_log(env: BotEnv, game_id: str) -> list[store.ActionRow]:
    return await store.load_actions(await env.db(), game_id)


async def results_of(env: BotEnv, row: store.GameRow) -> list[store.ResultRow]:
    return await store.results_of_game(await env.db(), row.id)


async def wait_board_current(env: BotEnv, game_id: str, timeout: float = 30.0) -> Board:  # noqa: ASYNC109
    """Wait until the game's board message shows the stored version (after a restart the bot
    redraws only the boards that are behind); returns that board."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        row = await game_row(env, game_id)
        message = env.fake.world.messages.get(row.message_id or 0)
        board = read_board(message) if message is not None and not message.deleted else None
        if board is not None and board.version == row.version:
            return board
        if loop.time() > deadline:
            raise AssertionError(f"the board of game {game_id} never showed move {row.version}")
        await asyncio.sleep(0.05)


async def wait_stored_version(env: BotEnv, game_id: str, version: int) -> store.GameRow:
    """Poll until the game reaches ``version`` in the database."""
    deadline = time.monotonic() + STEP_TIMEOUT
    while True:
        row = await game_row(env, game_id)
        if row.version >= version or time.monotonic() > deadline:
            return row
        await asyncio.sleep(0.05)
