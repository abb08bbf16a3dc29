"""A tournament survives SIGKILL at its riskiest steps: right after a round's advance is
stored (before any thread of the new round exists), right after a game is stored (before
its players are mentioned and its board is shown), and right after the tournament is stored
(before its announcement is shown). The restarted bot opens what is missing,
each table gets exactly one game, and the tournament is played to its end."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot import storage as store
from bot.storage import tournaments as tstore
from tests.driver.bots import running_bot, start_and_wait_ready
from tests.driver.timeouts import STEP_TIMEOUT
from tests.driver.tournaments import (
    announce,
    check_standings,
    play_round,
    play_to_the_end,
    round_opened,
    start,
    wait_round_done,
)

pytestmark = [pytest.mark.processes, pytest.mark.timeout(300)]
CRASH = "TABULA_CRASH_AT"
TOY = {"TABULA_EXTRA_GAMES": "tests.toy_game"}  # a game of about thirty clicks


async def _restart_after_crash(env) -> None:  # type: ignore[no-untyped-def]
    await env.fake.wait_for(lambda: not env.bot.running, STEP_TIMEOUT, what="the crash")
    env.bot.extra_env.pop(CRASH)
    await start_and_wait_ready(env.bot)


async def _one_game_per_table(event) -> None:  # type: ignore[no-untyped-def]
    db = await event.env.db()
    for table in await event.tables():
        if table.decided_by == "bye":
            continue
        assert table.game_id is not None
        game = await store.load_game(db, table.game_id)
        assert game is not None and game.channel_id == table.channel_id
    threads = {t.id for t in event.env.fake.threads(event.channel)}
    used = {t.channel_id for t in await event.tables() if t.channel_id is not None}
    assert used <= threads


async def test_sigkill_right_after_a_round_advance(tmp_path: Path) -> None:
    async with running_bot(tmp_path, {CRASH: "tournament.advanced", **TOY}, process=True) as env:
        event = await announce(env, "crash", 4, {"game": "toy", "format": "swiss"})
        await start(event)
        tables = await round_opened(event, 1)
        # The click that ends the round's last game stores it, the round advances, and the
        # bot dies before it answers that click: the players' side stops there.
        playing = asyncio.create_task(play_round(event, tables, seed=1))
        await _restart_after_crash(env)
        playing.cancel()
        await asyncio.gather(playing, return_exceptions=True)
        row = await wait_round_done(event, 1)
        assert row.round == 2 and len(await event.tables(2)) == 2
        tables = await round_opened(event, 2)
        await play_round(event, tables, seed=2)
        assert (await wait_round_done(event, 2)).status == "finished"
        await _one_game_per_table(event)
        await check_standings(event)


async def test_sigkill_right_after_a_game_is_stored(tmp_path: Path) -> None:
    async with running_bot(
        tmp_path, {CRASH: "tournament.game_created", **TOY}, process=True
    ) as env:
        event = await announce(env, "made", 4, {"game": "toy", "format": "swiss"})
        await start(event)
        await _restart_after_crash(env)
        assert await play_to_the_end(event, seed=3) == 2
        await _one_game_per_table(event)
        await check_standings(event)


async def test_sigkill_before_the_announcement_is_shown(tmp_path: Path) -> None:
    async with running_bot(tmp_path, {CRASH: "tournament.created", **TOY}, process=True) as env:
        channel = await env.channel("lost")
        boss = await env.member("lostboss")
        await env.fake.slash(
            boss, "tournament create", {"game": "toy", "format": "swiss"}, channel=channel
        )
        await _restart_after_crash(env)
        message = await env.fake.wait_for(
            lambda: next((m for m in env.fake.messages(channel) if "Tournament #" in m.text), None),
            STEP_TIMEOUT,
            what="the announcement posted after the restart",
        )
        assert any(c.endswith(":join") for c in message.custom_ids())
        # The bot posts the announcement, then stores its id: wait for the store.
        for _ in range(600):
            (row,) = await tstore.tournaments_in_channel(await env.db(), channel.id)
            if row.message_id is not None:
                break
            await asyncio.sleep(0.05)
        assert row.message_id == message.id
