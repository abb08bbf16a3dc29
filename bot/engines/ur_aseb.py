"""The Royal Game of Ur, Aseb rules (RoyalUr.net): the Aseb board (each side's lane of four
squares and a middle lane of twelve), each side's path of 16 squares (its own lane 1-4, then
the whole middle lane 5-16, all shared), four binary dice, five pieces each, safe rosettes
that give another roll; captures do not. The engine is :mod:`bot.engines.ur_sets`'s for this
rule set; its functions are this module's, so the module is a ``Rules[UrSetState, Move]``."""

from __future__ import annotations

from typing import Final

from bot.engines.ur_sets import (
    ASEB_CELLS,
    ASEB_PATHS,
    ASEB_ROSETTES,
    SEATS,
    Move,
    RuleSet,
    UrSetRules,
    UrSetState,
)

GAME: Final = "ur_aseb"

RULES: Final = RuleSet(
    game=GAME,
    name="Aseb",
    cells=ASEB_CELLS,
    rosettes=ASEB_ROSETTES,
    paths=ASEB_PATHS,
    pieces=5,
    safe_rosettes=True,
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
