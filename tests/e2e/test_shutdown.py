"""SIGTERM (``docker stop``) while a click is on its way: the bot finishes what it started,
exits 0, and leaves every game either fully moved on or untouched, never half-written."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from pathlib import Path

import pytest

from bot.health import check
from tests.driver.bots import BotEnv, module_bot, module_marks, start_and_wait_ready
from tests.driver.log_check import check_log, replay_log
from tests.driver.members import ephemeral_text
from tests.driver.player import Click, Table
from tests.driver.starts import start_by_play
from tests.driver.stored import action_log, game_row, wait_board_current

pytestmark = module_marks(timeout=120, process=True)

# The bot waits up to 10 s for in-flight clicks, then stops its parts and closes: a bound on
# a clean exit, not a wait (two copies of the suite at once took more than 15 s).
EXIT_GRACE = 30.0
REFRESH_TIMEOUT = 30.0
HEALTH_INTERVAL = 1
# Seconds between the click and SIGTERM; negative: SIGTERM first, then the click.
OFFSETS = (-0.001, 0.0, 0.001, 0.005, 0.02, 0.08, 0.25)


env = module_bot("shutdown", {"HEALTH_INTERVAL_SECONDS": str(HEALTH_INTERVAL)}, process=True)


def send_sigterm(env: BotEnv) -> None:
    """Synchronously, so nothing else runs in this process between the click and the signal."""
    assert env.bot.pid is not None and env.bot.running
    os.kill(env.bot.pid, signal.SIGTERM)


async def click_and_terminate(table: Table, offset: float) -> Click:
    board = await table.wait_turn()
    assert "roll" in board.tokens, board.tokens
    if offset < 0:
        send_sigterm(table.env)
        click = await table.click(board, "roll", wait=False)
    else:
        click = await table.click(board, "roll", wait=False)
        if offset:
            await asyncio.sleep(offset)
        send_sigterm(table.env)
    code = await table.env.bot.terminate(grace=EXIT_GRACE)
    assert code == 0, f"exit code {code}:\n{table.env.bot.output_tail()}"
    return click


@pytest.mark.parametrize("offset", OFFSETS)
async def test_sigterm_with_a_click_in_flight_applies_it_fully_or_not_at_all(
    env: BotEnv, offset: float
) -> None:
    if not env.bot.running:  # an earlier case failed before restarting it
        await start_and_wait_ready(env.bot)
    player = await env.member(f"term{OFFSETS.index(offset)}")
    await env.set_auto_roll(player, False)  # the click in flight is a roll
    table = await start_by_play(env, player, await env.channel(player.name), "ur")
    board = await table.wait_turn()
    before = await game_row(env, board.game_id)
    logged_before = await action_log(env, board.game_id)
    output_start = len(env.bot.output())

    click = await click_and_terminate(table, offset)

    after = await game_row(env, board.game_id)
    logged = await action_log(env, board.game_id)
    replay_log(after, logged)  # the log rebuilds the stored state exactly: nothing half-written
    assert after.action_count == len(logged)
    applied = after.version > before.version
    if applied:
        assert logged[: len(logged_before)] == logged_before
        assert logged[len(logged_before)].kind == "roll"
        assert logged[len(logged_before)].user_id == player.id
        # The bot waited for the click it had taken: answered it and redrew the board.
        acked = click.interaction.callback_at
        assert acked is not None, "an applied click was never acknowledged"
        assert any(t >= acked for t in board.message.edited_at), "the click was never shown"
    else:
        assert (after.version, after.state_json, logged) == (
            before.version,
            before.state_json,
            logged_before,
        )
    # Every stored move was drawn before the exit (AI moves under way were finished too).
    newest = table.current()
    assert newest is not None and newest.version == after.version, newest
    # What the player saw: an error reply only when the click was turned away.
    refusal = ephemeral_text(env, click.interaction)
    if applied:
        assert not refusal, refusal
    elif refusal:
        assert "restart" in refusal.lower(), refusal
    click.refusal = refusal or None
    click.in_flight = not applied and not refusal
    output = env.bot.output()[output_start:]
    assert "Traceback" not in output and " ERROR " not in output, output[-6000:]

    # The board shows the stored state after the restart (the shutdown recorded what every
    # board shows, so nothing needs redrawing), and the game plays on from it.
    await start_and_wait_ready(env.bot)
    assert after.message_id is not None
    await wait_board_current(env, board.game_id, REFRESH_TIMEOUT)
    current = await table.wait_turn(after.version - 1)
    assert current.version == (await game_row(env, board.game_id)).version
    # One click: enough to show the game goes on (longer play belongs to the restart tests).
    await table.play(random.Random(offset), until_clicks=1)
    await check_log(env, table)


async def tabula_health(env: BotEnv) -> tuple[int, str]:
    """``python -m bot health`` with the bot's own settings, as Docker's HEALTHCHECK runs it."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "health",
        cwd=env.workdir,
        env=env.bot.environment(),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(proc.communicate(), 30.0)
    assert proc.returncode is not None
    return proc.returncode, out.decode()


async def test_heartbeat_follows_the_bot_from_start_to_stop(env: BotEnv) -> None:
    if not env.bot.running:
        await start_and_wait_ready(env.bot)
    path = Path(f"{env.bot.database_path}.health")
    await env.fake.wait_for(
        lambda: check(path, 3 * HEALTH_INTERVAL)[0], 10.0, what="a healthy heartbeat"
    )
    code, out = await tabula_health(env)
    assert (code, out.split(":")[0]) == (0, "healthy"), out

    assert await env.bot.terminate(grace=EXIT_GRACE) == 0
    assert check(path, 3 * HEALTH_INTERVAL) == (False, "the bot is shutting down")
    assert await tabula_health(env) == (1, "unhealthy: the bot is shutting down\n")

    await start_and_wait_ready(env.bot)
    await env.fake.wait_for(
        lambda: check(path, 3 * HEALTH_INTERVAL)[0], 10.0, what="healthy again after a restart"
    )
