"""The pictures ``/rules`` shows for Ur: light to play, the piece that shows the rule
selected (entering, capturing, landing on a rosette, bearing off)."""

from __future__ import annotations

from bot.engines import ur
from bot.engines.common import Phase
from renderers.rule_pictures import RulePicture


def _ur_selected(
    rule: str, light: list[int], dark: list[int], roll: int, source: int
) -> RulePicture[ur.UrState, ur.Move]:
    """Light to play ``roll`` with the piece on ``source`` selected."""
    dice = tuple(1 if i < roll else 0 for i in range(4))
    state = ur.UrState(
        ur.Position.from_squares(light, dark, "light"), Phase.MOVE, ur.LIGHT, dice=dice
    )
    move = next(m for m in ur.legal_actions(state) if m.source == source)
    return RulePicture(ur.GAME, rule, state, move, state, {"highlight": source, "perspective": 0})


def pictures() -> list[RulePicture[ur.UrState, ur.Move]]:
    return [
        _ur_selected("enter", [0, 0, 0, 0, 0, 3, 6], [0, 0, 0, 0, 0, 2, 7], 2, ur.START),
        _ur_selected("capture", [0, 0, 0, 0, 0, 1, 6], [0, 0, 0, 0, 0, 3, 9], 3, 6),
        _ur_selected("rosette", [0, 0, 0, 0, 0, 2, 5], [0, 0, 0, 0, 0, 6, 10], 3, 5),
        _ur_selected("bear_off", [15, 15, 15, 15, 13, 11, 0], [15, 15, 0, 0, 5, 12, 14], 2, 13),
    ]
