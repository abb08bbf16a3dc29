"""Training: /analyze (a position pasted as an ID, judged by the expert), /puzzle (a position
with one clearly best move), /puzzles (your streak, this server's puzzle leaderboard) and
/train (your own deck: the moves you got wrong in your reviewed games)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.ui.game_choices import game_choices
from cogs.base import TabulaCog

if TYPE_CHECKING:
    from bot.client import TabulaBot


class Train(TabulaCog):
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

    @app_commands.command(description="A puzzle: find the best move in a position.")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=game_choices())
    async def puzzle(self, interaction: discord.Interaction[Any], game: str) -> None:
        await self.bot.puzzle_ui.show(interaction, game)

    @app_commands.command(description="Your puzzle streak and this server's best solvers.")
    async def puzzles(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.puzzle_ui.standings(interaction)

    @app_commands.command(
        description="Your training deck: the moves you got wrong in your reviewed games."
    )
    @app_commands.describe(
        game="Which game (empty: your whole deck)",
        reset="Remove every card of this game from your deck",
    )
    @app_commands.choices(game=game_choices())
    async def train(
        self, interaction: discord.Interaction[Any], game: str | None = None, reset: bool = False
    ) -> None:
        await self.bot.train_ui.train(interaction, game, reset)


async def setup(bot: TabulaBot) -> None:
    await bot.add_cog(Train(bot))
