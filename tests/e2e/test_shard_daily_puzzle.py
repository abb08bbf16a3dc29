"""The daily puzzle is posted exactly once: two bot processes on the same shard (both see the
server and both sweep), then both stop and a new one starts the same day."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.storage import puzzles as store
from sandbox.fake_model import Perm
from tests.e2e.bot_helpers import wait_ephemeral
from tests.e2e.shard_helpers import running_cluster

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

SWEEP = {"PUZZLE_SWEEP_SECONDS": "0.2", "EXPERT_WORKERS": "0"}


async def test_the_daily_puzzle_is_posted_once_across_processes_and_a_restart(
    tmp_path: Path,
) -> None:
    async with running_cluster(tmp_path, shard_count=1, env=SWEEP) as cluster:
        first, second = cluster.process("first", "0"), cluster.process("second", "0")
        await cluster.start(first, second)
        server = await cluster.server("daily", 0, first)
        role = await cluster.fake.add_role("admins", Perm.MANAGE_GUILD, guild=server.guild)
        admin = await cluster.fake.add_member("admin", roles=[role], guild=server.guild)
        puzzles = await server.channel("puzzles")
        other = await server.channel("general")

        # hour 0 (UTC): due at once, whatever the time of day the test runs
        command = await cluster.fake.slash(
            admin, "settings", {"puzzle_channel": puzzles.id, "puzzle_hour": 0}, channel=other
        )
        assert f"Daily puzzle: in <#{puzzles.id}> at 0:00 UTC." in await wait_ephemeral(
            server, command
        )

        def posted() -> list[object]:
            return [m for m in cluster.fake.messages(puzzles) if m.embeds]

        await cluster.fake.wait_for(posted, 20, what="the daily puzzle")
        await asyncio.sleep(2.0)  # ten sweeps of each process
        (message,) = posted()
        assert message.embeds[0]["title"].startswith("Daily puzzle · ")
        assert all(i.startswith("tabula:pz:") for i in message.custom_ids())
        db = await server.db()
        (row,) = await db.read(lambda tx: tx.fetchall("SELECT * FROM daily_puzzles"))
        assert row["message_id"] == message.id and row["guild_id"] == server.guild.id

        # both go; a new process starts on the same day: no second post
        await first.terminate()
        await second.terminate()
        third = cluster.process("third", "0")
        await cluster.start(third)
        await asyncio.sleep(2.0)
        assert len(posted()) == 1
        assert await store.due_dailies(db, str(row["day"]), 23) == []

        # anyone in the channel answers it, privately
        reader = await server.member("reader")
        click = await cluster.fake.click(reader, message, message.custom_ids()[0])
        text = await wait_ephemeral(server, click)
        assert "Best: **" in text
