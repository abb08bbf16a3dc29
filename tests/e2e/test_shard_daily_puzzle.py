"""The daily puzzle is posted exactly once: two bot processes on the same shard (both see the
server and both sweep), then both stop and a new one starts the same day.

The hour comes on the bots' clock (``FakeDiscord.advance``), and each "nothing more was
posted" is read once a later server's puzzle is there: the sweep that posted it came after."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.storage import puzzles as store
from sandbox.fake_model import Channel, Message, Perm
from tests.driver.members import wait_ephemeral
from tests.driver.shards import Cluster, ServerEnv, running_cluster
from tests.driver.timeouts import STEP_TIMEOUT

pytestmark = [pytest.mark.processes, pytest.mark.timeout(240)]

SWEEP = {"PUZZLE_SWEEP_SECONDS": "0.2", "EXPERT_WORKERS": "0"}
DAY = 24 * 3600
HOUR = 1  # UTC: the tests' clock is moved to 0:50 first, so it is not yet due


async def daily_puzzle_in(cluster: Cluster, server: ServerEnv) -> Channel:
    """``server``'s #puzzles, set by an admin (/settings) to get the daily puzzle at HOUR."""
    role = await cluster.fake.add_role("admins", Perm.MANAGE_GUILD, guild=server.guild)
    admin = await cluster.fake.add_member(
        f"admin-{server.guild.id if server.guild else 0}", roles=[role], guild=server.guild
    )
    puzzles = await server.channel("puzzles")
    command = await cluster.fake.slash(
        admin,
        "settings",
        {"puzzle_channel": puzzles.id, "puzzle_hour": HOUR},
        channel=await server.channel("general"),
    )
    assert f"Daily puzzle: in <#{puzzles.id}> at {HOUR}:00 UTC." in await wait_ephemeral(
        server, command
    )
    return puzzles


def posted(cluster: Cluster, channel: Channel) -> list[Message]:
    return [m for m in cluster.fake.messages(channel) if m.embeds]


async def wait_posted(cluster: Cluster, channel: Channel) -> Message:
    await cluster.fake.wait_for(
        lambda: posted(cluster, channel), STEP_TIMEOUT, what="the daily puzzle"
    )
    return posted(cluster, channel)[0]


async def test_the_daily_puzzle_is_posted_once_across_processes_and_a_restart(
    tmp_path: Path,
) -> None:
    async with running_cluster(tmp_path, shard_count=1, env=SWEEP) as cluster:
        first, second = cluster.process("first", "0"), cluster.process("second", "0")
        await cluster.start(first, second)
        # 0:50 (UTC) of the next day on the bots' clock, whenever the test runs.
        cluster.fake.advance(DAY - cluster.fake.wall_time() % DAY + 50 * 60)
        server = await cluster.server("daily", 0, first)
        puzzles = await daily_puzzle_in(cluster, server)
        # 1:01; less than an interaction token's 15 minutes (the bot may still be finishing
        # the /settings command the test saw answered).
        cluster.fake.advance(11 * 60)
        message = await wait_posted(cluster, puzzles)
        # A second server's puzzle, due at once: once it is there, a sweep after the first
        # post has run, with the first server's puzzle due all along.
        elsewhere = await daily_puzzle_in(cluster, await cluster.server("daily-2", 0, first))
        await wait_posted(cluster, elsewhere)
        assert posted(cluster, puzzles) == [message]
        assert message.embeds[0]["title"].startswith("Daily puzzle · ")
        assert all(i.startswith("tabula:pz:") for i in message.custom_ids())
        db = await server.db()
        (row,) = await db.read(
            lambda tx: tx.fetchall(
                "SELECT * FROM daily_puzzles WHERE guild_id = ?", (server.guild.id,)
            )
        )
        assert row["message_id"] == message.id

        # both go; a new process starts on the same day: no second post (a third server's
        # puzzle, posted by the new process, shows that it has swept)
        await first.terminate()
        await second.terminate()
        third = cluster.process("third", "0")
        await cluster.start(third)
        late = await daily_puzzle_in(cluster, await cluster.server("daily-3", 0, third))
        await wait_posted(cluster, late)
        assert posted(cluster, puzzles) == [message]
        # The post is seen before its message id is stored: wait for that state, bounded.
        deadline = time.monotonic() + STEP_TIMEOUT
        while True:
            due = await store.due_dailies(db, str(row["day"]), 23)
            if not due or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.05)
        assert due == []

        # anyone in the channel answers it, privately
        reader = await server.member("reader")
        click = await cluster.fake.click(reader, message, message.custom_ids()[0])
        text = await wait_ephemeral(server, click)
        assert "Best: **" in text
