"""Pure rules engines: standard library only, no I/O, no discord, no Pillow.

Each engine module (``ur``, ``ludo``, ``backgammon``) fulfils :class:`common.Rules` at module
level. :func:`rules_for` returns one by game name.
"""

from __future__ import annotations

import importlib
from typing import cast

from bot.engines.common import Rules

GAMES: tuple[str, ...] = ("backgammon", "ur", "ludo")


def rules_for(game: str) -> Rules:
    """The engine module for ``game`` (one of :data:`GAMES`)."""
    if game not in GAMES:
        raise KeyError(f"Unknown game {game!r}; choose one of {', '.join(GAMES)}.")
    return cast(Rules, importlib.import_module(f"bot.engines.{game}"))
