"""Two bot processes on one PostgreSQL database, each running one of two gateway shards,
with servers on both: games are played in both at once, each server by its own process; one
process is SIGKILLed mid-game and started again while the other plays on (and restarts too);
nothing is lost or doubled (the stored logs match the clicks)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot import storage as store
from bot.health import check
from sandbox.fake_discord import FakeDiscord
from tests.driver.bots import module_marks, start_and_wait_ready
from tests.driver.log_check import check_finished
from tests.driver.player import Table
from tests.driver.process import BotProcess
from tests.driver.shards import Cluster, ServerEnv, games_answered_by, log_lines, running_cluster
from tests.driver.starts import new_table, start_by_challenge
from tests.driver.stored import game_row, wait_board_current

pytestmark = module_marks(timeout=300, process=True)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def cluster(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Cluster]:
    workdir = tmp_path_factory.mktemp("shards")
    env = {"HEALTH_INTERVAL_SECONDS": "1"}
    async with running_cluster(workdir, shard_count=2, env=env) as running:
        running.process("a", "0")
        running.process("b", "1")
        await running.start(*running.processes.values())
        yield running


async def servers(cluster: Cluster, name: str) -> tuple[ServerEnv, ServerEnv]:
    """A new server on shard 0 (process a's) and one on shard 1 (process b's)."""
    a, b = cluster.processes["a"], cluster.processes["b"]
    return await cluster.server(f"{name}-0", 0, a), await cluster.server(f"{name}-1", 1, b)


def owner_of(cluster: Cluster, table: Table) -> tuple[BotProcess, BotProcess]:
    """(the process that owns the table's server, the other one)."""
    env = table.env
    assert isinstance(env, ServerEnv)
    a, b = cluster.processes["a"], cluster.processes["b"]
    return (a, b) if env.bot is a else (b, a)


def assert_each_game_answered_by_its_owner(cluster: Cluster, tables: list[Table]) -> None:
    for table in tables:
        owner, other = owner_of(cluster, table)
        assert table.game_id in games_answered_by(owner), f"{table.game_id}: not by its owner"
        assert table.game_id not in games_answered_by(other), f"{table.game_id}: by the other"


async def test_each_process_runs_its_own_shard(cluster: Cluster) -> None:
    fake: FakeDiscord = cluster.fake
    assert fake.gateway.shards_connected(2) == {0, 1}
    identified = [e.detail["shard"] for e in fake.gateway.events if e.kind == "identify"]
    assert sorted(identified) == [[0, 2], [1, 2]]
    a, b = cluster.processes["a"], cluster.processes["b"]
    assert log_lines(a, "(shards 0 of 2)") and log_lines(b, "(shards 1 of 2)")
    # `tabula health` judges each process by its own shards' connections.
    for name in ("a", "b"):
        path = cluster.workdir / f"{name}.health"

        def healthy(path: Path = path) -> bool:
            return check(path, 3.0)[0]

        await fake.wait_for(healthy, 10.0, what=f"process {name} to report itself healthy")


async def test_games_on_both_shards_are_played_at_once_each_by_its_process(
    cluster: Cluster,
) -> None:
    zero, one = await servers(cluster, "together")
    tables = [
        await new_table(zero, "ur", "ada"),
        await new_table(zero, "ludo", "abe"),
        await new_table(one, "ur", "ben"),
        await new_table(one, "backgammon", "bea"),
    ]
    # People against each other too: the invitation, the Accept and the thread on shard 1.
    cleo, dan = await one.member("cleo"), await one.member("dan")
    tables.append(await start_by_challenge(one, cleo, [dan], await one.channel("duel"), "ur"))
    rngs = [random.Random(f"together-{i}") for i in range(len(tables))]
    await asyncio.gather(*(t.play(rng) for t, rng in zip(tables, rngs, strict=True)))
    for table in tables:
        assert isinstance(table.env, ServerEnv)
        await check_finished(table.env, table)
    assert_each_game_answered_by_its_owner(cluster, tables)


async def test_a_killed_process_restarts_while_the_other_plays_on(cluster: Cluster) -> None:
    a, b = cluster.processes["a"], cluster.processes["b"]
    zero, one = await servers(cluster, "kill")
    tables = [
        await new_table(zero, "ur", "eve"),
        await new_table(zero, "backgammon", "eli"),
        await new_table(one, "ur", "fay"),
        await new_table(one, "ludo", "fin"),
    ]
    mine, theirs = tables[:2], tables[2:]
    rngs = [random.Random(f"kill-{i}") for i in range(len(tables))]
    await asyncio.gather(
        *(t.play(rng, until_clicks=8) for t, rng in zip(tables, rngs, strict=True))
    )
    # Process a dies with a click in flight in one of its games.
    board = await mine[0].wait_turn(mine[0].last_version())
    click = await mine[0].click(board, mine[0].choose(board, rngs[0]), wait=False)
    await a.kill()
    click.in_flight = True
    # Requests the dead process sent just before it died may still be served now.
    await asyncio.sleep(0.5)
    killed_at = time.monotonic()
    # As if it died before recording what its boards show: whoever starts next and owns
    # these games must redraw them, and only process a owns them.
    db = await zero.db()
    for table in mine:

        def forget_shown(tx: store.Transaction, game_id: str = str(table.game_id)) -> int:
            return tx.execute("UPDATE games SET shown_version = NULL WHERE id = ?", (game_id,))

        await db.write(forget_shown)
    frozen = {t.game_id: await game_row(zero, str(t.game_id)) for t in mine}

    # Meanwhile process b is restarted too (a rolling deploy) and its games go on. Neither
    # its start-up nor its sweeps may touch process a's games.
    b_seen = len(b.output())
    await b.terminate()
    await start_and_wait_ready(b)
    await asyncio.gather(
        *(t.play(rng, until_clicks=8) for t, rng in zip(theirs, rngs[2:], strict=True))
    )
    for table in mine:
        row = await game_row(zero, str(table.game_id))
        before = frozen[str(table.game_id)]
        assert (row.version, row.action_count, row.message_id) == (
            before.version,
            before.action_count,
            before.message_id,
        ), f"game {table.game_id} changed while its process was down"
        for message in cluster.fake.messages(table.channel_id):
            assert not message.edited_at or message.edited_at[-1] < killed_at, (
                f"a board of game {table.game_id} was edited while its process was down"
            )
        assert not log_lines(b, f"game {table.game_id}", since=b_seen)

    # Process a comes back and redraws its boards; then every game is played to its end.
    a_seen = len(a.output())
    await start_and_wait_ready(a)
    for table in mine:
        redrawn = f"start-up: redrawing the board of game {table.game_id}"

        def logged(needle: str = redrawn) -> bool:
            return bool(log_lines(a, needle, since=a_seen))

        await cluster.fake.wait_for(logged, what=redrawn)
        current = await wait_board_current(zero, str(table.game_id))
        assert current.message.id == (await game_row(zero, str(table.game_id))).message_id
    for table in theirs:
        assert not log_lines(a, f"game {table.game_id}", since=a_seen)
    await mine[0].wait_turn(click.version - 1)
    await asyncio.gather(*(t.play(rng) for t, rng in zip(tables, rngs, strict=True)))
    for table in tables:
        assert isinstance(table.env, ServerEnv)
        await check_finished(table.env, table)
    assert_each_game_answered_by_its_owner(cluster, tables)
