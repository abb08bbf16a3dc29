"""The bot reads wall time in one place, ``bot.clock``: everything else gets the clock passed
in, so the tests' clock (``TEST_CLOCK_FILE``, moved by ``FakeDiscord.advance``) moves every
time-out, reminder, expiry and daily puzzle at once. ``time.monotonic()`` (real elapsed time:
pacing, request timeouts, database deadlines) is no wall time and stays allowed."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLOCK = ROOT / "bot" / "clock.py"
# Ways to read the wall clock from the standard library and discord.py.
WALL_READS = re.compile(
    r"\btime\.(time|time_ns|gmtime|localtime|ctime)\b"
    r"|\butcnow\b"
    r"|\bdatetime\.now\b"
    r"|\bdate\.today\b"
    r"|\.today\(\)"
)


def wall_reads(path: Path) -> list[str]:
    """The lines of ``path`` that read wall time, as ``line: text``."""
    return [
        f"{number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if WALL_READS.search(line)
    ]


def test_only_the_clock_module_reads_wall_time() -> None:
    found = {
        str(path.relative_to(ROOT)): reads
        for folder in ("bot", "cogs")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path != CLOCK and (reads := wall_reads(path))
    }
    assert found == {}


def test_the_check_sees_each_way_of_reading_the_time(tmp_path: Path) -> None:
    source = tmp_path / "reads.py"
    source.write_text(
        "a = time.time()\n"
        "b: Callable[[], float] = time.time\n"
        "c = discord.utils.utcnow()\n"
        "d = datetime.datetime.now(datetime.UTC)\n"
        "e = datetime.date.today()\n"
        "f = time.monotonic()\n"
        "g = clock.now()\n",
        encoding="utf-8",
    )
    assert [line.split(":")[0] for line in wall_reads(source)] == ["1", "2", "3", "4", "5"]
    assert wall_reads(CLOCK), "the clock module itself reads the system time"
