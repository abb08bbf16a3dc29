"""Two bot processes on the same shard at once (a rolling deploy's overlap, or a second
process started by mistake): both receive every event of the shard's servers, yet every
click and every AI move is applied once. The new process starts while games are under way
(some with the AI on turn), both run side by side, then the old one goes and the new one
finishes the games: the stored logs match the clicks exactly."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from tests.driver.bots import start_and_wait_ready
from tests.driver.log_check import check_finished
from tests.driver.shards import games_answered_by, log_lines, running_cluster
from tests.driver.starts import start_by_play

pytestmark = [pytest.mark.processes, pytest.mark.timeout(300)]


async def test_two_processes_on_one_shard_apply_everything_once(tmp_path: Path) -> None:
    # A short AI pause, so that AI turns are still pending when the second process starts.
    env = {"AI_MOVE_DELAY_SECONDS": "0.3"}
    async with running_cluster(tmp_path, shard_count=2, env=env) as cluster:
        old = cluster.process("old", "0")
        new = cluster.process("new", "0")
        await cluster.start(old)
        server = await cluster.server("twins", 0, old)
        tables = []
        for game, name in (("ur", "ada"), ("ludo", "abe"), ("backgammon", "amy")):
            player = await server.member(name)
            # By hand: an automatic roll without a six leaves a Ludo person no choice, and on
            # a busy machine a table may go round for longer than a wait lasts.
            channel = await server.channel(name)
            await server.set_auto_roll(player, False, channel)
            tables.append(await start_by_play(server, player, channel, game))
        rngs = [random.Random(f"twins-{i}") for i in range(len(tables))]
        await asyncio.gather(
            *(t.play(rng, until_clicks=6) for t, rng in zip(tables, rngs, strict=True))
        )
        # One click each, answered, and the new process starts right away: the AI seats that
        # are on turn are picked up by its start-up as well as by the old process.
        for table, rng in zip(tables, rngs, strict=True):
            board = await table.wait_turn(table.last_version())
            if not board.finished:
                await table.click(board, table.choose(board, rng))
        await start_and_wait_ready(new)
        assert len([s for s in cluster.fake.gateway.live_sessions() if s.key == (0, 2)]) == 2

        # Side by side: every click reaches both processes; one answers it.
        before = len(old.output()), len(new.output())
        clicks = [len(t.clicks) for t in tables]
        await asyncio.gather(
            *(t.play(rng, until_clicks=10) for t, rng in zip(tables, rngs, strict=True))
        )
        ids = {str(t.game_id) for t, n in zip(tables, clicks, strict=True) if len(t.clicks) > n}
        assert ids, "no game was played while both processes ran"
        assert ids <= games_answered_by(old, since=before[0])
        assert ids <= games_answered_by(new, since=before[1])

        # The old process leaves; the new one finishes every game.
        await old.terminate()
        await asyncio.gather(*(t.play(rng) for t, rng in zip(tables, rngs, strict=True)))
        for table in tables:
            await check_finished(server, table)
        assert not log_lines(new, "AI turn failed")
