"""AI difficulty levels."""

from __future__ import annotations

from typing import Literal, get_args

Level = Literal["easy", "medium", "hard", "expert", "perfect"]
LEVELS: tuple[Level, ...] = get_args(Level)


def level_named(name: str) -> Level:
    """The level stored as ``name`` (seats keep their level as text); raises ValueError for a
    name that is no level."""
    for level in LEVELS:
        if level == name:
            return level
    raise ValueError(f"No AI level is called {name!r}.")
