"""A DM game whose AI seat was on turn when the bot restarted: no interaction is left to show
the AI's moves (the bot token is refused there), so the board offers Continue, and that
click's interaction carries the game on (issue 32)."""

from __future__ import annotations

import asyncio
import random

from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.members import answer
from tests.driver.starts import start_by_play
from tests.driver.timeouts import STEP_TIMEOUT
from tests.e2e.test_bot_group_dm import bot_token_requests

pytestmark = module_marks(timeout=180, process=True)

# Long enough to kill the bot between a person's move and the AI's answer.
env = module_bot("group_dm_restart", {"AI_MOVE_DELAY_SECONDS": "2.5"}, process=True)


async def test_a_dm_game_whose_ai_waited_through_a_restart_goes_on_with_continue(
    env: BotEnv,
) -> None:
    hal, ida = await env.member("hal"), await env.member("ida")
    chat = await env.fake.group_dm([hal, ida])
    table = await start_by_play(env, hal, chat, "ur")
    board = await table.wait_turn()
    rng = random.Random(3)
    for _ in range(60):
        click = await table.click(board, table.choose(board, rng))
        assert click.refusal is None, click.refusal
        current = table.current()
        if current is not None and "continue" in current.tokens:
            break
        board = await table.wait_turn(click.version)
    else:
        raise AssertionError("the AI never came on turn")
    waiting = current
    await env.restart()
    await asyncio.sleep(1.0)
    again = table.current()
    assert again is not None and again.version == waiting.version, "the AI moved without a click"
    assert "continue" in again.tokens
    go_on = await env.fake.click(ida, again.message, again.custom_id("continue"))
    await answer(env, go_on, STEP_TIMEOUT)
    after = await table.wait_turn(waiting.version)
    assert after.version > waiting.version
    assert bot_token_requests(env, chat) == []
