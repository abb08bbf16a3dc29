"""The heartbeat: what the bot writes, how ``check`` and ``tabula health`` judge it."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from bot import health
from bot.cli import run
from bot.config import Settings
from bot.health import HealthReporter, Heartbeat, check, health_path, max_age_for
from bot.storage.database import Database

NOW = 1_700_000_000.0


@dataclass
class FakeSocket:
    open: bool = True


@dataclass
class FakeDb:
    writable: bool = True
    hang: bool = False
    probes: int = 0

    async def check_writable(self) -> bool:
        self.probes += 1
        if self.hang:
            await asyncio.sleep(3600)
        return self.writable


@dataclass
class FakeBot:
    """The four things the reporter reads from a ``TabulaBot``."""

    db: Any = field(default_factory=FakeDb)
    ws: Any = field(default_factory=FakeSocket)
    ready: bool = True
    closed: bool = False

    def is_ready(self) -> bool:
        return self.ready

    def is_closed(self) -> bool:
        return self.closed


def leftovers(folder: Path) -> list[Path]:
    return list(folder.glob(".*.tmp"))


def write(path: Path, **fields: Any) -> None:
    beat = {"at": NOW, "connected": True, "db_ok": True, "pid": 1, **fields}
    path.write_text(json.dumps(beat), encoding="utf-8")


@pytest.mark.parametrize(
    ("fields", "now", "healthy", "reason"),
    [
        ({}, NOW + 5, True, "connected, database writable, heartbeat 5 s old"),
        ({}, NOW + 44, True, "heartbeat 44 s old"),
        ({}, NOW + 46, False, "the last heartbeat is 46 s old (limit 45 s)"),
        ({"connected": False}, NOW, False, "not connected to the Discord gateway"),
        ({"db_ok": False}, NOW, False, "the database is not writable"),
        ({"stopping": True}, NOW, False, "the bot is shutting down"),
        # A clock step backwards must not make a fresh heartbeat look unhealthy.
        ({}, NOW - 3, True, "heartbeat 0 s old"),
    ],
)
def test_check_judges_the_heartbeat(
    tmp_path: Path, fields: dict[str, Any], now: float, healthy: bool, reason: str
) -> None:
    path = tmp_path / "beat.json"
    write(path, **fields)
    ok, said = check(path, 45.0, now=now)
    assert (ok, reason in said) == (healthy, True), said


def test_check_without_or_with_a_broken_file(tmp_path: Path) -> None:
    ok, said = check(tmp_path / "missing.json", 45.0)
    assert not ok and "no heartbeat" in said
    broken = tmp_path / "broken.json"
    broken.write_text('{"at": ', encoding="utf-8")
    ok, said = check(broken, 45.0)
    assert not ok and "unreadable heartbeat" in said
    incomplete = tmp_path / "incomplete.json"
    incomplete.write_text('{"at": 1}', encoding="utf-8")
    assert not check(incomplete, 45.0)[0]


@pytest.mark.parametrize(
    ("bot", "connected", "db_ok"),
    [
        (FakeBot(), True, True),
        (FakeBot(ready=False), False, True),  # still starting, or reconnecting
        (FakeBot(closed=True), False, True),
        (FakeBot(ws=None), False, True),
        (FakeBot(ws=FakeSocket(open=False)), False, True),
        (FakeBot(db=FakeDb(writable=False)), True, False),
    ],
)
async def test_reporter_records_the_bots_real_state(
    tmp_path: Path, bot: FakeBot, connected: bool, db_ok: bool
) -> None:
    path = tmp_path / "beat.json"
    beat = await HealthReporter(bot, path, every=15.0).beat()
    assert (beat.connected, beat.db_ok, beat.stopping) == (connected, db_ok, False)
    assert Heartbeat.from_json(path.read_text(encoding="utf-8")) == beat
    assert abs(beat.at - time.time()) < 5
    assert check(path, 45.0)[0] == (connected and db_ok)


async def test_a_hung_database_probe_counts_as_unwritable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(health, "DB_PROBE_TIMEOUT", 0.05)
    beat = await HealthReporter(FakeBot(db=FakeDb(hang=True)), tmp_path / "b", 15.0).beat()
    assert not beat.db_ok


async def test_reporter_beats_periodically_and_marks_its_stop(tmp_path: Path) -> None:
    path = tmp_path / "beat.json"
    bot = FakeBot()
    reporter = HealthReporter(bot, path, every=0.02)
    reporter.start()
    reporter.start()  # idempotent: still one task
    for _ in range(200):
        await asyncio.sleep(0.01)
        if bot.db.probes >= 3:
            break
    assert bot.db.probes >= 3
    assert check(path, 1.0)[0]
    await reporter.stop()
    probes = bot.db.probes
    await asyncio.sleep(0.06)
    assert bot.db.probes == probes, "no beats after stop"
    assert check(path, 1.0) == (False, "the bot is shutting down")
    assert not leftovers(tmp_path), "no partial files left behind"


async def test_reporter_survives_an_unwritable_path(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    reporter = HealthReporter(FakeBot(), blocker / "beat.json", every=15.0)
    beat = await reporter.beat()  # logs a warning, does not raise
    assert beat.connected


async def test_real_database_probe(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "t.db")
    bot = FakeBot(db=db)
    assert (await HealthReporter(bot, tmp_path / "b", 15.0).probe()).db_ok
    await db.close()
    assert not (await HealthReporter(bot, tmp_path / "b", 15.0).probe()).db_ok


def settings(tmp_path: Path, **values: Any) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        discord_token=SecretStr("t"),
        database_path=tmp_path / "db" / "tabula.db",
        **values,
    )


def test_health_path_and_max_age(tmp_path: Path) -> None:
    assert health_path(settings(tmp_path)) == tmp_path / "db" / "tabula.db.health"
    chosen = tmp_path / "elsewhere.json"
    assert health_path(settings(tmp_path, health_file=chosen)) == chosen
    assert max_age_for(settings(tmp_path, health_interval_seconds=10)) == 30


@pytest.fixture
def health_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The environment ``tabula health`` sees in the container; returns the heartbeat path."""
    path = tmp_path / "beat.json"
    monkeypatch.chdir(tmp_path)  # no stray .env
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("HEALTH_FILE", str(path))
    monkeypatch.setenv("HEALTH_INTERVAL_SECONDS", "15")
    return path


def test_tabula_health_exit_codes(
    health_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(["health"]) == 1
    assert "unhealthy: no heartbeat" in capsys.readouterr().out
    write(health_env, at=time.time() - 2)
    assert run(["health"]) == 0
    assert capsys.readouterr().out.startswith("healthy: connected")
    write(health_env, at=time.time() - 60)
    assert run(["health"]) == 1
    assert "60 s old" in capsys.readouterr().out
    # Docker reserves exit code 2: even a broken configuration is plain "unhealthy".
    monkeypatch.setenv("HEALTH_INTERVAL_SECONDS", "0")
    assert run(["health"]) == 1
    assert "invalid configuration" in capsys.readouterr().out
