"""Which buttons the player on turn gets, and what each button's token means: each game's menu
(``GameSpec.menu``, see :mod:`bot.games.menu`) says it; this module hands it the game."""

from __future__ import annotations

from bot.games.menu import DoAction, Resolution, SetDraft
from bot.service.models import Choice, Game

__all__ = ["DoAction", "Resolution", "SetDraft", "choices", "resolve"]


def choices(game: Game) -> list[Choice]:
    """The buttons for the seat on turn in ``game`` (empty when the game is over); their
    labels are catalogue keys or language-free text, which the UI writes in the game's
    language (they sit on the public board)."""
    if game.finished:
        return []
    return game.spec.menu.choices(game.state, game.draft)


def resolve(game: Game, token: str) -> Resolution:
    """What clicking ``token`` does now. Raises IllegalAction when it is not on offer."""
    return game.spec.menu.resolve(game.state, game.draft, token)
