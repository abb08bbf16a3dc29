"""No engine on a live rated position with two bot processes, each on its own gateway shard,
sharing one PostgreSQL database: a rated match is played in a server of process a; its
position, pasted into /analyze in a server of process b (which never saw the game), is
refused there as in the match's own server, also after process a is SIGKILLed and started
again mid-match; once the match is over process b answers the same IDs."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from tests.driver.bots import module_marks, start_and_wait_ready
from tests.driver.members import confirm_resign
from tests.driver.shards import Cluster, running_cluster
from tests.e2e.live_rated import (
    answered,
    ids_on_board,
    match_under_way,
    refused_everywhere,
    share_refused,
)

pytestmark = module_marks(timeout=300, process=True)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def cluster(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Cluster]:
    async with running_cluster(tmp_path_factory.mktemp("live-rated-shards")) as running:
        running.process("a", "0")
        running.process("b", "1")
        await running.start(*running.processes.values())
        yield running


async def test_the_index_is_shared_by_every_process(cluster: Cluster) -> None:
    a, b = cluster.processes["a"], cluster.processes["b"]
    home = await cluster.server("home", 0, a)
    away = await cluster.server("away", 1, b)
    ann, bob = await home.member("ann"), await home.member("bob")
    cleo = await away.member("cleo")
    elsewhere = await away.channel("elsewhere")
    table, board = await match_under_way(
        home, ann, bob, await home.channel("rated"), rated=True, seed=5
    )
    ids = await ids_on_board(home, board)
    await refused_everywhere(home, [ann, bob], ids, table.channel_id)  # process a
    await refused_everywhere(away, [cleo], ids, elsewhere)  # process b
    await share_refused(home, table, board, [bob])

    await a.kill()  # SIGKILL mid-match; b goes on
    await refused_everywhere(away, [cleo], ids, elsewhere)
    await start_and_wait_ready(a)
    await refused_everywhere(home, [ann], ids, table.channel_id)

    assert "resigned" in await confirm_resign(home, bob, table.channel_id)
    await answered(away, cleo, ids.gnubg, elsewhere)
    await answered(away, cleo, ids.xgid, elsewhere)
    await answered(home, ann, ids.xgid, table.channel_id)
