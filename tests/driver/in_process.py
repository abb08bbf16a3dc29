"""The real bot inside the test's own process and event loop, against a FakeDiscord.

The end-to-end lane runs the bot this way wherever killing or restarting a process is not the
point of the test: the same ``create_bot`` the command line runs, the same settings, the same
HTTP and gateway traffic through the fake (and its checks against Discord's OpenAPI
description and limits), but no interpreter to start and no modules to import per bot. The
process lane (SIGKILL, SIGTERM, shards, twins, crash points) keeps :class:`BotProcess`.

:class:`BotInProcess` answers what the tests ask of :class:`BotProcess`: ``start``,
``running``, ``output``, ``database_path``, ``log_path``; its ``kill`` and ``terminate`` both
close the bot the way a SIGTERM does, since nothing in a shared process can be killed.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import tempfile
from collections.abc import Mapping
from pathlib import Path

from bot import games
from bot.cli import point_at_discord
from bot.client import TabulaBot, create_bot
from bot.config import Settings
from bot.runtime import tune_interpreter
from sandbox.fake_discord import FakeDiscord
from tests.driver.process import START_TIMEOUT, BotExited, wait_identified

# The bot's own loggers and its libraries': the fake's and the test's lines stay out of the
# bot's log, as they would in a process of its own.
BOT_LOGGERS = ("bot", "cogs", "renderers", "tabula", "discord", "asyncio")
LOG_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"
EXTRA_GAMES = games.EXTRA_GAMES
CLOSE_GRACE = 15.0  # the bot finishes clicks under way for up to 10 s when it closes


def settings_of(env: Mapping[str, str]) -> Settings:
    """The bot's settings from environment-style names, as ``python -m bot`` reads them; a
    name the settings do not know is refused, since only a process would read it (a crash
    point): such a test belongs in the process lane. Extra games are registered by the bot
    in-process itself (:class:`BotInProcess`)."""
    fields = Settings.model_fields
    unknown = sorted(name for name in env if name.lower() not in fields and name != EXTRA_GAMES)
    if unknown:
        raise ValueError(
            f"{', '.join(unknown)} are read by a bot process only: run this test's bot as a "
            "process (module_bot(..., process=True))"
        )
    # Validated from these names alone: neither a .env file nor the test's environment.
    values = {name.lower(): value for name, value in env.items() if name != EXTRA_GAMES}
    return Settings.model_validate(values)


class BotInProcess:
    """The bot of ``env`` (environment-style settings) as a task of the running event loop."""

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        env: Mapping[str, str] | None = None,
        database_path: Path | None = None,
        log_path: Path | None = None,
    ) -> None:
        self.fake = fake
        workdir = Path(tempfile.mkdtemp(prefix="tabula-e2e-"))
        self.database_path = database_path or workdir / "tabula.sqlite3"
        self.log_path = log_path or workdir / "bot.log"
        self.extra_env = dict(env or {})
        self.client: TabulaBot | None = None
        self._task: asyncio.Task[None] | None = None
        self._handler: logging.Handler | None = None
        self._saved: dict[str, tuple[int, bool]] = {}
        self._registered: list[str] = []
        self.starts = 0

    def environment(self) -> dict[str, str]:
        return {
            **self.fake.env(),
            "DATABASE_PATH": str(self.database_path),
            "LOG_LEVEL": "DEBUG",
            "GUILD_READY_SECONDS": "0.3",  # the fake sends every guild at once
            **self.extra_env,
        }

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def start(
        self,
        *,
        timeout: float = START_TIMEOUT,  # noqa: ASYNC109 - every wait is bounded by default
        wait_sync: bool = True,
    ) -> None:
        """Start the bot; return once it has IDENTIFYed (and synced commands, if ``wait_sync``)."""
        if self.running:
            raise RuntimeError("the bot is already running")
        env = self.environment()
        settings = settings_of(env)
        self._register_extra_games(env.get(EXTRA_GAMES, ""))
        self._log_to_file(settings)
        identified = self.fake.gateway.count("identify")
        synced = self.fake.command_syncs
        self.starts += 1
        logging.getLogger("tabula").info("--- start %d: in the test process", self.starts)
        point_at_discord(settings)
        tune_interpreter()  # the bot's thread switching, which the fake in this process shares
        self.client = create_bot(settings)
        self._task = asyncio.create_task(self._serve(self.client, settings))

        await wait_identified(self, identified, synced, wait_sync=wait_sync, timeout=timeout)
        if not self.running:
            raise BotExited(f"the bot stopped:\n{self.output_tail()}")

    def _register_extra_games(self, modules: str) -> None:
        """What ``TABULA_EXTRA_GAMES`` does in a process: the games of these modules join the
        registry (this process's, which the test shares) until the bot is closed."""
        for path in filter(None, (p.strip() for p in modules.split(","))):
            spec = importlib.import_module(path).GAME
            if spec.kind not in {game.kind for game in games.all()}:
                games.register(spec)
                self._registered.append(spec.kind)

    async def _serve(self, client: TabulaBot, settings: Settings) -> None:
        try:
            async with client:
                await client.start(settings.discord_token.get_secret_value())
        except Exception:
            logging.getLogger("tabula").exception("the bot stopped with an error")

    def _log_to_file(self, settings: Settings) -> None:
        """The bot's own loggers write to its log file alone, at its level, as in a process of
        its own: not through the root logger, so pytest's capture does not format every line
        of the bot (CPU the bot's clicks would wait for) and the test's logging is unchanged.
        :meth:`detach_log` puts every logger back as it was."""
        if self._handler is not None:
            return
        handler = logging.FileHandler(self.log_path, encoding="utf-8")
        handler.setFormatter(logging.Formatter(LOG_FORMAT))
        self._handler = handler
        level = logging.getLevelName(settings.log_level.upper())
        for name in BOT_LOGGERS:
            logger = logging.getLogger(name)
            self._saved[name] = (logger.level, logger.propagate)
            logger.addHandler(handler)
            logger.propagate = False
            # As the command line sets it: the library's debug chatter stays out.
            logger.setLevel(max(logging.INFO, level) if name == "discord" else level)

    async def wait_connected(self, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Wait until the bot holds a gateway session again (after a kick or RECONNECT)."""
        await self.fake.wait_for(
            lambda: self.fake.gateway.connected or not self.running,
            timeout,
            what="the bot to reconnect",
        )
        if not self.running:
            raise BotExited(f"the bot stopped:\n{self.output_tail()}")

    async def terminate(self, grace: float = CLOSE_GRACE) -> None:
        """Close the bot as SIGTERM does (clicks under way finish), waiting up to ``grace``."""
        task, client = self._task, self.client
        if task is None or client is None:
            return
        if not task.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), grace)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(task), grace)
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._task = None
        for kind in self._registered:
            games.unregister(kind)
        self._registered.clear()

    async def kill(self) -> None:
        """Nothing in a shared process can be killed: closes the bot as :meth:`terminate`."""
        await self.terminate()

    def detach_log(self) -> None:
        """Put the bot's loggers back as they were before it started (after its last close)."""
        if self._handler is None:
            return
        for name, (level, propagate) in self._saved.items():
            logger = logging.getLogger(name)
            logger.removeHandler(self._handler)
            logger.setLevel(level)
            logger.propagate = propagate
        self._saved.clear()
        self._handler.close()
        self._handler = None

    def output(self) -> str:
        if self._handler is not None:
            self._handler.flush()
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def output_tail(self, lines: int = 60) -> str:
        return "\n".join(self.output().splitlines()[-lines:])
