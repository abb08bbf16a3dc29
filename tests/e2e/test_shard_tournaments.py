"""Tournaments with two bot processes on one PostgreSQL database, each running one of two
shards: a tournament in each process's server, played at once. Each round is advanced and
opened once, by the process of the tournament's server (the other one's sweep leaves it
alone), and both tournaments are played to their ends with standings matching the results."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from tests.driver.shards import log_lines, running_cluster
from tests.driver.tournaments import announce, check_standings, play_to_the_end, start

pytestmark = [pytest.mark.processes, pytest.mark.timeout(300)]


async def test_two_processes_each_run_their_servers_tournament(tmp_path: Path) -> None:
    # Both sweeps run often: neither may touch the other's tournament. Toy Race: short games.
    env = {"CLOCK_SWEEP_SECONDS": "1", "TABULA_EXTRA_GAMES": "tests.toy_game"}
    async with running_cluster(tmp_path, shard_count=2, env=env) as cluster:
        first, second = cluster.process("p0", "0"), cluster.process("p1", "1")
        await cluster.start(first, second)
        servers = [
            await cluster.server("north", 0, first),
            await cluster.server("south", 1, second),
        ]
        events = [
            await announce(server, name, 4, {"game": "toy", "format": "swiss"})
            for server, name in zip(servers, ("n", "s"), strict=True)
        ]
        for event in events:
            await start(event)
        rounds = await asyncio.gather(
            *(play_to_the_end(event, seed=i) for i, event in enumerate(events))
        )
        assert rounds == [2, 2]
        for event in events:
            await check_standings(event)
        for event, owner, other in zip(events, (first, second), (second, first), strict=True):
            advance = re.compile(rf"tournament {event.tournament_id}: (round \d|finished)")
            mine = [
                line for line in log_lines(owner, "bot.service.tournaments") if advance.search(line)
            ]
            theirs = [
                line for line in log_lines(other, "bot.service.tournaments") if advance.search(line)
            ]
            assert len(mine) == 3 and not theirs, (mine, theirs)
            threads = cluster.fake.threads(event.channel)
            assert len(threads) == len({t.channel_id for t in await event.tables() if t.channel_id})


async def test_two_processes_on_one_shard_open_each_round_once(tmp_path: Path) -> None:
    """A rolling deploy's overlap: both processes get every event of the server and both
    sweeps look at the tournament every second; each round is stored once, each table gets
    one game and one thread."""
    env = {"CLOCK_SWEEP_SECONDS": "1", "TABULA_EXTRA_GAMES": "tests.toy_game"}
    async with running_cluster(tmp_path, shard_count=2, env=env) as cluster:
        old, new = cluster.process("old", "0"), cluster.process("new", "0")
        await cluster.start(old, new)
        server = await cluster.server("twins", 0, old)
        event = await announce(server, "t", 6, {"game": "toy", "format": "swiss"})
        await start(event)
        assert await play_to_the_end(event, seed=3) == 3
        await check_standings(event)
        tables = await event.tables()
        threads = cluster.fake.threads(event.channel)
        assert len(threads) == len(tables) == 9, "one thread per table, none left empty"
        assert len({t.game_id for t in tables}) == 9
        advance = re.compile(rf"tournament {event.tournament_id}: (round \d|finished)")
        lines = [
            line
            for process in (old, new)
            for line in log_lines(process, "bot.service.tournaments")
            if advance.search(line)
        ]
        assert len(lines) == 4, lines  # rounds 1-3 and the finish, each by one process
        # The process whose acknowledgement Discord refused leaves the click to the other
        # quietly: no error logged, no second answer tried.
        for process in (old, new):
            assert not log_lines(process, "unexpected error"), process.log_path
        assert log_lines(old, "answered by another process") or log_lines(
            new, "answered by another process"
        )
