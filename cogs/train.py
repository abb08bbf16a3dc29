"""Training: /analyze (a position pasted as an ID, judged by the expert)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

if TYPE_CHECKING:
    from bot.client import TabulaBot


class Train(commands.Cog):
    def __init__(self, bot: TabulaBot) -> None:
        self.bot = bot

    @app_commands.command(
        description="The expert's verdict on a backgammon position (GNU Backgammon ID or XGID)."
    )
    @app_commands.describe(
        position="A GNU Backgammon Position ID (optionally :Match ID) or an XGID",
        public="Show the answer to everyone here (default: only you)",
    )
    async def analyze(
        self, interaction: discord.Interaction[Any], position: str, public: bool = False
    ) -> None:
        await self.bot.analyze_ui.analyze(interaction, position, public)


async def setup(bot: TabulaBot) -> None:
    await bot.add_cog(Train(bot))
