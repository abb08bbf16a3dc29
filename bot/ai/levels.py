"""The AI levels: every level any game plays, named once.

A game's manifest lists the levels its AI plays (``GameSpec.ai_levels``, in this order);
``/play`` offers the levels of every registered game and refuses one the chosen game lacks.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

Level = Literal["easy", "medium", "hard", "expert", "perfect"]
LEVELS: tuple[Level, ...] = get_args(Level)


def level_named(name: str) -> Level:
    """The level stored as ``name`` (seats keep their level as text); raises ValueError for a
    name that is no level."""
    for level in LEVELS:
        if level == name:
            return level
    raise ValueError(f"No AI level is called {name!r}.")


EXPERT: Final = "expert"  # played by the expert engine's worker pool, where a game has one
PERFECT: Final = "perfect"  # played from a solved table (bot.ai.ur_table), where one exists
OWN: tuple[Level, ...] = ("easy", "medium", "hard")
"""The levels every game's own AI plays (a random move, rules of thumb, a search)."""
ONE_LOOK: frozenset[Level] = frozenset(OWN[:2])
"""Levels that decide at one look (a random move, rules of thumb): well under a millisecond in
every game, so they are asked on the event loop rather than paying a thread hand-over."""
