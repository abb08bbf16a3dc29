"""/settings: server admins choose thread mode, the turn time limit and the games on offer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import tr
from bot.service.errors import TabulaError
from bot.ui.replies import locale_of

if TYPE_CHECKING:
    from bot.client import TabulaBot

OnOff = Literal["on", "off"]


class Admin(commands.Cog):
    def __init__(self, bot: TabulaBot) -> None:
        self.bot = bot

    @app_commands.command(description="Server settings for Tabula (Manage Server only).")
    @app_commands.describe(
        threads="Open a thread for each accepted game",
        turn_limit_hours="Hours a player may take per turn before the opponent can claim",
        backgammon="Offer Backgammon",
        ur="Offer the Royal Game of Ur",
        ludo="Offer Ludo",
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        threads: OnOff | None = None,
        turn_limit_hours: app_commands.Range[int, 1, 720] | None = None,
        backgammon: OnOff | None = None,
        ur: OnOff | None = None,
        ludo: OnOff | None = None,
    ) -> None:
        # default_permissions only hides the command; a server can re-grant it, so check.
        if not interaction.permissions.manage_guild or interaction.guild_id is None:
            raise TabulaError("settings.admin_only")
        current = await self.bot.guild_settings.get(interaction.guild_id)
        games = set(current.enabled_games)
        for name, choice in (("backgammon", backgammon), ("ur", ur), ("ludo", ludo)):
            if choice == "on":
                games.add(name)
            elif choice == "off":
                games.discard(name)
        if not games:
            raise TabulaError("settings.no_games")
        new = await self.bot.guild_settings.update(
            interaction.guild_id,
            thread_mode=None if threads is None else threads == "on",
            turn_timeout_seconds=None if turn_limit_hours is None else turn_limit_hours * 3600,
            enabled_games=tuple(sorted(games)),
        )
        locale = locale_of(interaction)
        await interaction.response.send_message(
            tr(
                "settings.current",
                locale,
                threads=tr("settings.on" if new.thread_mode else "settings.off", locale),
                hours=new.turn_timeout_seconds // 3600,
                games=", ".join(new.enabled_games),
            ),
            ephemeral=True,
        )


async def setup(bot: TabulaBot) -> None:
    await bot.add_cog(Admin(bot))
