"""``tabula sandbox``: the real bot against a local Discord emulator, shown as a web page.

The emulator (``FakeDiscord``) listens on 127.0.0.1 and also serves the page. The bot is
``python -m bot`` in a child process, unchanged, pointed at the emulator through
``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL`` with a made-up token, and it ignores any
``.env`` (the sandbox must never reach a real server). Ctrl-C (or SIGTERM) stops the bot the
way ``docker compose stop`` does, then the emulator.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import os
import secrets
import shutil
import signal
import sys
import tempfile
import time
import webbrowser
from collections.abc import Mapping, Sequence
from pathlib import Path

from sandbox.fake_discord import FakeDiscord
from sandbox.fake_model import User
from sandbox.page_api import PageApi
from sandbox.page_view import BotStatus

DEFAULT_PORT = 8765
UR_TABLE_FILE = "ur-table.bin"  # as the bot names it (bot.config); the sandbox imports no bot
GUILD_NAME = "Tabula Sandbox"
CHANNELS = ("general", "games", "lounge")
OWNER = "Ada"  # owns the server, so /settings works for her
MEMBERS = ("Ben", "Cleo", "Dan")
STOP_GRACE_SECONDS = 12.0  # the bot finishes clicks under way for up to 10 s
EXIT_USAGE = 2  # as the bot's own exit code for a configuration problem
PACKAGE_ROOT = Path(__file__).resolve().parents[2]
PR_SET_PDEATHSIG = 1


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="tabula sandbox",
        description="Try Tabula without Discord: the real bot in a local Discord-like page.",
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="default: 8765")
    parser.add_argument(
        "--database",
        type=Path,
        help="keep the games in this SQLite file (default: a temporary one)",
    )
    parser.add_argument(
        "--ur-table",
        type=Path,
        help="the solved Ur table for the perfect level and Ur reviews (default: UR_TABLE_PATH, "
        "else ur-table.bin in the user's cache folder, e.g. ~/.cache/tabula/)",
    )
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    return parser.parse_args(argv)


def ur_table_default(env: Mapping[str, str]) -> Path:
    """Where the sandbox's bot looks for the Ur table without ``--ur-table``: the
    ``UR_TABLE_PATH`` of the environment, else the user's cache folder (``XDG_CACHE_HOME``,
    else ``~/.cache``; ``%LOCALAPPDATA%`` on Windows), ``tabula/ur-table.bin``. Not the
    sandbox's temporary folder: a table takes an hour to build and should outlive it."""
    if env.get("UR_TABLE_PATH"):
        return Path(env["UR_TABLE_PATH"]).expanduser()
    if sys.platform == "win32" and env.get("LOCALAPPDATA"):
        cache = Path(env["LOCALAPPDATA"])
    elif env.get("XDG_CACHE_HOME"):
        cache = Path(env["XDG_CACHE_HOME"])
    else:
        cache = Path.home() / ".cache"
    return cache / "tabula" / UR_TABLE_FILE


def game_tables_default(env: Mapping[str, str], ur_table: Path) -> Path:
    """Where the sandbox's bot looks for the other games' solved tables (``GAME_TABLES``):
    the environment's, else the Ur table's folder, so that one cache folder holds them all."""
    if env.get("GAME_TABLES"):
        return Path(env["GAME_TABLES"]).expanduser()
    return ur_table.parent


def run_sandbox(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    if args.database is not None and not args.database.expanduser().resolve().parent.is_dir():
        print(
            f"tabula sandbox: {args.database.parent} does not exist: --database needs a file "
            "in an existing folder.",
            file=sys.stderr,
        )
        return EXIT_USAGE
    sandbox = Sandbox(
        args.port,
        args.database,
        open_browser=not args.no_browser,
        ur_table=args.ur_table or ur_table_default(os.environ),
    )
    return asyncio.run(sandbox.run())


def _die_with_parent() -> None:
    """Linux: the bot gets SIGKILL if the sandbox itself is killed, so none is left behind."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class Sandbox:
    def __init__(
        self,
        port: int,
        database: Path | None,
        *,
        open_browser: bool,
        ur_table: Path | None = None,
    ) -> None:
        self.port = port
        self.database = database
        self.ur_table = (ur_table or ur_table_default(os.environ)).expanduser().resolve()
        self.open_browser = open_browser
        self.status = BotStatus()
        self.workdir = Path(tempfile.mkdtemp(prefix="tabula-sandbox-"))
        # A kept database keeps the bot's log beside it. A temporary one goes with the
        # sandbox, but its log stays (in the temporary directory, named by the time): after
        # a surprise is when it is read.
        stamp = time.strftime("%Y%m%d-%H%M%S")
        self.log_path = (
            self.database_path().with_name(self.database_path().name + ".log")
            if database is not None
            else Path(tempfile.gettempdir()) / f"tabula-sandbox-{stamp}-{os.getpid()}.log"
        )
        self.fake = FakeDiscord(
            token=secrets.token_urlsafe(24),
            guild_name=GUILD_NAME,
            channel_names=CHANNELS,
            owner_name=OWNER,
            port=port,
        )
        self.members: list[User] = [self.fake.owner]
        self.page = PageApi(self.fake, self.members, self.status)
        self.fake.route_installers.append(self.page.install)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.fake.port}"

    def database_path(self) -> Path:
        if self.database is not None:
            return self.database.expanduser().resolve()
        return self.workdir / "tabula.sqlite3"

    async def run(self) -> int:
        try:
            try:
                await self.fake.start()
            except OSError as error:
                print(
                    f"tabula sandbox: cannot listen on 127.0.0.1:{self.port} ({error.strerror}). "
                    "Choose another port with --port.",
                    file=sys.stderr,
                )
                return EXIT_USAGE
            try:
                return await self._serve()
            finally:
                await self.fake.stop()
        finally:
            shutil.rmtree(self.workdir, ignore_errors=True)
            if self.log_path.exists():
                print(f"tabula sandbox: the bot's log is kept: {self.log_path}", flush=True)

    async def _serve(self) -> int:
        for name in MEMBERS:
            self.members.append(await self.fake.add_member(name))
        # The pretend members' own group DM, where the app installed on their accounts plays
        # (the bot is no member there); the bot's DMs to each appear once it sends one.
        await self.fake.group_dm(self.members)
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            # Windows has no asyncio signal handlers: there Ctrl-C interrupts asyncio.run.
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        print(f"Tabula sandbox: {self.url}  (Ctrl-C stops it)", flush=True)
        print(f"  the bot's log: {self.log_path}", flush=True)
        found = (
            "found"
            if self.ur_table.is_file()
            else f"missing: build it with `tabula ur-table build --out {self.ur_table}`"
        )
        print(f"  the Ur table (perfect level, Ur reviews): {self.ur_table} ({found})", flush=True)
        print(
            "  the other games' solved tables (GAME_TABLES, each its own file): "
            f"{game_tables_default(os.environ, self.ur_table)}",
            flush=True,
        )
        if self.open_browser:
            await asyncio.to_thread(webbrowser.open, self.url)
        bot = await self._spawn_bot()
        exited = asyncio.ensure_future(bot.wait())
        stopping = asyncio.ensure_future(stop.wait())
        await asyncio.wait([exited, stopping], return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if exited.done():
            code = exited.result()
            self._stopped(f"the bot exited with code {code}")
            print(f"tabula sandbox: the bot exited with code {code}:", file=sys.stderr)
            print(self._log_tail(), file=sys.stderr)
            return code or 1
        print("tabula sandbox: stopping", flush=True)
        code = await self._stop_bot(bot)
        self._stopped("the sandbox was stopped")
        return 0 if code in (0, -signal.SIGTERM) else 1

    async def _spawn_bot(self) -> asyncio.subprocess.Process:
        env = dict(os.environ)
        env.pop("DEV_GUILD_ID", None)  # a real test server's id means nothing here
        env.update(self.fake.env())
        env.pop("TEST_CLOCK_FILE", None)  # a person's sandbox runs on the real time
        env["DATABASE_PATH"] = str(self.database_path())
        env["UR_TABLE_PATH"] = str(self.ur_table)
        env["GAME_TABLES"] = str(game_tables_default(os.environ, self.ur_table))
        # Never the heartbeat file of a real bot on this machine.
        env["HEALTH_FILE"] = str(self.workdir / "health.json")
        env.setdefault("LOG_LEVEL", "INFO")
        env["PYTHONUNBUFFERED"] = "1"
        # The same code as this process, wherever it was started from.
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(PACKAGE_ROOT), env.get("PYTHONPATH", "")) if p
        )
        no_env_file = self.workdir / "no.env"  # never created: the user's .env stays unread
        with self.log_path.open("ab") as log:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                "run",
                "--env-file",
                str(no_env_file),
                cwd=self.workdir,
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
                # Ctrl-C in a terminal signals the whole foreground group; the sandbox stops
                # the bot itself, before the emulator, so the bot is not in that group.
                start_new_session=True,
                preexec_fn=_die_with_parent if sys.platform == "linux" else None,
            )
        self.status.pid = process.pid
        self.status.state = "starting"
        self.fake.notify_change()
        return process

    async def _stop_bot(self, bot: asyncio.subprocess.Process) -> int:
        """SIGTERM, as ``docker compose stop`` does; SIGKILL if it does not end in time."""
        with contextlib.suppress(ProcessLookupError):
            bot.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(bot.wait(), STOP_GRACE_SECONDS)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                bot.kill()
            return await bot.wait()

    def _stopped(self, detail: str) -> None:
        self.status.state = "stopped"
        self.status.detail = detail
        self.fake.notify_change()

    def _log_tail(self, lines: int = 30) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return "(no output)"
        return "\n".join(text.splitlines()[-lines:])
