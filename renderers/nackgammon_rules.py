"""The pictures ``/rules`` shows for Nackgammon: its starting position, white to play the
opening roll, then backgammon's own pictures (entering, hitting, bearing off, the cube),
which hold in Nackgammon as they are."""

from __future__ import annotations

from bot.engines import backgammon as bg
from bot.engines import nackgammon
from bot.engines.common import Roll
from renderers import backgammon_rules
from renderers.rule_pictures import RulePicture

Picture = RulePicture[bg.BackgammonState, bg.Decision]

OPENING = (3, 1)  # white's die, black's die: white starts with 3-1


def pictures() -> list[Picture]:
    """The starting position with white's opening 3-1 selected (the back checkers split,
    24/21 23/22, as a preview), then backgammon's pictures."""
    before = bg.apply(nackgammon.new_game(), Roll(OPENING))
    play = next(p for p in bg.legal_plays_for(before) if sorted(p.steps) == [(23, 22), (24, 21)])
    start: Picture = RulePicture(
        nackgammon.GAME,
        "start",
        before,
        play,
        before,
        {"perspective": 0, "preview_steps": play.steps},
    )
    return [start, *backgammon_rules.pictures()]
