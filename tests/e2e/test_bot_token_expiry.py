"""An interaction token that Discord no longer takes (aged past 15 minutes on Discord's side
only, the bot's clock unmoved: ``FakeDiscord.age_interactions``) is given up for the bot
token, and the game goes on. A module of its own: aging the interactions ages every one the
module's bot still holds, which the budget tests (tests/e2e/test_bot_token_budget.py) must
not inherit.
"""

from __future__ import annotations

import random
import time

from tests.driver.bots import BotEnv, module_bot, module_marks, problems_in_log, settle_quietly
from tests.driver.starts import start_by_play
from tests.driver.stored import wait_board_current
from tests.driver.timeouts import STEP_TIMEOUT
from tests.driver.traffic import bot_token_requests, describe

pytestmark = module_marks(timeout=420)

TOKEN_LIFETIME = 15 * 60
env = module_bot("token-expiry")


async def test_an_expired_token_is_given_up_for_the_bot_token(env: BotEnv) -> None:
    """A click whose token Discord no longer takes (aged past 15 minutes on Discord's side
    right after its acknowledgement): its board and the AI's move after it come through the
    bot token, and the next click goes through its own interaction again."""
    fake = env.fake
    player = await env.member("late-player")
    table = await start_by_play(env, player, await env.channel("late"), "ur")
    board = await table.wait_turn()
    token = "roll" if "roll" in board.tokens else board.tokens[0]
    since = time.monotonic()
    click = await fake.click(player, board.message, board.custom_id(token))
    # Woken by the callback itself, before the bot has its answer: the bot's @original edit
    # can only come after this.
    await fake.wait_for(lambda: click.acked, STEP_TIMEOUT, what="the acknowledgement")
    fake.age_interactions(TOKEN_LIFETIME + 60)
    after = await table.wait_turn(board.version)
    current = await wait_board_current(env, after.game_id)
    assert current.version >= after.version
    refused = [
        r for r in fake.requests if r.at >= since and r.budget == "interaction" and r.status == 401
    ]
    assert refused, "the aged token was never tried"
    spent = bot_token_requests(env, since)
    assert any(r.method == "PATCH" and r.route.startswith("/channels/") for r in spent), describe(
        spent
    )

    # The next click has a token of its own: nothing through the bot token.
    await settle_quietly(env)
    since = time.monotonic()
    nxt = await table.click(after, table.choose(after, random.Random(3)))
    assert nxt.refusal is None
    await table.wait_turn(nxt.version)
    await settle_quietly(env)
    spent = bot_token_requests(env, since)
    assert spent == [], describe(spent)
    assert table.game_id is not None
    await wait_board_current(env, table.game_id)
    assert problems_in_log(env.bot) == []
