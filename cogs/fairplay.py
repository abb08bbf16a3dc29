"""/fairplay: the fair-play review, for members with Manage Server only. Every answer is
private (ephemeral); nothing is posted, and the flagged player is never told."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.i18n import tr
from bot.service.fairplay_flag import MIN_DECISIONS
from bot.ui.game_choices import game_choices
from bot.ui.names import plural
from bot.ui.replies import locale_of
from bot.ui.skill import audit_embed, cases_embed
from bot.vocabulary.errors import TabulaError
from cogs.base import TabulaCog

if TYPE_CHECKING:
    from bot.client import TabulaBot


def _moderator(interaction: discord.Interaction[Any]) -> int:
    """The server's id, if the member may use the review here."""
    # default_permissions only hides the command; a server can re-grant it, so check.
    if interaction.guild_id is None or not interaction.permissions.manage_guild:
        raise TabulaError("fairplay.admin_only")
    return interaction.guild_id


class FairPlay(TabulaCog):
    fairplay = app_commands.Group(
        name="fairplay",
        description="Fair-play review of rated players (Manage Server only).",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @fairplay.command(name="list")
    @app_commands.choices(game=game_choices())
    async def list_cases(self, interaction: discord.Interaction[Any], game: str) -> None:
        """Rated players whose play is far better than their rating predicts.

        Args:
            game: Which game
        """
        guild_id = _moderator(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        cases = await self.bot.fairplay.flagged(guild_id, game, interaction.user.id)
        await interaction.followup.send(
            embed=cases_embed(game, cases, locale_of(interaction)), ephemeral=True
        )

    @fairplay.command(name="reviewed")
    @app_commands.choices(game=game_choices())
    async def reviewed(
        self, interaction: discord.Interaction[Any], game: str, user: discord.User
    ) -> None:
        """Mark a flagged player's case as reviewed (kept in the audit log).

        Args:
            game: Which game
            user: The flagged player
        """
        guild_id = _moderator(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.fairplay.mark_reviewed(guild_id, game, user.id, interaction.user.id)
        locale = locale_of(interaction)
        more = plural("count.decisions", MIN_DECISIONS, locale)
        await interaction.followup.send(
            tr("fairplay.reviewed", locale, user=f"<@{user.id}>", decisions=more), ephemeral=True
        )

    @fairplay.command(name="log")
    async def log(self, interaction: discord.Interaction[Any]) -> None:
        """Who looked at the fair-play review and who marked which case."""
        guild_id = _moderator(interaction)
        rows = await self.bot.fairplay.log(guild_id)
        await interaction.response.send_message(
            embed=audit_embed(rows, locale_of(interaction)), ephemeral=True
        )


async def setup(bot: TabulaBot) -> None:
    await bot.add_cog(FairPlay(bot))
