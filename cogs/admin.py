"""/settings: server admins choose thread mode, the turn time limit and the games on offer
(one game at a time: ``game:`` and ``offered:``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from bot.i18n import tr
from bot.ui.game_choices import game_choices, known_game
from bot.ui.replies import locale_of
from bot.vocabulary.bounds import PUZZLE_HOUR, TURN_LIMIT_HOURS
from bot.vocabulary.errors import TabulaError
from cogs.base import TabulaCog

if TYPE_CHECKING:
    from bot.client import TabulaBot

OnOff = Literal["on", "off"]


class Admin(TabulaCog):
    @app_commands.command()
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        threads: OnOff | None = None,
        turn_limit_hours: app_commands.Range[int, TURN_LIMIT_HOURS.low, TURN_LIMIT_HOURS.high]
        | None = None,
        game: str | None = None,
        offered: bool | None = None,
        puzzle_channel: discord.TextChannel | None = None,
        puzzle_hour: app_commands.Range[int, PUZZLE_HOUR.low, PUZZLE_HOUR.high] | None = None,
        daily_puzzle: OnOff | None = None,
    ) -> None:
        """Server settings for Tabula (Manage Server only).

        Args:
            threads: Open a thread for each accepted game
            turn_limit_hours: Hours a player may take per turn before the opponent can claim
            game: The game to offer or withdraw (with offered)
            offered: Whether this server offers the game
            puzzle_channel: Post a daily puzzle in this channel
            puzzle_hour: The hour (UTC, 0-23) of the daily puzzle
            daily_puzzle: Turn the daily puzzle on or off
        """
        # default_permissions only hides the command; a server can re-grant it, so check.
        if not interaction.permissions.manage_guild or interaction.guild_id is None:
            raise TabulaError("settings.admin_only")
        # Everything is checked before anything is stored, and stored in one transaction: a
        # refusal (a daily puzzle without a channel, a value out of bounds) changes nothing.
        hours = None if turn_limit_hours is None else TURN_LIMIT_HOURS.check(turn_limit_hours)
        current = await self.bot.services.settings.get(interaction.guild_id)
        if (game is None) != (offered is None):
            raise TabulaError("settings.game_and_offered")
        games = set(current.enabled_games)
        if game is not None:
            (games.add if offered else games.discard)(known_game(game))
        if not games:
            raise TabulaError("settings.no_games")
        daily = await self.bot.puzzle_ui.daily_plan(
            interaction.guild_id,
            None if puzzle_channel is None else puzzle_channel.id,
            puzzle_hour,
            None if daily_puzzle is None else daily_puzzle == "on",
        )
        new = await self.bot.services.settings.update(
            interaction.guild_id,
            thread_mode=None if threads is None else threads == "on",
            turn_timeout_seconds=None if hours is None else hours * 3600,
            enabled_games=tuple(sorted(games)),
            daily=daily,
        )
        locale = locale_of(interaction)
        options = (threads, turn_limit_hours, game, puzzle_channel, puzzle_hour, daily_puzzle)
        changed = any(option is not None for option in options)
        text = tr(
            "settings.saved" if changed else "settings.current",
            locale,
            threads=tr("settings.on" if new.thread_mode else "settings.off", locale),
            hours=new.turn_timeout_seconds // 3600,
            games=", ".join(new.enabled_games),
        )
        daily_text = await self.bot.puzzle_ui.daily_text(interaction.guild_id, locale)
        await interaction.response.send_message(f"{text}\n{daily_text}", ephemeral=True)


async def setup(bot: TabulaBot) -> None:
    await bot.add_cog(Admin(bot))
