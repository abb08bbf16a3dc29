"""The Royal Game of Ur, Masters rules (RoyalUr.net, after James Masters): the standard board,
the Masters path (16 squares: light's squares 12-16 run through dark's lane end and back, and
dark's through light's), four binary dice, seven pieces each, rosettes that are not safe but
give another roll; captures do not. The engine is :mod:`bot.engines.ur_sets`'s for this rule
set; its functions are this module's, so the module is a ``Rules[UrSetState, Move]``."""

from __future__ import annotations

from typing import Final

from bot.engines.ur_sets import (
    MASTERS_PATHS,
    SEATS,
    STANDARD_CELLS,
    STANDARD_ROSETTES,
    Move,
    RuleSet,
    UrSetRules,
    UrSetState,
)

GAME: Final = "ur_masters"

RULES: Final = RuleSet(
    game=GAME,
    name="Masters",
    cells=STANDARD_CELLS,
    rosettes=STANDARD_ROSETTES,
    paths=MASTERS_PATHS,
    pieces=7,
    safe_rosettes=False,
    rosettes_grant_roll=True,
    captures_grant_roll=False,
)
ENGINE: Final = UrSetRules(RULES)

new_game = ENGINE.new_game
legal_actions = ENGINE.legal_actions
apply = ENGINE.apply
roll = ENGINE.roll
notation = ENGINE.notation
parse = ENGINE.parse
outcome = ENGINE.outcome
dump_state = ENGINE.dump_state
load_state = ENGINE.load_state

__all__ = [
    "ENGINE",
    "GAME",
    "RULES",
    "SEATS",
    "Move",
    "UrSetState",
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
