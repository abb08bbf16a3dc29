"""Hypergammon: backgammon with three checkers a side, with the cube, gammons, backgammons
and matches as backgammon has them.

Each side starts with one checker on each of its 24-, 23- and 22-points: GNU Backgammon's
"3-chequer hypergammon" (``set variation hypergammon3``). Everything else is backgammon's
(``bot.engines.backgammon``): the rules, the opening roll, the cube, the Crawford rule, a
gammon when the loser has borne off none of its three checkers, a backgammon when it also
still has one on the bar or in the winner's home board, the notation and the stored state,
whose starting position every game of a match starts from. Standard library only.
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
    "CHECKERS",
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

GAME = "hypergammon"
SEATS: tuple[str, ...] = bg.SEATS  # backgammon's white and black, and their colour names
CHECKERS = 3

_SIDE: dict[int | str, int] = {24: 1, 23: 1, 22: 1}
START = bg.Position.from_points(_SIDE, _SIDE)
"""The starting position, the same from either side's point of view."""
START_ID = START.position_id()
"""Its GNU Position ID, as backgammon's ``start`` option takes it."""


def new_game(options: Mapping[str, Any] | None = None) -> BackgammonState:
    """Backgammon's options (``cube``, ``match_length``); every game starts from
    :data:`START`."""
    opts = dict(options or {})
    if "start" in opts:
        raise ValueError("unknown hypergammon options: start")
    return bg.new_game({**opts, "start": START_ID})
