"""Autocomplete for a ``game`` id option (/review, /export, /verify): the person's recent
games, each as its id, game, opponents and date, filtered by what they typed so far.

Discord waits 3 seconds for the suggestions and takes at most 25, each named in at most 100
characters; one indexed query of the person's games answers well inside that.
"""

from __future__ import annotations

import datetime
from typing import Any

import discord
from discord import app_commands

from bot import games
from bot.i18n import tr
from bot.service.recent import RecentGame
from bot.ui.replies import locale_of

SUGGESTIONS = 25  # Discord's limit
NAME_LIMIT = 100


def game_label(found: RecentGame, locale: str | None) -> str:
    """``1a2b3c4d · Backgammon · vs Bob · 2026-11-26``."""
    try:
        title = games.get(found.game).title
    except games.UnknownGame:  # a game this bot no longer offers
        title = found.game
    day = datetime.datetime.fromtimestamp(found.updated_at, datetime.UTC).date().isoformat()
    against = tr("autocomplete.versus", locale, names=", ".join(found.opponents))
    parts = [found.id, title, against, day]
    if found.imported:
        parts.insert(2, tr("autocomplete.imported", locale))
    label = " · ".join(parts)
    return label if len(label) <= NAME_LIMIT else label[: NAME_LIMIT - 1] + "…"


def game_suggestions(
    found: list[RecentGame], interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The person's games (``found``, newest first) whose label holds what they typed."""
    locale = locale_of(interaction)
    typed = current.strip().lower()
    choices = []
    for game in found:
        label = game_label(game, locale)
        if typed and typed not in label.lower():
            continue
        choices.append(app_commands.Choice(name=label, value=game.id))
    return choices[:SUGGESTIONS]


__all__ = ["SUGGESTIONS", "game_label", "game_suggestions"]
