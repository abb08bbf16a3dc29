"""A board's tokens (the last part of its buttons' ids) as the games' menus define them: which
clicks become an engine action the log keeps (a roll, a cube decision, a move; the others only
change the draft), and how much a random player leans towards each."""

from __future__ import annotations

import re

from bot.games import backgammon_menus as backgammon
from bot.games import ludo_menus as ludo
from bot.games import ur_menus as ur
from bot.games.menu import ROLL

ROLL_TOKENS = frozenset({ROLL})
CUBE_TOKENS = frozenset(backgammon.CUBE_ACTIONS)
# A move's token: the piece's square (Ur), the die and the token (Ludo), one of the whole
# plays offered, or the Confirm of a play made checker by checker (backgammon).
UR_MOVE = re.compile(rf"^{re.escape(ur.MOVE)}(\d+)$")
LUDO_MOVE = re.compile(rf"^{re.escape(ludo.TOKEN)}(\d+)\.(\d+)$")
WHOLE_PLAY = re.compile(rf"^{re.escape(backgammon.WHOLE_PLAY)}(\d+)$")
MOVE_TOKENS = frozenset({backgammon.CONFIRM})
# Players pick among offered buttons at random, but lean away from the ones that undo
# progress or end a game early, so whole games stay short enough for CI.
CLICK_WEIGHTS = {
    backgammon.UNDO: 0.1,
    backgammon.BACK: 0.1,
    ludo.BACK: 0.1,
    backgammon.DOUBLE: 0.05,
    backgammon.DROP: 0.3,
}


def is_move(token: str) -> bool:
    """Whether clicking ``token`` plays a move (not a step of one in progress)."""
    return token in MOVE_TOKENS or any(p.match(token) for p in (UR_MOVE, LUDO_MOVE, WHOLE_PLAY))


def click_kind(token: str) -> str | None:
    """What a clicked token logs: roll, move or cube; None for a draft-only click."""
    if token in ROLL_TOKENS:
        return "roll"
    if token in CUBE_TOKENS:
        return "cube"
    if is_move(token):
        return "move"
    return None
