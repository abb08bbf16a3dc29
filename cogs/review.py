"""/review game: a finished backgammon game (judged by the expert), Ur game (the solved table)
or Ludo game (the hard AI); /review import: a game played elsewhere, from its file."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.base import TabulaCog, anywhere

if TYPE_CHECKING:
    from bot.client import TabulaBot


class Review(TabulaCog):
    review = anywhere(
        app_commands.Group(name="review", description="Review a finished game, or a file.")
    )

    @review.command(name="game", description="Review a finished backgammon, Ur or Ludo game.")
    @app_commands.describe(game="The game id shown under its board")
    @app_commands.autocomplete(game=TabulaCog.recent_game_choices)
    async def game(self, interaction: discord.Interaction[Any], game: str) -> None:
        # a DM or group DM game too, by its players (bot.service.lookup)
        await self.bot.review_ui.show(interaction, game)

    @review.command(
        name="import", description="Review a match played elsewhere, from its .mat, .sgf or .txt."
    )
    @app_commands.describe(
        file="GNU Backgammon .mat or .sgf, or a text export (XG, Backgammon Galaxy)",
        player="Which player you were: a name in the file, or 1 or 2 (default: your name)",
    )
    async def import_file(
        self,
        interaction: discord.Interaction[Any],
        file: discord.Attachment,
        player: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        await self.bot.import_ui.run(interaction, file, player)


async def setup(bot: TabulaBot) -> None:
    await bot.add_cog(Review(bot))
