"""Nackgammon: backgammon from Nack Ballard's starting position, with the cube and matches as
backgammon has them.

Each side starts with two checkers on its 24-point and two on its 23-point (four back
checkers instead of two), four on the 13-point (instead of five), three on the 8-point and
four on the 6-point (instead of five): GNU Backgammon's ``set variation nackgammon``, whose
set-up this is. Everything else is backgammon's (``bot.engines.backgammon``): the rules, the
opening roll, the cube, the Crawford rule, gammons and backgammons, the notation and the
stored state, which carries the starting position so that every game of a match starts from
it. Standard library only, like every engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engines import backgammon as bg
from bot.engines.backgammon import (
    BackgammonState,
    apply,
    dump_state,
    legal_actions,
    load_state,
    notation,
    outcome,
    parse,
    roll,
)

__all__ = [
    "GAME",
    "SEATS",
    "START",
    "START_ID",
    "apply",
    "dump_state",
    "legal_actions",
    "load_state",
    "new_game",
    "notation",
    "outcome",
    "parse",
    "roll",
]

GAME = "nackgammon"
SEATS: tuple[str, ...] = bg.SEATS  # backgammon's white and black, and their colour names

_SIDE: dict[int | str, int] = {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}
START = bg.Position.from_points(_SIDE, _SIDE)
"""Nack Ballard's starting position, the same from either side's point of view."""
START_ID = START.position_id()
"""Its GNU Position ID (``4Dl4ADbgOXgANg``), as backgammon's ``start`` option takes it."""


def new_game(options: Mapping[str, Any] | None = None) -> BackgammonState:
    """Backgammon's options (``cube``, ``match_length``); every game starts from
    :data:`START`."""
    opts = dict(options or {})
    if "start" in opts:
        raise ValueError("unknown nackgammon options: start")
    return bg.new_game({**opts, "start": START_ID})
