"""The bot: a ``commands.Bot`` whose ``setup_hook`` wires storage, services, buttons and cogs."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord
from discord.ext import commands

import renderers
from bot import games
from bot.ai import ur_table
from bot.ai.pool import ExpertPool
from bot.config import Settings, ur_table_path
from bot.health import HealthReporter, health_path
from bot.runtime import PauseWatch, freeze_startup_heap
from bot.service.boards import ShownBoards
from bot.service.challenges import ChallengeService
from bot.service.errors import MalformedButton
from bot.service.games import GameService
from bot.service.ratings import RatingService
from bot.service.review import ReviewService
from bot.service.settings import GuildSettingsService
from bot.service.ur_review import install_table
from bot.storage.database import Database
from bot.translator import CatalogueTranslator
from bot.ui.buttons import answer_undispatched
from bot.ui.challenges import ChallengeUI
from bot.ui.clicks import Clicks
from bot.ui.clocks import ClockUI
from bot.ui.driver import GameDriver
from bot.ui.leaderboard import LeaderboardUI
from bot.ui.replies import reply_error
from bot.ui.review import ReviewUI
from bot.ui.services import Services

log = logging.getLogger(__name__)

# On SIGTERM, clicks and AI moves under way get this long to finish before the gateway closes.
SHUTDOWN_DRAIN_SECONDS = 10.0

COGS = ("cogs.games", "cogs.info", "cogs.admin", "cogs.stats", "cogs.review")


class TabulaBot(commands.Bot):
    db: Database
    services: Services
    expert: ExpertPool
    clicks: Clicks
    driver: GameDriver
    challenges: ChallengeUI
    leaderboard: LeaderboardUI
    review_ui: ReviewUI
    clocks: ClockUI
    health: HealthReporter

    def __init__(self, settings: Settings) -> None:
        # Guilds only (channels, threads, roles for permission checks): clicks and commands
        # arrive as interactions whatever the intents, and the bot reads no messages, so
        # message events would only cost the event loop a parse per board edit.
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.config = settings
        self.ready_once = False
        # What setup_hook started, stopped in reverse by close(): the parts that need the
        # gateway (clicks under way, AI moves, sweepers) before it closes, the rest after.
        self._before_gateway = contextlib.AsyncExitStack()
        self._after_gateway = contextlib.AsyncExitStack()

    async def setup_hook(self) -> None:
        later, sooner = self._after_gateway, self._before_gateway
        gc_watch = PauseWatch()
        gc_watch.install()
        sooner.callback(gc_watch.remove)
        self.db = await Database.open(self.config.database_path)
        later.push_async_callback(self.db.close)
        settings = GuildSettingsService(self.db, self.config)
        ratings = RatingService(self.db)
        await ratings.rebuild()  # ratings are derived data: recompute from the results
        self.expert = ExpertPool(workers=max(1, self.config.expert_workers))
        if self.config.expert_workers > 0:
            self.expert.start()  # spawns the bgsage workers; a no-op where bgsage is missing
        later.push_async_callback(self.expert.aclose)
        expert_enabled = self.config.expert_workers > 0 and self.expert.available
        install_table(ur_table_path(self.config))  # Ur's perfect level, hints and reviews
        later.callback(ur_table.install, None)
        shown = ShownBoards(self.db)
        shown.start()
        later.push_async_callback(shown.stop)  # after the last board is drawn
        self.services = Services(
            client=self,
            games=GameService(
                self.db,
                timeout_for=settings.turn_timeout,
                ratings=ratings,
                expert=self.expert if expert_enabled else None,
            ),
            challenges=ChallengeService(self.db, timeout=self.config.challenge_timeout_seconds),
            ratings=ratings,
            reviews=ReviewService(self.db, self.expert),
            settings=settings,
            shown=shown,
            expert_enabled=expert_enabled,
        )
        self.clicks = Clicks()
        self.driver = GameDriver(
            self.services, self.clicks, ai_delay=self.config.ai_move_delay_seconds
        )
        self.challenges = ChallengeUI(self.services, self.driver, self.clicks)
        self.leaderboard = LeaderboardUI(self.services, self.clicks)
        self.review_ui = ReviewUI(self.services, self.clicks)
        # Each component registers the button shapes it owns (see bot/ui/buttons.py).
        for component in (self.driver, self.challenges, self.leaderboard, self.review_ui):
            self.add_dynamic_items(*component.items)
        # Static boards and sprites take about a second per game to build: do it now, in a
        # worker thread, so the first click of the day does not pay for it.
        boards = [game.renderer for game in games.all()]
        self._warmup = asyncio.create_task(asyncio.to_thread(renderers.warm, boards, ("dark",)))
        for name in COGS:
            await self.load_extension(name)
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        await self.tree.set_translator(CatalogueTranslator())
        if self.config.dev_guild_id:
            guild = discord.Object(self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        self.challenges.start_sweeper()
        self.clocks = ClockUI(self.services, self.driver, every=self.config.clock_sweep_seconds)
        self.clocks.start()
        # Unwound in reverse: the clock and the sweeper stop, AI moves stop, then (first of
        # all) clicks and AI moves under way get their grace period to finish.
        sooner.push_async_callback(self.clocks.stop)
        sooner.push_async_callback(self.challenges.stop)
        sooner.push_async_callback(self.driver.stop)
        sooner.push_async_callback(self.clicks.drain, SHUTDOWN_DRAIN_SECONDS)
        self.health = HealthReporter(
            self, health_path(self.config), every=self.config.health_interval_seconds
        )
        self.health.start()
        sooner.push_async_callback(self.health.stop)

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))
        if not self.ready_once:
            self.ready_once = True
            # Games a crash left half-started get their thread, game and first board first,
            # so the board refresh below already counts them.
            await self.challenges.recover()
            await self.driver.resume_all()
            try:
                await self._warmup  # its caches belong to the long-lived heap frozen below
            except Exception:
                log.exception("warming the renderers failed; boards are drawn on demand")
            frozen = freeze_startup_heap()
            log.info("start-up heap frozen: %d objects exempt from garbage collection", frozen)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer component clicks that no persistent button claims: foreign ids, and ours
        whose button is no longer on the message."""
        if interaction.type != discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        try:
            if not custom_id.startswith("tabula:"):
                raise MalformedButton()
            # Not dispatched by discord.py when its button is gone from the message (a stale
            # client clicked it) or it fits no shape: answered here, never left to fail.
            await answer_undispatched(interaction, custom_id)
        except Exception as error:
            await reply_error(interaction, error, context=f"custom_id {custom_id!r}")

    async def on_app_command_error(
        self,
        interaction: discord.Interaction[Any],
        error: discord.app_commands.AppCommandError,
    ) -> None:
        original = getattr(error, "original", error)
        await reply_error(
            interaction, original, context=f"/{interaction.command and interaction.command.name}"
        )

    async def close(self) -> None:
        await self._before_gateway.aclose()
        await super().close()
        await self._after_gateway.aclose()
