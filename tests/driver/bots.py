"""A bot's life in a test: a fake Discord and the bot on a fresh database
(:func:`running_bot`, or one bot shared by a module: :func:`module_bot`), in the test's own
process (:class:`~tests.driver.in_process.BotInProcess`) or as ``python -m bot``
(:class:`~tests.driver.process.BotProcess`); its restart, and its log read back."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot import storage as store
from sandbox.fake_discord import FakeDiscord
from sandbox.fake_model import Channel, User
from tests.driver.in_process import BotInProcess
from tests.driver.process import BotProcess
from tests.driver.timeouts import STEP_TIMEOUT

BOT_ENV = {
    "AI_MOVE_DELAY_SECONDS": "0",
    "EXPERT_WORKERS": "0",  # bgsage workers: only the review test starts them
    "LOG_LEVEL": "INFO",  # DEBUG is verbose: slower, and the log is read back
}
READY_LINE = "bot.client: connected as"


@dataclass
class BotEnv:
    """A running bot on a fake Discord, with its database file."""

    fake: FakeDiscord
    bot: BotProcess | BotInProcess
    workdir: Path
    _db: store.Database | None = None
    _members: dict[str, User] = field(default_factory=dict)
    # Members who turned automatic rolls off (/prefs): their every roll is a click.
    manual_rollers: set[int] = field(default_factory=set)

    async def set_auto_roll(self, user: User, on: bool, channel: Channel | None = None) -> None:
        """``/prefs auto_roll:on|off`` as ``user`` (in ``channel``: one of their server's)."""
        chosen = {"auto_roll": "on" if on else "off"}
        asked = await self.fake.slash(user, "prefs", chosen, channel=channel)
        reply = await self.fake.response_of(asked, timeout=STEP_TIMEOUT)
        assert reply.ephemeral and "Saved" in reply.text, reply.text
        (self.manual_rollers.discard if on else self.manual_rollers.add)(user.id)

    async def member(self, name: str) -> User:
        """A guild member called ``name`` (made on first use; names are unique per env)."""
        if name not in self._members:
            self._members[name] = await self.fake.add_member(name)
        return self._members[name]

    async def channel(self, name: str) -> Channel:
        """A fresh text channel, so that tests sharing one bot do not meet."""
        return await self.fake.add_channel(name)

    async def db(self) -> store.Database:
        """The bot's database, opened once by the test (WAL: reads do not block the bot)."""
        if self._db is None:
            self._db = await store.Database.open(self.bot.database_path)
        return self._db

    async def restart(self, *, kill: bool = True) -> float:
        """Stop the bot (SIGKILL by default) and start it again on the same database.

        Returns the monotonic time of the new start, to tell refreshed messages apart.
        """
        if isinstance(self.bot, BotInProcess):
            raise RuntimeError("an in-process bot cannot be killed: module_bot(process=True)")
        if kill:
            await self.bot.kill()
        else:
            await self.bot.terminate()
        started = time.monotonic()
        await start_and_wait_ready(self.bot)
        return started

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None
        await self.bot.kill()
        if isinstance(self.bot, BotInProcess):
            self.bot.detach_log()


async def start_and_wait_ready(
    bot: BotProcess | BotInProcess,
    timeout: float = 40.0,  # noqa: ASYNC109
) -> None:
    """Start the bot and wait for ``on_ready`` (its log line), when it refreshes old boards.

    The harness returns at IDENTIFY and command sync; discord.py fires ``on_ready`` about two
    seconds later, after the guilds arrived.
    """
    seen = bot.output().count(READY_LINE)
    await bot.start(timeout=timeout)
    await bot.fake.wait_for(
        lambda: bot.output().count(READY_LINE) > seen or not bot.running,
        timeout,
        what="the bot's on_ready",
    )
    if not bot.running:
        raise RuntimeError(f"the bot exited:\n{bot.output_tail()}")


def bot_process(
    fake: FakeDiscord,
    workdir: Path,
    env: Mapping[str, str] | None = None,
    *,
    name: str = "bot",
    database: str = "tabula.sqlite3",
) -> BotProcess:
    """``python -m bot`` (not started) with the tests' settings and ``env``, its SQLite
    ``database`` and its log (``<name>.log``) in ``workdir``. Like every bot of ``fake``'s, it
    keeps the fake's time (``TEST_CLOCK_FILE`` from ``fake.env()``): ``fake.advance`` moves
    its clock."""
    return BotProcess(
        fake,
        "bot",
        env={**BOT_ENV, **(env or {})},
        database_path=workdir / database,
        log_path=workdir / f"{name}.log",
    )


@asynccontextmanager
async def running_bot(
    workdir: Path, env: Mapping[str, str] | None = None, *, process: bool = False
) -> AsyncIterator[BotEnv]:
    """A fake Discord and the bot on a new database in ``workdir``: as ``python -m bot``, or
    in the test's own process and event loop where ``process`` is false (see "The test
    lanes" in docs/architecture.md for when that is cheaper and when it is not)."""
    async with FakeDiscord() as fake:
        bot: BotProcess | BotInProcess
        if process:
            bot = bot_process(fake, workdir, env)
        else:
            bot = BotInProcess(
                fake,
                env={**BOT_ENV, **(env or {})},
                database_path=workdir / "tabula.sqlite3",
                log_path=workdir / "bot.log",
            )
        bot_env = BotEnv(fake, bot, workdir)
        try:
            await start_and_wait_ready(bot)
            yield bot_env
        finally:
            await bot_env.close()
            # pytest shows this only for a failing test (module fixtures: at teardown).
            print(f"--- {bot.log_path} (no access lines) ---\n{log_tail(bot)}")
        # A request cut off by SIGKILL mid-upload is logged by the fake as its own failure;
        # it is the client's doing, so only other errors count here.
        failures = [e for e in fake.server_errors if "Connection lost" not in e]
        assert not failures, "the fake Discord failed:\n" + "\n".join(failures)


def module_marks(timeout: float, *, process: bool = False) -> list[pytest.MarkDecorator]:
    """``pytestmark`` of a module whose tests share one running bot: end-to-end (or the
    process lane, where ``process``), one event loop for the whole module, and ``timeout``
    seconds a test."""
    lane = pytest.mark.processes if process else pytest.mark.e2e
    return [lane, pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(timeout)]


def module_bot(
    folder: str, settings: Mapping[str, str] | None = None, *, process: bool = False
) -> Any:
    """The ``env`` fixture of a module: one bot with ``settings`` on a fresh database in a
    new ``folder``, shared by all the module's tests (``env = module_bot("races")``); in the
    test's own process where ``process`` is false (see :func:`running_bot`)."""

    @pytest_asyncio.fixture(scope="module", loop_scope="module", name="env")
    async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
        workdir = tmp_path_factory.mktemp(folder)
        async with running_bot(workdir, settings, process=process) as bot_env:
            yield bot_env

    return env


def log_tail(bot: BotProcess | BotInProcess, lines: int = 80) -> str:
    """The end of the bot's log without the one-line-per-click access log."""
    kept = [line for line in bot.output().splitlines() if "tabula.access" not in line]
    return "\n".join(kept[-lines:])


def problems_in_log(bot: BotProcess | BotInProcess) -> list[str]:
    """Errors and tracebacks the bot logged (warnings such as slow renders are not counted)."""
    return [
        line
        for line in bot.output().splitlines()
        if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback")
    ]


async def settle_quietly(env: BotEnv, quiet: float = 0.4) -> None:
    """Wait until the bot stops talking to Discord (its AI turns and board edits are done)."""
    with contextlib.suppress(TimeoutError):
        await env.fake.idle(quiet=quiet, timeout=STEP_TIMEOUT)
