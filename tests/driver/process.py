"""A bot as a real subprocess against a FakeDiscord (``python -m bot``, or another module or
script), stopped for sure afterwards: the bot of the process lane."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import os
import signal
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

import aiohttp

from sandbox.fake_discord import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 20.0
PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """Linux: the bot gets SIGKILL when the test process dies, so none outlives a crashed run."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class StartingBot(Protocol):
    """What :func:`wait_identified` reads of a bot being started, a process or not."""

    fake: FakeDiscord

    @property
    def running(self) -> bool: ...

    def output_tail(self, lines: int = 60) -> str: ...


async def wait_identified(
    bot: StartingBot,
    identified: int,
    synced: int,
    *,
    wait_sync: bool,
    timeout: float,  # noqa: ASYNC109
) -> None:
    """Until the bot has IDENTIFYed since ``identified`` identifies (and synced commands since
    ``synced`` syncs, if ``wait_sync``), or stopped; a timeout carries the bot's output."""

    def up() -> bool:
        if not bot.running:
            return True
        if bot.fake.gateway.count("identify") <= identified or not bot.fake.gateway.connected:
            return False
        return not wait_sync or bot.fake.command_syncs > synced

    try:
        await bot.fake.wait_for(up, timeout, what="the bot to IDENTIFY and sync commands")
    except TimeoutError as error:
        raise TimeoutError(f"{error}\n--- bot output ---\n{bot.output_tail()}") from None


class BotExited(RuntimeError):
    """The bot process ended while the test was waiting for it."""


class BotProcess:
    """``python -m <module>``, or ``python <script>`` for a path, with the fake's environment.

    ``env`` adds to (or overrides) the environment. Output (stdout and stderr) goes to
    ``log_path``; ``output()`` reads it back for debugging.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        module: str | Path = "bot",
        *,
        env: Mapping[str, str] | None = None,
        database_path: Path | None = None,
        log_path: Path | None = None,
        cwd: Path = REPO_ROOT,
    ) -> None:
        self.fake = fake
        self.module = module
        workdir = Path(tempfile.mkdtemp(prefix="tabula-e2e-"))
        self.database_path = database_path or workdir / "tabula.sqlite3"
        self.log_path = log_path or workdir / "bot.log"
        self.cwd = cwd
        self.extra_env = dict(env or {})
        self._proc: asyncio.subprocess.Process | None = None
        self.starts = 0

    # -- environment ---------------------------------------------------------------------------

    def environment(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(self.fake.env())
        env.update(
            {
                "DATABASE_PATH": str(self.database_path),
                "LOG_LEVEL": "DEBUG",
                "PYTHONUNBUFFERED": "1",
                # The fake sends every guild at once: READY need not wait discord.py's 2 s.
                "GUILD_READY_SECONDS": "0.3",
                "PYTHONPATH": os.pathsep.join(
                    p for p in (str(self.cwd), env.get("PYTHONPATH", "")) if p
                ),
            }
        )
        env.update(self.extra_env)
        return env

    def command(self) -> list[str]:
        if isinstance(self.module, Path) or self.module.endswith(".py"):
            return [sys.executable, str(self.module)]
        return [sys.executable, "-m", self.module]

    # -- lifecycle -----------------------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    @property
    def returncode(self) -> int | None:
        return self._proc.returncode if self._proc is not None else None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.returncode is None

    async def start(
        self,
        *,
        timeout: float = START_TIMEOUT,  # noqa: ASYNC109 - every wait is bounded by default
        wait_sync: bool = True,
    ) -> None:
        """Spawn the bot; return once it has IDENTIFYed (and synced commands, if ``wait_sync``).

        Counts are taken before spawning, so a restart waits for the new process's own
        IDENTIFY and sync, not for those of the process it replaces.
        """
        if self.running:
            raise RuntimeError("the bot process is already running")
        identified = self.fake.gateway.count("identify")
        synced = self.fake.command_syncs
        self.starts += 1
        with self.log_path.open("ab") as log:
            log.write(f"--- start {self.starts}: {' '.join(self.command())}\n".encode())
            log.flush()
            self._proc = await asyncio.create_subprocess_exec(
                *self.command(),
                cwd=self.cwd,
                env=self.environment(),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
                preexec_fn=_die_with_parent if sys.platform == "linux" else None,
            )

        await wait_identified(self, identified, synced, wait_sync=wait_sync, timeout=timeout)
        if not self.running:
            raise BotExited(f"the bot exited with {self.returncode}:\n{self.output_tail()}")

    async def wait_connected(self, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Wait until the bot holds a gateway session again (after a kick or RECONNECT)."""
        await self.fake.wait_for(
            lambda: self.fake.gateway.connected or not self.running,
            timeout,
            what="the bot to reconnect",
        )
        if not self.running:
            raise BotExited(f"the bot exited with {self.returncode}:\n{self.output_tail()}")

    async def kill(self) -> int | None:
        """SIGKILL: no cleanup at all, like a crash or an OOM kill."""
        return await self._stop(signal.SIGKILL, grace=5.0)

    async def terminate(self, grace: float = 10.0) -> int | None:
        """SIGTERM and wait for a clean exit; SIGKILL if it takes longer than ``grace`` seconds."""
        return await self._stop(signal.SIGTERM, grace=grace)

    async def _stop(self, sig: signal.Signals, *, grace: float) -> int | None:
        proc = self._proc
        if proc is None:
            return None
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(sig)
            try:
                await asyncio.wait_for(proc.wait(), grace)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await asyncio.wait_for(proc.wait(), 5.0)
        return proc.returncode

    async def __aenter__(self) -> BotProcess:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.kill()

    # -- output --------------------------------------------------------------------------------

    def output(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def output_tail(self, lines: int = 60) -> str:
        return "\n".join(self.output().splitlines()[-lines:])


class RawGateway:
    """A bare gateway client, to test the fake's own contract (IDENTIFY, shards, dispatch
    order, RESUME replay) below discord.py: read frames, prove nothing else came."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.seq = 0

    async def recv(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(await self.ws.receive_str(timeout=3.0))
        if frame.get("s"):
            self.seq = frame["s"]
        return frame

    async def until(self, event: str) -> dict[str, Any]:
        while True:
            frame = await self.recv()
            if frame.get("t") == event:
                return frame

    async def nothing_pending(self) -> None:
        """Frames come in order, so an immediate heartbeat ACK means no dispatch was queued."""
        await self.ws.send_json({"op": 1, "d": self.seq})
        frame = await self.recv()
        assert frame["op"] == 11, f"expected nothing before the heartbeat ACK, got {frame}"

    async def guilds_created(self, count: int) -> set[int]:
        return {int((await self.until("GUILD_CREATE"))["d"]["id"]) for _ in range(count)}
