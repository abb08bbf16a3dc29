"""/leaderboard, /stats, /export and /verify."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from bot import games
from bot.i18n import tr
from bot.service.exports import export_game, exportable
from bot.service.lookup import GameRow, action_log, find_game
from bot.service.skill import LAST_GAMES, MIN_BOARD_DECISIONS
from bot.service.verify import verifiable, verify_game
from bot.ui.game_choices import game_choices
from bot.ui.replies import follow_up, locale_of
from bot.ui.skill import skill_board_embed, skill_text
from bot.ui.standings import stats_text
from bot.ui.venues import viewer_of
from bot.vocabulary import bounds
from bot.vocabulary.markup import plain_name
from cogs.base import TabulaCog, anywhere

if TYPE_CHECKING:
    from bot.client import TabulaBot

Scope = Literal["server", "global"]
Board = Literal["rating", "pr"]


class Stats(TabulaCog):
    @app_commands.command(description="The best rated players of a game.")
    @app_commands.describe(
        game="Which game",
        scope="This server or everywhere",
        by="By rating, or by PR from the reviews of rated games",
    )
    @app_commands.choices(game=game_choices())
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        scope: Scope = "server",
        by: Board = "rating",
    ) -> None:
        if interaction.guild_id is None:
            scope = "global"
        if by == "pr":
            guild_id = interaction.guild_id if scope == "server" else None
            rows = await self.bot.skill.board(game, guild_id=guild_id)
            board = skill_board_embed(
                game,
                rows,
                server=guild_id is not None,
                min_decisions=MIN_BOARD_DECISIONS,
                locale=locale_of(interaction),
            )
            await interaction.response.send_message(embed=board)
            return
        embed, view = await self.bot.leaderboard.page(interaction, game, scope, 1)
        await interaction.response.send_message(embed=embed, view=view or discord.utils.MISSING)

    @app_commands.command(description="A player's ratings and records.")
    @anywhere
    @app_commands.describe(
        user="Whose stats (default: yours)",
        scope="This server or everywhere",
        last="PR, luck and accuracy over this many of the latest reviewed games",
    )
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        user: discord.User | None = None,
        scope: Scope = "server",
        last: app_commands.Range[
            int, bounds.LATEST_GAMES.low, bounds.LATEST_GAMES.high
        ] = LAST_GAMES,
    ) -> None:
        bounds.LATEST_GAMES.check(last)
        locale = locale_of(interaction)
        who = user or interaction.user
        guild_id = interaction.guild_id if scope == "server" else None
        found = await self.bot.services.ratings.stats(who.id, guild_id)
        skill = await self.bot.skill.summary(who.id, guild_id=guild_id, last=last)
        embed = discord.Embed(
            title=tr("stats.title", locale, name=plain_name(who.display_name)),
            colour=discord.Colour.blue(),
        )
        if not found:
            embed.description = tr("stats.none", locale)
        for game, s in sorted(found.items()):
            title = games.get(game).title
            text = stats_text(s, locale)
            if game in skill:
                text += "\n" + skill_text(skill[game], locale)
            embed.add_field(name=title, value=text[:1024], inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(description="Download a game's record (gnubg .mat, Ur RGN, Ludo JSON).")
    @anywhere  # a DM or group DM game too, by its players (bot.service.lookup)
    @app_commands.describe(game="The game id shown under its board")
    @app_commands.autocomplete(game=TabulaCog.recent_game_choices)
    async def export(self, interaction: discord.Interaction[Any], game: str) -> None:
        row = exportable(await self._game(interaction, game))
        await interaction.response.defer(ephemeral=True, thinking=True)
        name, content = export_game(row, await action_log(self.bot.db, row.id))
        await follow_up(
            interaction,
            tr("export.ready", locale_of(interaction), game=row.id),
            files=[discord.File(io.BytesIO(content), filename=name)],
        )

    @app_commands.command(description="Check every dice roll of a finished game against its seed.")
    @anywhere
    @app_commands.describe(game="The game id shown under its board")
    @app_commands.autocomplete(game=TabulaCog.recent_game_choices)
    async def verify(self, interaction: discord.Interaction[Any], game: str) -> None:
        row = verifiable(await self._game(interaction, game))
        report = verify_game(row, await action_log(self.bot.db, row.id))
        locale = locale_of(interaction)
        if not report.verifiable:
            text = tr("verify.running", locale, hash=report.seed_hash)
        elif report.ok:
            text = tr(
                "verify.ok",
                locale,
                rolls=report.rolls_checked,
                seed=report.seed,
                hash=report.seed_hash,
            )
        else:
            text = tr("verify.failed", locale, summary=report.summary)
        await interaction.response.send_message(text, ephemeral=True)

    async def _game(self, interaction: discord.Interaction[Any], typed: str) -> GameRow:
        return await find_game(self.bot.db, typed, viewer_of(interaction))


async def setup(bot: TabulaBot) -> None:
    await bot.add_cog(Stats(bot))
