"""The games as slash-command choices, from the registry (``bot.games``).

Discord takes a command's choices when the commands are synced, so the cogs build them when
they are imported: after the registry has read its extra games (``TABULA_EXTRA_GAMES``). A
choice is named and valued by the game's kind, as a ``Literal`` of the names made it; the
command catalogue translates the name where it has one. The commands that start a game here
(``/challenge``, ``/play``) suggest instead, from the server's settings, only the games it
offers (:func:`offered_choices`). ``/play``'s difficulty offers the AI levels of every game
(:func:`level_choices`) and refuses one the chosen game lacks.
"""

from __future__ import annotations

from collections.abc import Iterable

from discord import app_commands

from bot import games
from bot.ai.levels import LEVELS
from bot.vocabulary.errors import ChallengeRefused


def game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=game.kind, value=game.kind) for game in games.all()]


def level_choices() -> list[app_commands.Choice[str]]:
    """The AI levels any registered game plays, easiest first."""
    played = {level for game in games.all() for level in game.ai_levels}
    return [app_commands.Choice(name=level, value=level) for level in LEVELS if level in played]


def offered_choices(offered: Iterable[str], current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a ``game`` option that starts a game here: only the games this server
    offers (``/settings game``), by title, filtered by what was typed."""
    typed = current.strip().lower()
    choices = []
    for game in games.all():
        if game.kind not in offered:
            continue
        if typed and typed not in game.title.lower() and typed not in game.kind:
            continue
        choices.append(app_commands.Choice(name=game.title[:100], value=game.kind))
    return choices[:25]


def known_game(kind: str) -> str:
    """``kind`` if it names a game of this bot: autocomplete suggests, but a client may send
    anything typed."""
    if kind not in games.kinds():
        raise ChallengeRefused("challenge.unknown_game", games=", ".join(games.kinds()))
    return kind
