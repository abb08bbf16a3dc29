"""The pictures ``/rules`` shows for Hypergammon: its starting position, white to play the
opening roll, then backgammon's own pictures (entering, hitting, bearing off, the cube),
whose rules hold in Hypergammon as they are."""

from __future__ import annotations

from bot.engines import backgammon as bg
from bot.engines import hypergammon
from bot.engines.common import Roll
from renderers import backgammon_rules
from renderers.rule_pictures import RulePicture

Picture = RulePicture[bg.BackgammonState, bg.Decision]

OPENING = (3, 1)  # white's die, black's die: white starts with 3-1


def pictures() -> list[Picture]:
    """The starting position with white's opening 3-1 selected (its 21-point made, 24/21
    22/21, as a preview), then backgammon's pictures."""
    before = bg.apply(hypergammon.new_game(), Roll(OPENING))
    play = next(p for p in bg.legal_plays_for(before) if sorted(p.steps) == [(22, 21), (24, 21)])
    start: Picture = RulePicture(
        hypergammon.GAME,
        "start",
        before,
        play,
        before,
        {"perspective": 0, "preview_steps": play.steps},
    )
    return [start, *backgammon_rules.pictures()]
