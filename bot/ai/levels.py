"""AI difficulty levels."""

from __future__ import annotations

from typing import Literal, get_args

Level = Literal["easy", "medium", "hard", "expert", "perfect"]
LEVELS: tuple[Level, ...] = get_args(Level)
