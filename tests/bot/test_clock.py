"""The bot's wall clock (``bot.clock``): the system's by default; with ``TEST_CLOCK_FILE``, the
real time plus the offset in that file, which moves as soon as the file changes."""

from __future__ import annotations

import datetime
import os
import time
from pathlib import Path

import pytest

from bot.clock import SYSTEM_CLOCK, OffsetClock, SystemClock, clock_from
from bot.config import Settings

DAY = 24 * 3600.0


def write_offset(path: Path, seconds: float) -> None:
    """As the fake Discord writes it (``FakeDiscord.advance``): a new file replaces the old."""
    fresh = path.with_suffix(".new")
    fresh.write_text(f"{seconds!r}\n", encoding="utf-8")
    os.replace(fresh, path)


def test_the_default_is_the_system_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TEST_CLOCK_FILE", raising=False)
    settings = Settings(discord_token="t", _env_file=None)  # type: ignore[call-arg]
    assert settings.test_clock_file is None
    clock = clock_from(settings.test_clock_file)
    assert clock is SYSTEM_CLOCK and isinstance(clock, SystemClock)
    before = time.time()
    now = clock.now()
    assert before <= now <= time.time()
    assert abs(clock.now_utc().timestamp() - time.time()) < 5
    assert clock.now_utc().tzinfo is datetime.UTC


def test_the_setting_names_the_offset_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_CLOCK_FILE", str(tmp_path / "offset"))
    settings = Settings(discord_token="t", _env_file=None)  # type: ignore[call-arg]
    clock = clock_from(settings.test_clock_file)
    assert isinstance(clock, OffsetClock) and clock.path == tmp_path / "offset"


def test_no_file_is_no_offset(tmp_path: Path) -> None:
    clock = OffsetClock(tmp_path / "offset")
    assert clock.offset() == 0.0
    assert abs(clock.now() - time.time()) < 5


def test_the_clock_reads_the_offset_and_moves_when_the_file_changes(tmp_path: Path) -> None:
    path = tmp_path / "offset"
    clock = OffsetClock(path)
    write_offset(path, DAY)
    assert clock.offset() == DAY
    assert DAY - 5 < clock.now() - time.time() <= DAY + 5
    assert clock.now_utc().timestamp() == pytest.approx(clock.now(), abs=5)
    # Moved twice in a row, within the same mtime tick: each move is seen.
    write_offset(path, DAY + 30)
    assert clock.offset() == DAY + 30
    write_offset(path, DAY + 90.5)
    assert clock.offset() == DAY + 90.5
    path.unlink()  # the fake Discord gone: the real time again
    assert clock.offset() == 0.0


def test_an_unreadable_offset_keeps_the_last_one(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "offset"
    clock = OffsetClock(path)
    write_offset(path, 60.0)
    assert clock.offset() == 60.0
    path.write_text("an hour", encoding="utf-8")
    assert clock.offset() == 60.0
    assert "not a number of seconds" in caplog.text


def test_the_offset_is_not_read_again_while_the_file_is_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "offset"
    clock = OffsetClock(path)
    write_offset(path, 60.0)
    assert clock.offset() == 60.0
    stat = os.stat(path)
    # The same inode, size and mtime: taken as unchanged, without reading it.
    path.write_text("99.0\n", encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert clock.offset() == 60.0
    write_offset(path, 99.0)
    assert clock.offset() == 99.0
