"""The bot: a ``commands.Bot`` whose ``setup_hook`` wires storage, services, buttons and cogs."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord.ext import commands

import renderers
from bot.ai.pool import ExpertPool
from bot.config import Settings
from bot.health import HealthReporter, health_path
from bot.runtime import PauseWatch, freeze_startup_heap
from bot.service.boards import ShownBoards
from bot.service.challenges import ChallengeService
from bot.service.errors import MalformedButton
from bot.service.games import GameService
from bot.service.ratings import RatingService
from bot.service.review import ReviewService
from bot.service.settings import GuildSettingsService
from bot.storage.database import Database
from bot.translator import CatalogueTranslator
from bot.ui.buttons import TabulaButton, is_on_message, parse_custom_id
from bot.ui.challenges import ChallengeUI
from bot.ui.clocks import ClockUI
from bot.ui.driver import GameDriver
from bot.ui.leaderboard import LeaderboardUI
from bot.ui.replies import reply_error
from bot.ui.review import ReviewUI

log = logging.getLogger(__name__)

# On SIGTERM, clicks and AI moves under way get this long to finish before the gateway closes.
SHUTDOWN_DRAIN_SECONDS = 10.0

COGS = ("cogs.games", "cogs.info", "cogs.admin", "cogs.stats", "cogs.review")


class TabulaBot(commands.Bot):
    db: Database
    service: GameService
    driver: GameDriver
    challenges: ChallengeUI
    guild_settings: GuildSettingsService
    clocks: ClockUI
    ratings: RatingService
    boards: LeaderboardUI
    expert: ExpertPool
    reviews: ReviewService
    review_ui: ReviewUI
    shown_boards: ShownBoards

    def __init__(self, settings: Settings) -> None:
        intents = discord.Intents.default()  # no privileged intents: slash commands suffice
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.config = settings
        self.ready_once = False

    async def setup_hook(self) -> None:
        self.gc_watch = PauseWatch()
        self.gc_watch.install()
        self.db = await Database.open(self.config.database_path)
        self.guild_settings = GuildSettingsService(self.db, self.config)
        self.ratings = RatingService(self.db)
        await self.ratings.rebuild()  # ratings are derived data: recompute from the results
        self.expert = ExpertPool(workers=max(1, self.config.expert_workers))
        if self.config.expert_workers > 0:
            self.expert.start()  # spawns the bgsage workers; a no-op where bgsage is missing
        self.expert_enabled = self.config.expert_workers > 0 and self.expert.available
        self.reviews = ReviewService(self.db, self.expert)
        self.service = GameService(
            self.db,
            timeout_for=self.guild_settings.turn_timeout,
            ratings=self.ratings,
            expert=self.expert if self.expert_enabled else None,
        )
        self.boards = LeaderboardUI(self)
        self.review_ui = ReviewUI(self)
        self.shown_boards = ShownBoards(self.db)
        self.shown_boards.start()
        self.driver = GameDriver(
            self, self.service, self.shown_boards, ai_delay=self.config.ai_move_delay_seconds
        )
        self.challenges = ChallengeUI(
            self, ChallengeService(self.db, timeout=self.config.challenge_timeout_seconds)
        )
        # Static boards and sprites take about a second per game to build: do it now, in a
        # worker thread, so the first click of the day does not pay for it.
        self._warmup = asyncio.create_task(asyncio.to_thread(renderers.warm, ("dark",)))
        self.add_dynamic_items(TabulaButton)
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
        self.clocks = ClockUI(self, every=self.config.clock_sweep_seconds)
        self.clocks.start()
        self.health = HealthReporter(
            self, health_path(self.config), every=self.config.health_interval_seconds
        )
        self.health.start()

    async def settings_for(self, guild_id: int | None) -> bool:
        """Whether accepted games open a thread in this server."""
        return (await self.guild_settings.get(guild_id)).thread_mode

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
        if not custom_id.startswith("tabula:"):
            await reply_error(interaction, MalformedButton(), context="unknown custom_id")
        elif not is_on_message(interaction, custom_id):
            # Not dispatched by discord.py (see is_on_message): a stale client clicked a
            # button that is gone. The handler decides: still valid, or "out of date".
            await self.driver.on_button(interaction, parse_custom_id(custom_id), adopt=False)

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
        if hasattr(self, "gc_watch"):
            self.gc_watch.remove()
        if hasattr(self, "health"):
            await self.health.stop()
        if hasattr(self, "driver"):
            await self.driver.drain(SHUTDOWN_DRAIN_SECONDS)
            await self.driver.stop()
            await self.challenges.stop()
            await self.clocks.stop()
        await super().close()
        if hasattr(self, "expert"):
            await self.expert.aclose()
        if hasattr(self, "shown_boards"):
            await self.shown_boards.stop()
        if hasattr(self, "db"):
            await self.db.close()
