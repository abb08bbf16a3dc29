"""Liveness for container health checks: the bot writes a heartbeat, ``tabula health`` reads it.

A health probe runs in a separate process (Docker's ``HEALTHCHECK``), so it cannot ask the bot
directly. Instead the running bot writes a small JSON file every ``HEALTH_INTERVAL_SECONDS``:
whether it holds a live gateway session and whether a write reaches the database. The probe
is unhealthy when the file is missing, too old (the bot is gone or its event loop is stuck), or
reports a problem. Its times are the system's own (``bot.clock.SYSTEM_CLOCK``), never the
tests' moved clock: the probe, another process, judges a heartbeat's age against its own.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Awaitable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

from bot.clock import SYSTEM_CLOCK
from bot.config import Settings
from bot.periodic import Periodic

__all__ = [
    "HealthReporter",
    "Heartbeat",
    "check",
    "health_path",
    "max_age_for",
]

log = logging.getLogger(__name__)

# A probe of the database that does not answer in this time counts as a failure: the lock is
# held far longer than any transaction should take.
DB_PROBE_TIMEOUT = 10.0


class _Writable(Protocol):
    def check_writable(self) -> Awaitable[bool]: ...


class Observed(Protocol):
    """What the reporter reads from the bot (``TabulaBot`` after ``setup_hook`` opened the db)."""

    @property
    def ws(self) -> Any: ...

    @property
    def db(self) -> _Writable: ...

    def is_closed(self) -> bool: ...

    def is_ready(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class Heartbeat:
    at: float  # Unix time: the probe runs in another process, so no monotonic clock
    connected: bool
    db_ok: bool
    pid: int
    stopping: bool = False

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Heartbeat:
        data = json.loads(text)
        return cls(
            at=float(data["at"]),
            connected=bool(data["connected"]),
            db_ok=bool(data["db_ok"]),
            pid=int(data["pid"]),
            stopping=bool(data.get("stopping", False)),
        )


def health_path(settings: Settings) -> Path:
    """``HEALTH_FILE``, or by default a file next to the database (one per bot instance)."""
    if settings.health_file is not None:
        return settings.health_file
    return settings.database_path.with_name(settings.database_path.name + ".health")


def max_age_for(settings: Settings) -> float:
    """How old a heartbeat may be: three missed beats, so one slow probe is no alarm."""
    return 3 * settings.health_interval_seconds


def is_connected(bot: Observed) -> bool:
    if bot.is_closed() or not bot.is_ready():
        return False
    # A sharded bot (discord.AutoShardedClient) has a connection per shard and no ``ws``:
    # healthy while every one of its shards is connected.
    shards = getattr(bot, "shards", None)
    if isinstance(shards, dict):
        return bool(shards) and not any(shard.is_closed() for shard in shards.values())
    ws = bot.ws
    return ws is not None and bool(ws.open)


def _write(path: Path, text: str) -> None:
    # Write then rename, so a probe never reads half a file.
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)


class HealthReporter:
    """Writes a :class:`Heartbeat` for ``bot`` to ``path`` every ``every`` seconds."""

    def __init__(self, bot: Observed, path: Path, every: float) -> None:
        self.bot = bot
        self.path = path
        self.every = every
        # The reporter must outlive any one failed probe.
        self._timer = Periodic("health-reporter", self.beat, every=every)
        self._warned = False

    async def probe(self) -> Heartbeat:
        try:
            db_ok = await asyncio.wait_for(self.bot.db.check_writable(), DB_PROBE_TIMEOUT)
        except TimeoutError:
            log.warning("database probe did not finish within %.0f s", DB_PROBE_TIMEOUT)
            db_ok = False
        return Heartbeat(SYSTEM_CLOCK.now(), is_connected(self.bot), db_ok, os.getpid())

    async def write(self, beat: Heartbeat) -> None:
        try:
            await asyncio.to_thread(_write, self.path, beat.to_json())
        except OSError as error:
            # An unwritable heartbeat makes the container unhealthy, which is the right alarm;
            # say why once instead of every 15 seconds.
            if not self._warned:
                log.warning("cannot write the health file %s: %s", self.path, error)
                self._warned = True
        else:
            self._warned = False

    async def beat(self) -> Heartbeat:
        """Probe once and write the result."""
        beat = await self.probe()
        await self.write(beat)
        return beat

    def start(self) -> None:
        self._timer.start()

    async def stop(self) -> None:
        """Stop beating and record that the bot is going away (unhealthy from now on)."""
        await self._timer.stop()
        await self.write(Heartbeat(SYSTEM_CLOCK.now(), False, False, os.getpid(), stopping=True))


def check(path: Path, max_age: float, *, now: float | None = None) -> tuple[bool, str]:
    """Judge the heartbeat at ``path``: ``(True, summary)`` or ``(False, what is wrong)``."""
    try:
        beat = Heartbeat.from_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False, f"no heartbeat at {path}: the bot is not running (or still starting)"
    except (OSError, ValueError, KeyError, TypeError) as error:
        return False, f"unreadable heartbeat at {path}: {error}"
    age = (SYSTEM_CLOCK.now() if now is None else now) - beat.at
    if beat.stopping:
        return False, "the bot is shutting down"
    if age > max_age:
        return False, (
            f"the last heartbeat is {age:.0f} s old (limit {max_age:.0f} s): "
            "the bot stopped or its event loop is stuck"
        )
    if not beat.connected:
        return False, "not connected to the Discord gateway"
    if not beat.db_ok:
        return False, "the database is not writable"
    return True, f"connected, database writable, heartbeat {max(age, 0.0):.0f} s old"
