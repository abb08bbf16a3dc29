"""The games as slash-command choices, from the registry (``bot.games``).

Discord takes a command's choices when the commands are synced, so the cogs build them when
they are imported: after the registry has read its extra games (``TABULA_EXTRA_GAMES``). A
choice is named and valued by the game's kind, as a ``Literal`` of the names made it; the
command catalogue translates the name where it has one.
"""

from __future__ import annotations

from discord import app_commands

from bot import games


def game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=game.kind, value=game.kind) for game in games.all()]
