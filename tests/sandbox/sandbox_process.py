"""``tabula sandbox --no-browser`` as a child process of the tests, stopped for sure afterwards."""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

# The sandbox's bot, as the e2e tests run it: no pause before AI moves, no bgsage workers.
SANDBOX_ENV = {
    "AI_MOVE_DELAY_SECONDS": "0",
    "EXPERT_WORKERS": "0",
    "LOG_LEVEL": "INFO",
    "GUILD_READY_SECONDS": "0.3",  # the fake sends every guild at once
}
PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def tabula_command() -> list[str]:
    """The installed ``tabula`` console script next to this Python, else ``python -m bot``."""
    script = Path(sys.executable).with_name("tabula")
    return [str(script)] if script.exists() else [sys.executable, "-m", "bot"]


class SandboxProcess:
    def __init__(self, workdir: Path, *, port: int | None = None, keep: bool = True) -> None:
        """``keep``: the games go to ``workdir/sandbox.sqlite3`` (``--database``); otherwise
        the sandbox uses a temporary file of its own."""
        self.port = port or free_port()
        self.database = workdir / "sandbox.sqlite3"
        self.keep = keep
        self.output_path = workdir / "sandbox.out"
        self.proc: subprocess.Popen[bytes] | None = None
        self.started_at = 0.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, **SANDBOX_ENV}
        command = [
            *tabula_command(),
            "sandbox",
            "--no-browser",
            "--port",
            str(self.port),
            *(["--database", str(self.database)] if self.keep else []),
        ]
        self.started_at = time.monotonic()
        with self.output_path.open("ab") as out:
            self.proc = subprocess.Popen(
                command,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                preexec_fn=_die_with_parent if sys.platform == "linux" else None,
            )

    def get(self, path: str, timeout: float = 5.0) -> tuple[int, bytes]:
        with urllib.request.urlopen(self.url + path, timeout=timeout) as response:
            return int(response.status), bytes(response.read())

    def state(self) -> dict[str, Any]:
        _, body = self.get("/sandbox/state")
        found: dict[str, Any] = json.loads(body)
        return found

    def wait_page(self, timeout: float = 20.0) -> float:
        """Seconds from the start until ``GET /`` answered 200."""
        deadline = self.started_at + timeout
        while time.monotonic() < deadline:
            self._check_running()
            with contextlib.suppress(OSError, urllib.error.URLError):
                status, _ = self.get("/", timeout=1.0)
                if status == 200:
                    return time.monotonic() - self.started_at
            time.sleep(0.02)
        raise TimeoutError(f"no page within {timeout}s:\n{self.output()}")

    def wait_online(self, timeout: float = 60.0) -> dict[str, Any]:
        """The page state once the bot is connected and its commands are registered."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._check_running()
            with contextlib.suppress(OSError, urllib.error.URLError):
                state = self.state()
                if state["bot"]["state"] == "online":
                    return state
            time.sleep(0.1)
        raise TimeoutError(f"the bot did not come online within {timeout}s:\n{self.output()}")

    def _check_running(self) -> None:
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise RuntimeError(f"the sandbox exited with {self.proc.returncode}:\n{self.output()}")

    def interrupt(self, timeout: float = 20.0) -> int:
        """Ctrl-C: SIGINT to the sandbox only; its exit code."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGINT)
        return self.proc.wait(timeout)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def output(self) -> str:
        try:
            return self.output_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""
