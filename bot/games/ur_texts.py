"""Ur in words: "moved a piece from square 5 to 8, rosette: rolls again". The four binary
dice are said as their total, the number players count."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engines import ur
from bot.engines.common import Phase, Roll
from bot.games.texts import GameTexts, Speaker, joined, rolled


class UrTexts(GameTexts):
    def action(
        self, before: ur.UrState, action: Any, after: ur.UrState, speak: Speaker, _: str | None
    ) -> str:
        say = speak.say
        if isinstance(action, Roll):  # four binary dice: players count the marked tips
            return rolled(str(sum(action.dice)), after.passed, speak)
        move: ur.Move = action
        if move.enters:
            main = say("move.ur.enter", to=move.target)
        elif move.bears_off:
            main = say("move.ur.off", frm=move.source)
        else:
            main = say("move.ur.step", frm=move.source, to=move.target)
        extras = []
        if ur.is_capture(before.position, move):
            extras.append(say("move.ur.captured", victim=speak.name(1 - before.turn)))
        if after.extra_roll and after.phase is Phase.ROLL:
            extras.append(say("move.ur.rosette"))
        return joined(main, extras)

    def dice(self, dice: Sequence[int]) -> str:
        return str(sum(dice))
