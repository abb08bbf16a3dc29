"""Faults to test against: a TCP proxy that can stall, and a PostgreSQL server of the test's own.

- :class:`StallingProxy` sits on a loopback port in front of a real server. ``stall()`` makes
  it a network gone silent: bytes already on their way are held, new connections are
  accepted and never forwarded, nothing is refused or closed; ``flow()`` lets everything
  through again. ``stall_after(marker)`` forwards the client's packet that holds ``marker``
  (``b"COMMIT"``) and then stalls, so the server acts on it and its answer is lost.
- :class:`PgCluster` is a throwaway PostgreSQL cluster (``initdb`` into a temp dir, on a free
  port) that a test may stop (``fast`` or ``immediate``) and start again: never the machine's
  shared server, which other tests use. Run as root, its binaries run as the ``postgres``
  user. :func:`pg_binaries` finds them (``pg_config --bindir``, then the usual places) or
  says why not, for a skip.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path


class StallingProxy:
    def __init__(self, upstream_host: str, upstream_port: int) -> None:
        self.upstream = (upstream_host, upstream_port)
        self.flowing = asyncio.Event()
        self.flowing.set()
        self._marker: bytes | None = None
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self.port = 0

    async def start(self) -> StallingProxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self

    def stall(self) -> None:
        self.flowing.clear()

    def stall_after(self, marker: bytes) -> None:
        self._marker = marker

    def flow(self) -> None:
        self._marker = None
        self.flowing.set()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for writer in list(self._writers):
            writer.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            await self.flowing.wait()  # silent: the connection is accepted, nothing answers
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except (OSError, asyncio.CancelledError):
            writer.close()
            return
        self._writers.add(up_writer)
        for source, sink, watch in ((reader, up_writer, True), (up_reader, writer, False)):
            task = asyncio.create_task(self._pump(source, sink, watch))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pump(
        self, source: asyncio.StreamReader, sink: asyncio.StreamWriter, watch: bool
    ) -> None:
        try:
            while True:
                data = await source.read(65536)
                if not data:
                    break
                await self.flowing.wait()
                sink.write(data)
                await sink.drain()
                if watch and self._marker is not None and self._marker in data:
                    self.flowing.clear()  # the server got it; its answer is held
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            with contextlib.suppress(Exception):
                sink.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def pg_binaries() -> tuple[Path | None, str]:
    """The folder of PostgreSQL's server binaries, or None and why not."""
    candidates: list[str] = []
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        found = subprocess.run(
            ["pg_config", "--bindir"], capture_output=True, text=True, timeout=10, check=True
        )
        candidates.append(found.stdout.strip())
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    candidates += [str(Path(p).parent) for p in filter(None, [shutil.which("pg_ctl")])]
    for folder in candidates:
        if folder and (Path(folder) / "pg_ctl").exists() and (Path(folder) / "initdb").exists():
            return Path(folder), ""
    return None, "no PostgreSQL server binaries (initdb, pg_ctl) on this machine"


class ClusterUnavailable(RuntimeError):
    """A cluster of the test's own cannot be made here (the reason is the message)."""


class PgCluster:
    """A PostgreSQL cluster of the test's own (see the module docstring)."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="tabula-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self._as: Callable[[], None] | None = None
        self._uid: int | None = None
        if os.geteuid() == 0:  # the server refuses to run as root
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                raise ClusterUnavailable("running as root, and there is no postgres user") from None
            self._uid = user.pw_uid
            os.chown(self.root, user.pw_uid, user.pw_gid)
            uid, gid = user.pw_uid, user.pw_gid

            def demote() -> None:
                os.setgid(gid)
                os.setuid(uid)

            self._as = demote

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str, timeout: float = 60.0) -> None:
        subprocess.run(
            list(args),
            check=True,
            capture_output=True,
            timeout=timeout,
            preexec_fn=self._as,
            cwd=self.root,
        )

    def init(self) -> None:
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--no-sync",
            "-E",
            "UTF8",
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' "
            "-c fsync=off -c full_page_writes=off -c shared_buffers=16MB -c max_connections=60"
        )
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "server.log"),
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)
