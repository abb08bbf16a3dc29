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
from bot import storage as store
from bot.i18n import tr
from bot.storage import Database
from bot.storage.records import GameRow
from bot.ui.replies import locale_of

SUGGESTIONS = 25  # Discord's limit
NAME_LIMIT = 100


def game_label(row: GameRow, user_id: int, locale: str | None) -> str:
    """``1a2b3c4d · Backgammon · vs Bob · 2026-11-26``."""
    try:
        title = games.get(row.game).title
    except games.UnknownGame:  # a game this bot no longer offers
        title = row.game
    others = [s.display_name for s in row.seats if s.user_id != user_id]
    day = datetime.datetime.fromtimestamp(row.updated_at, datetime.UTC).date().isoformat()
    against = tr("autocomplete.versus", locale, names=", ".join(others))
    label = " · ".join([row.id, title, against, day])
    return label if len(label) <= NAME_LIMIT else label[: NAME_LIMIT - 1] + "…"


async def recent_games(
    db: Database, interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    user_id = interaction.user.id
    locale = locale_of(interaction)
    typed = current.strip().lower()
    rows = await store.recent_games_for_user(db, user_id, limit=SUGGESTIONS * 2)
    choices = []
    for row in rows:
        label = game_label(row, user_id, locale)
        if typed and typed not in label.lower():
            continue
        choices.append(app_commands.Choice(name=label, value=row.id))
    return choices[:SUGGESTIONS]


__all__ = ["game_label", "recent_games"]
