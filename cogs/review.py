"""/review: a finished backgammon game (judged by the expert), Ur game (the solved table) or
Ludo game (the hard AI)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.service.recent import recent_games
from bot.ui.autocomplete import SUGGESTIONS, game_suggestions

if TYPE_CHECKING:
    from bot.client import TabulaBot


class Review(commands.Cog):
    def __init__(self, bot: TabulaBot) -> None:
        self.bot = bot

    @app_commands.command(description="Review a finished backgammon, Ur or Ludo game.")
    @app_commands.describe(game="The game id shown under its board")
    async def review(self, interaction: discord.Interaction[Any], game: str) -> None:
        await self.bot.review_ui.show(interaction, game)

    @review.autocomplete("game")
    async def _recent(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        found = await recent_games(self.bot.db, interaction.user.id, SUGGESTIONS * 2)
        return game_suggestions(found, interaction, current)


async def setup(bot: TabulaBot) -> None:
    await bot.add_cog(Review(bot))
