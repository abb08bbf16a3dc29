"""A turn's "ran out of time" notice is posted once, also across a restart of the bot: the
claim is stored before the notice is posted (it used to live in memory, so the restarted
process posted it again).

The turn's time passes on the bot's clock (``FakeDiscord.advance``): the test waits for the
sweeps' notices, never for the time itself."""

from __future__ import annotations

from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.player import Table
from tests.driver.starts import start_by_challenge
from tests.driver.timeouts import STEP_TIMEOUT

pytestmark = module_marks(timeout=120, process=True)

# Under an interaction token's 15 minutes: the clock moves right after a click's answer,
# while the bot may still be finishing it through the click's token.
TIMEOUT_SECONDS = 600
SWEEP_SECONDS = 0.3


env = module_bot(
    "notices",
    {"TURN_TIMEOUT_SECONDS": str(TIMEOUT_SECONDS), "CLOCK_SWEEP_SECONDS": str(SWEEP_SECONDS)},
    process=True,
)


def notices(env: BotEnv, table: Table) -> list[str]:
    return [
        m.content for m in env.fake.messages(table.channel_id) if "ran out of time" in m.content
    ]


async def test_the_time_out_notice_is_posted_once_across_a_restart(env: BotEnv) -> None:
    ann, bob = await env.member("ann"), await env.member("bob")
    table = await start_by_challenge(env, ann, [bob], await env.channel("slow"), "ur")
    env.fake.advance(TIMEOUT_SECONDS + 1)
    await env.fake.wait_for(lambda: notices(env, table), STEP_TIMEOUT, what="the time-out notice")
    await env.restart()  # SIGKILL and start again: the turn is still overdue
    # Another game runs out of time after the restart: once its notice is there, the new
    # process has swept the overdue turns (the first game's, most overdue, first of all).
    cy, dee = await env.member("cy"), await env.member("dee")
    later = await start_by_challenge(env, cy, [dee], await env.channel("later"), "ur")
    env.fake.advance(TIMEOUT_SECONDS + 1)
    await env.fake.wait_for(
        lambda: notices(env, later), STEP_TIMEOUT, what="the later game's time-out notice"
    )
    assert len(notices(env, table)) == 1, notices(env, table)
    assert len(notices(env, later)) == 1, notices(env, later)
