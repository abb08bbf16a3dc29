"""The pictures ``/rules`` shows for Ludo: the position right after red's move that shows
the rule (leaving base, capturing, making a block, reaching home), its arrow drawn."""

from __future__ import annotations

from bot.engines import ludo
from bot.engines.common import Phase
from renderers.rule_pictures import RulePicture


def _ludo_played(
    rule: str, steps: dict[str, list[int]], die: int, other: int, token: int
) -> RulePicture[ludo.LudoState, ludo.Move]:
    """Red plays ``die`` with ``token`` (``other``, the roll's second die, already used)."""
    before = ludo.LudoState(
        position=ludo.Position.from_steps(steps, "red"),
        phase=Phase.MOVE,
        dice=(die,),
        rolled=(die, other),
    )
    move = next(m for m in ludo.legal_actions(before) if m.token == token)
    after = ludo.apply(before, move)
    return RulePicture(ludo.GAME, rule, before, move, after, {"perspective": 0})


def pictures() -> list[RulePicture[ludo.LudoState, ludo.Move]]:
    return [
        _ludo_played(
            "leave_base",
            {"red": [0, 0, 0, 14], "blue": [3, 0, 0, 0], "green": [0] * 4, "yellow": [9, 0, 0, 0]},
            6,
            2,
            0,
        ),
        _ludo_played(
            # Yellow's token on its step 24 is on red's step 12.
            "capture",
            {"red": [9, 0, 0, 0], "blue": [0] * 4, "green": [5, 0, 0, 0], "yellow": [24, 0, 0, 0]},
            3,
            1,
            0,
        ),
        _ludo_played(
            # Blue's token two squares behind the new block (blue's step 6, red's step 18).
            "block",
            {"red": [17, 20, 0, 0], "blue": [6, 0, 0, 0], "green": [0] * 4, "yellow": [0] * 4},
            3,
            1,
            0,
        ),
        _ludo_played(
            "home",
            {"red": [51, 54, 30, 0], "blue": [20, 0, 0, 0], "green": [0] * 4, "yellow": [0] * 4},
            3,
            2,
            0,
        ),
    ]
