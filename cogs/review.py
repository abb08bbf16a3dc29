"""/review: a finished backgammon game (judged by the expert), Ur game (the solved table) or
Ludo game (the hard AI)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.base import TabulaCog, anywhere

if TYPE_CHECKING:
    from bot.client import TabulaBot


class Review(TabulaCog):
    @app_commands.command(description="Review a finished backgammon, Ur or Ludo game.")
    @anywhere  # a DM or group DM game too, by its players (bot.service.lookup)
    @app_commands.describe(game="The game id shown under its board")
    @app_commands.autocomplete(game=TabulaCog.recent_game_choices)
    async def review(self, interaction: discord.Interaction[Any], game: str) -> None:
        await self.bot.review_ui.show(interaction, game)


async def setup(bot: TabulaBot) -> None:
    await bot.add_cog(Review(bot))
