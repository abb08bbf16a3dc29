"""``SHARD_COUNT`` without ``SHARD_IDS``: one process runs every shard (on SQLite, as any one
process may), one gateway session per shard, started as Discord's session start limit
allows; servers on each shard play through their own session."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from sandbox.fake_discord import FakeDiscord
from tests.driver.bots import BotEnv, bot_process, start_and_wait_ready
from tests.driver.process import BotExited
from tests.driver.shards import games_answered_by, log_lines
from tests.driver.starts import start_by_play

pytestmark = [pytest.mark.processes, pytest.mark.timeout(120)]


async def test_one_process_runs_all_shards_spaced_by_the_start_limit(tmp_path: Path) -> None:
    async with FakeDiscord(shard_count=2, max_concurrency=1) as fake:
        servers = [await fake.add_guild(f"s{n}", shard=(n, 2)) for n in range(2)]
        bot = bot_process(fake, tmp_path, {"SHARD_COUNT": "2"})
        try:
            await start_and_wait_ready(bot)
            identified = {
                tuple(e.detail["shard"]): e.at for e in fake.gateway.events if e.kind == "identify"
            }
            assert set(identified) == {(0, 2), (1, 2)}
            # max_concurrency 1: one session start per 5 s (discord.py's own wait is not
            # what spaces them: the bot replaces it by Discord's rule, see bot.shards).
            assert identified[(1, 2)] - identified[(0, 2)] >= 4.9
            assert log_lines(bot, "(shards 0-1 of 2)")
            env = BotEnv(fake, bot, tmp_path)
            played = []
            for number, server in enumerate(servers):
                player = await fake.add_member(f"p{number}", guild=server)
                channel = fake.channel_named("general", server)
                table = await start_by_play(env, player, channel, "ur")
                board = await table.play(random.Random(number), until_clicks=4)
                assert board.version > 0
                played.append(str(table.game_id))
                # The click came on its server's shard: only that session got it.
                (session,) = fake.gateway.sessions_for(server.id)
                assert session.key == (number, 2)
            assert set(played) <= games_answered_by(bot)
        finally:
            await bot.kill()
            print(f"--- {bot.log_path} ---\n{bot.output_tail(80)}")


async def test_the_same_settings_with_a_max_concurrency_of_two_start_at_once(
    tmp_path: Path,
) -> None:
    async with FakeDiscord(shard_count=2, max_concurrency=2) as fake:
        bot = bot_process(fake, tmp_path, {"SHARD_COUNT": "2"})
        try:
            await start_and_wait_ready(bot)
            starts = sorted(e.at for e in fake.gateway.events if e.kind == "identify")
            assert len(starts) == 2 and starts[1] - starts[0] < 4.0
        finally:
            await bot.kill()


async def test_a_second_process_on_the_same_sqlite_file_is_refused(tmp_path: Path) -> None:
    async with FakeDiscord(shard_count=2, max_concurrency=2) as fake:
        made = [
            bot_process(
                fake, tmp_path, {"SHARD_IDS": str(shard), "SHARD_COUNT": "2"}, name=f"bot-{shard}"
            )
            for shard in range(2)
        ]
        first, second = made
        try:
            await start_and_wait_ready(first)
            with pytest.raises(BotExited):
                await second.start()
            assert second.returncode == 2
            assert "use PostgreSQL" in second.output()
            assert first.running
            assert fake.gateway.shards_connected(2) == {0}  # the refused one never connected
        finally:
            for process in made:
                await process.kill()
