"""What the Discord-facing components work with, built once in ``TabulaBot.setup_hook``.

The components take this value (and each other, where one drives another) instead of
reaching everything through the bot object: no ``bot/ui`` module imports ``bot.client``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from bot.clock import SYSTEM_CLOCK, Clock
from bot.service.boards import ShownBoards
from bot.service.challenges import ChallengeService
from bot.service.games import GameService
from bot.service.imports import ImportService
from bot.service.preferences import PreferencesService
from bot.service.ratings import RatingService
from bot.service.review import ReviewService
from bot.service.settings import GuildSettingsService
from bot.ui.outbox import Outbox
from bot.ui.pacing import BotTokenPacer


@dataclass(frozen=True, slots=True)
class Services:
    client: discord.Client  # REST and cache access: channels, messages, users
    games: GameService
    challenges: ChallengeService
    ratings: RatingService
    reviews: ReviewService
    settings: GuildSettingsService
    preferences: PreferencesService  # each person's /prefs
    shown: ShownBoards
    expert_enabled: bool  # the backgammon expert (bgsage workers) is running
    # The bot token's budget, this process's share of it: every bot-token message request
    # waits here first (bot.ui.pacing).
    pacer: BotTokenPacer = field(default_factory=BotTokenPacer)
    # The bot's wall clock (bot.clock), the one its services run on: what the components
    # compare Discord's timestamps with (an interaction's age, its token's lifetime).
    clock: Clock = SYSTEM_CLOCK

    @property
    def outbox(self) -> Outbox:
        """The one door for bot-token requests (``bot.ui.outbox``), paced by ``pacer``."""
        return Outbox(self.client, self.pacer)

    @property
    def imports(self) -> ImportService:
        """Reviews of games played elsewhere (``/review import``), stored and reviewed through
        ``reviews``."""
        return ImportService(self.reviews.db, self.reviews, clock=self.clock.now)

    async def opens_threads(self, guild_id: int | None) -> bool:
        """Whether accepted games open a thread in this server (its /settings)."""
        return (await self.settings.get(guild_id)).thread_mode


__all__ = ["Any", "Services"]
