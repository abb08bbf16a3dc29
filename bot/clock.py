"""The bot's one wall clock: what time it is for turn clocks, reminders, time-outs, expiring
invitations, tournament deadlines, the daily puzzle's day and every stored timestamp.

``TabulaBot.setup_hook`` builds one :class:`Clock` from the settings (:func:`clock_from`) and
hands it to every service and Discord-facing component that reads the time; no other module
reads wall time (``tests/test_clock_reads.py`` checks it).

:class:`SystemClock` is the real time. :class:`OffsetClock` is for tests only
(``TEST_CLOCK_FILE``): the real time plus an offset in seconds read from a file, which the
fake Discord rewrites when a test moves time forward (``FakeDiscord.advance``), so a test of a
24-hour time-out waits for its sweep, not for a day.

What stays on ``time.monotonic()`` measures real elapsed time and must not move with this
clock: pacing of requests and rate limits, waits and timeouts of requests, database deadlines,
cache lifetimes, retry back-offs. The heartbeat of ``tabula health`` is also the system's own
time (:data:`SYSTEM_CLOCK`): another process judges it against its own.
"""

from __future__ import annotations

import datetime
import logging
import os
import time
from pathlib import Path
from typing import Protocol

__all__ = ["SYSTEM_CLOCK", "Clock", "OffsetClock", "SystemClock", "clock_from"]

log = logging.getLogger(__name__)


class Clock(Protocol):
    """Wall time: ``now()`` in seconds since the epoch, ``now_utc()`` the same moment as an
    aware UTC datetime (what discord.py's timestamps compare with)."""

    def now(self) -> float: ...

    def now_utc(self) -> datetime.datetime: ...


class SystemClock:
    """The real time."""

    def now(self) -> float:
        return time.time()

    def now_utc(self) -> datetime.datetime:
        return datetime.datetime.fromtimestamp(self.now(), datetime.UTC)


SYSTEM_CLOCK = SystemClock()


class OffsetClock:
    """The real time plus the offset (seconds, a decimal number) written in ``path``; no file
    is no offset. The file is read again only when it changed (its inode, size or mtime: the
    fake Discord replaces it whole), so reading this clock costs one ``stat``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._seen: tuple[int, int, int] | None = None
        self._offset = 0.0

    def offset(self) -> float:
        try:
            stat = os.stat(self.path)
        except FileNotFoundError:
            self._seen, self._offset = None, 0.0
            return 0.0
        seen = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
        if seen != self._seen:
            text = self.path.read_text(encoding="utf-8").strip()
            try:
                self._offset = float(text) if text else 0.0
            except ValueError:
                # A test's file, written by the tests' own code: keep the last good offset
                # rather than stop every sweep, and say why the clock did not move.
                log.warning("clock: %s holds %r, not a number of seconds", self.path, text)
            self._seen = seen
        return self._offset

    def now(self) -> float:
        return time.time() + self.offset()

    def now_utc(self) -> datetime.datetime:
        return datetime.datetime.fromtimestamp(self.now(), datetime.UTC)


def clock_from(test_clock_file: Path | None) -> Clock:
    """The clock the settings ask for: the system's, or (tests only) one offset by the
    seconds in ``test_clock_file``."""
    if test_clock_file is None:
        return SYSTEM_CLOCK
    log.warning("clock: the test clock in %s (a setting for tests only)", test_clock_file)
    return OffsetClock(test_clock_file)
