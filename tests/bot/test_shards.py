"""Shard settings and ownership: which process owns a server's games (``bot.shards``)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import discord
import pytest
import yaml
from discord.ext import commands

from bot import cli
from bot.config import ConfigError, Settings, load_settings, shard_plan
from bot.shards import IdentifyGate, ShardPlan, format_ids, parse_shard_ids, shard_of
from bot.startup import SHARD_RECONNECT_MESSAGE, OneLineReconnects

ROOT = Path(__file__).resolve().parents[2]


def guild_on(shard: int, count: int, ms: int = 1_000_000) -> int:
    """A server id whose shard is ``shard`` of ``count``."""
    ms += (shard - ms) % count
    return (ms << 22) | 12345


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("0-3", (0, 1, 2, 3)),
        ("5", (5,)),
        ("0,2,4-7", (0, 2, 4, 5, 6, 7)),
        (" 3 - 4 , 1 ", (1, 3, 4)),
        ("2,2,1-2", (1, 2)),
    ],
)
def test_shard_ids_parse_ranges_and_lists(text: str, ids: tuple[int, ...]) -> None:
    assert parse_shard_ids(text) == ids
    assert parse_shard_ids(format_ids(ids)) == ids


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "not a list of shard ids"),
        ("a-b", "not a list of shard ids"),
        ("-1", "not a list of shard ids"),
        ("3-1", "runs backwards"),
        ("0-99999999", "larger than any shard count"),
        ("1,,2", "not a list of shard ids"),
    ],
)
def test_bad_shard_ids_say_what_is_wrong(text: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        parse_shard_ids(text)


def test_format_ids_folds_runs() -> None:
    assert format_ids((0, 1, 2, 5, 7, 8)) == "0-2,5,7-8"
    assert format_ids(()) == ""


def test_shard_of_follows_discords_formula() -> None:
    guild = 81384788765712384  # Discord API server: created 2015-07-09
    assert shard_of(guild, 1) == 0
    assert shard_of(guild, 8) == (guild >> 22) % 8
    assert shard_of(None, 8) == 0  # direct messages come on shard 0
    for shard in range(8):
        assert shard_of(guild_on(shard, 8), 8) == shard


def test_a_plan_owns_the_servers_of_its_shards_only() -> None:
    plan = ShardPlan.parse("0-1", 4)
    assert plan.sharded and plan.shards == (0, 1) and not plan.owns_everything
    assert [plan.owns(guild_on(s, 4)) for s in range(4)] == [True, True, False, False]
    assert plan.owns(None)  # shard 0 runs here
    other = ShardPlan.parse("2,3", 4)
    assert not other.owns(None)
    # Every server is owned by exactly one of the two processes.
    for ms in range(1_000_000, 1_000_050):
        guild = ms << 22
        assert plan.owns(guild) != other.owns(guild)
    assert plan.describe() == "shards 0-1 of 4"


def test_unsharded_and_all_shards_own_everything() -> None:
    for plan in (ShardPlan(), ShardPlan.parse(None, 3), ShardPlan.parse("", 3)):
        assert plan.owns_everything
        assert all(plan.owns(guild_on(s, 3)) for s in range(3))
    assert ShardPlan().shards == (0,) and not ShardPlan().sharded
    assert ShardPlan.parse(None, 3).shards == (0, 1, 2)
    assert ShardPlan().describe() == "not sharded"


@pytest.mark.parametrize(
    ("ids", "count", "says"),
    [
        ("0-1", None, "SHARD_IDS needs SHARD_COUNT"),
        ("0-4", 4, r"shard ids \[4\] do not exist with SHARD_COUNT=4"),
        (None, 0, "SHARD_COUNT must be between 1"),
    ],
)
def test_impossible_plans_are_refused(ids: str | None, count: int | None, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        ShardPlan.parse(ids, count)


def test_settings_read_shards_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setenv("SHARD_IDS", "2-3")
    monkeypatch.setenv("SHARD_COUNT", "4")
    settings = load_settings(None)
    assert shard_plan(settings) == ShardPlan((2, 3), 4)
    monkeypatch.setenv("SHARD_IDS", "4")
    with pytest.raises(ConfigError, match="do not exist"):
        load_settings(None)


def test_the_plan_of_a_client_is_what_it_was_started_with() -> None:
    intents = discord.Intents.default()
    plain = commands.Bot(command_prefix="!", intents=intents)
    assert ShardPlan.of_client(plain) == ShardPlan()
    sharded = commands.AutoShardedBot(
        command_prefix="!", intents=intents, shard_ids=[3, 1], shard_count=4
    )
    assert ShardPlan.of_client(sharded) == ShardPlan((1, 3), 4)
    every = commands.AutoShardedBot(command_prefix="!", intents=intents, shard_count=2)
    assert ShardPlan.of_client(every) == ShardPlan(None, 2)


def test_create_bot_shards_only_when_asked() -> None:
    from bot.client import ShardedTabulaBot, TabulaBot, create_bot

    plain = create_bot(Settings(discord_token="t"))  # type: ignore[arg-type]
    assert type(plain) is TabulaBot
    sharded = create_bot(
        Settings(discord_token="t", shard_ids="1", shard_count=2)  # type: ignore[arg-type]
    )
    assert isinstance(sharded, ShardedTabulaBot)
    assert isinstance(sharded, commands.AutoShardedBot)
    assert sharded.shard_ids == [1] and sharded.shard_count == 2


def run_tabula(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("SHARD_", "DISCORD_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args, "--env-file", os.devnull],
        cwd=ROOT,
        env={**clean, "DISCORD_TOKEN": "token", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_command_line_names_shards_and_wins_over_the_environment() -> None:
    ok = run_tabula("check-config", "--shards", "0-3", "--shard-count", "8")
    assert ok.returncode == 0, ok.stderr
    # --shards alone takes SHARD_COUNT from the environment; the flag beats SHARD_IDS.
    mixed = run_tabula("check-config", "--shards", "5", SHARD_IDS="0", SHARD_COUNT="4")
    assert mixed.returncode == 2
    assert "shard ids [5] do not exist with SHARD_COUNT=4" in mixed.stderr
    lonely = run_tabula("check-config", "--shards", "0-1")
    assert lonely.returncode == 2 and "SHARD_IDS needs SHARD_COUNT" in lonely.stderr


async def test_identify_gate_spaces_each_bucket_by_five_seconds() -> None:
    now = [100.0]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    gate = IdentifyGate(2, clock=lambda: now[0], sleep=sleep)
    await gate.wait(0)  # bucket 0
    await gate.wait(1)  # bucket 1: no wait
    assert slept == []
    await gate.wait(2)  # bucket 0 again: 5 s after shard 0
    assert slept == [5.0]
    now[0] += 10.0
    await gate.wait(3)  # bucket 1, long after shard 1
    assert slept == [5.0]
    single = IdentifyGate(0, clock=lambda: now[0], sleep=sleep)  # 0 reads as 1
    await single.wait(0)
    await single.wait(1)
    assert slept == [5.0, 5.0]


def test_the_sharded_compose_file_splits_every_shard_once_over_one_database() -> None:
    compose = yaml.safe_load((ROOT / "compose.shards.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    postgres = services["postgres"]
    assert postgres["image"].startswith("postgres:")
    data = next(v for v in postgres["volumes"] if v.endswith(":/var/lib/postgresql/data"))
    assert data.split(":")[0] in compose["volumes"], "PostgreSQL's data on a named volume"
    assert "healthcheck" in postgres
    bots = {name: s for name, s in services.items() if "SHARD_IDS" in s.get("environment", {})}
    assert len(bots) >= 2
    plans = []
    for name, service in bots.items():
        env = service["environment"]
        assert env["DATABASE_URL"].startswith("postgresql://"), name
        assert "@postgres:" in env["DATABASE_URL"], name
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert service["env_file"] == ".env" and service["restart"] == "unless-stopped"
        assert int(service["stop_grace_period"].rstrip("s")) > 10  # the bot's 10 s drain
        plans.append(ShardPlan.parse(env["SHARD_IDS"], int(env["SHARD_COUNT"])))
    counts = {plan.shard_count for plan in plans}
    assert len(counts) == 1, "every process must name the same SHARD_COUNT"
    (count,) = counts
    assert count is not None
    owned = [shard for plan in plans for shard in plan.shards]
    assert sorted(owned) == list(range(count)), "each shard run by exactly one process"


def test_a_shards_failed_reconnect_is_one_warning_line() -> None:
    try:
        raise ConnectionResetError("Connection reset by peer")
    except ConnectionResetError:
        exc_info = sys.exc_info()
    record = logging.LogRecord(
        "discord.shard", logging.ERROR, __file__, 1, SHARD_RECONNECT_MESSAGE, (3, 1.5), exc_info
    )
    reconnects = OneLineReconnects()
    assert reconnects.filter(record)
    assert record.getMessage() == (
        "gateway connection of shard 3 failed (Connection reset by peer); reconnecting in 1.50s"
    )
    assert record.levelname == "WARNING" and record.exc_info is None
    assert reconnects.last_reason == "Connection reset by peer"
    # `tabula run` installs the filter on the sharded bot's logger too (pytest's logging
    # is put back afterwards).
    root, library = logging.getLogger(), logging.getLogger("discord")
    filtered = [logging.getLogger(name) for name in ("discord.client", "discord.shard")]
    saved = root.handlers[:], root.level, library.level, [log.filters[:] for log in filtered]
    try:
        cli.configure_logging(Settings(discord_token="t"))  # type: ignore[arg-type]
        assert any(isinstance(f, OneLineReconnects) for f in filtered[1].filters)
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
        library.setLevel(saved[2])
        for log, filters in zip(filtered, saved[3], strict=True):
            log.filters[:] = filters
