"""What the cogs share: the bot whose services their commands call, the suggestions of a game
id, and the reach of the commands that work outside servers too."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.service.recent import recent_games
from bot.ui.autocomplete import SUGGESTIONS, game_suggestions
from bot.ui.option_check import check_options

if TYPE_CHECKING:
    from bot.client import TabulaBot

Reachable = TypeVar("Reachable")  # a command callback, or the command made of it


class TabulaCog(commands.Cog):
    """A cog of the bot: thin, its commands parse, call ``self.bot``'s services and answer."""

    def __init__(self, bot: TabulaBot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        # Every option against the bounds and choices Discord was told, before the command
        # runs: nothing is stored or posted for a value the command does not take.
        return await check_options(interaction)

    async def recent_game_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete for a ``game`` id option (``app_commands.autocomplete(game=...)``): the
        person's recent games whose label holds what they typed."""
        found = await recent_games(self.bot.db, interaction.user.id, SUGGESTIONS * 2)
        return game_suggestions(found, interaction, current)


def anywhere(command: Reachable) -> Reachable:
    """The command also for people who installed the bot on their account, in DMs and group
    DMs as well as in servers."""
    installs = app_commands.allowed_installs(guilds=True, users=True)
    contexts = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    return installs(contexts(command))
