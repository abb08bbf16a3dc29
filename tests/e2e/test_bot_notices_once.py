"""A turn's "ran out of time" notice is posted once, also across a restart of the bot: the
claim is stored before the notice is posted (it used to live in memory, so the restarted
process posted it again)."""

from __future__ import annotations

import asyncio

from tests.e2e.bot_helpers import (
    STEP_TIMEOUT,
    BotEnv,
    module_bot,
    module_marks,
    start_by_challenge,
)

pytestmark = module_marks(timeout=120, process=True)

TIMEOUT_SECONDS = 5
SWEEP_SECONDS = 0.3


env = module_bot(
    "notices",
    {"TURN_TIMEOUT_SECONDS": str(TIMEOUT_SECONDS), "CLOCK_SWEEP_SECONDS": str(SWEEP_SECONDS)},
    process=True,
)


async def test_the_time_out_notice_is_posted_once_across_a_restart(env: BotEnv) -> None:
    ann, bob = await env.member("ann"), await env.member("bob")
    table = await start_by_challenge(env, ann, [bob], await env.channel("slow"), "ur")

    def notices() -> list[str]:
        return [
            m.content for m in env.fake.messages(table.channel_id) if "ran out of time" in m.content
        ]

    await env.fake.wait_for(notices, TIMEOUT_SECONDS + STEP_TIMEOUT, what="the time-out notice")
    await env.restart()  # SIGKILL and start again: the turn is still overdue
    await asyncio.sleep(SWEEP_SECONDS * 10)  # many sweeps of the new process
    assert len(notices()) == 1, notices()
