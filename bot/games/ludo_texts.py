"""Ludo in words: "token 4 out of base with a 6", captures, lost dice and extra turns."""

from __future__ import annotations

from typing import Any

from bot.engines import ludo
from bot.engines.common import Phase, Roll
from bot.games.texts import GameTexts, Speaker, dice_text, joined, rolled


class LudoTexts(GameTexts):
    def action(
        self,
        before: ludo.LudoState,
        action: Any,
        after: ludo.LudoState,
        speak: Speaker,
        _: str | None,
    ) -> str:
        say = speak.say
        turn_over = after.phase is Phase.ROLL
        again = [say("move.ludo.again")] if turn_over and after.extra_turn else []
        if isinstance(action, Roll):
            return joined(rolled(dice_text(action.dice), after.passed, speak), again)
        move: ludo.Move = action
        token, die = move.token + 1, move.die
        if move.source == 0:
            main = say("move.ludo.out", token=token, die=die)
        elif move.target == ludo.HOME:
            main = say("move.ludo.home", token=token, die=die)
        elif move.target > ludo.LOOP >= move.source:
            main = say("move.ludo.stretch", token=token, die=die)
        else:
            main = say("move.ludo.step", token=token, die=die)
        extras = []
        last = after.last_move
        if last is not None and last.captured is not None:
            victim = speak.name(last.captured.seat)
            extras.append(say("move.ludo.captured", token=last.captured.token + 1, victim=victim))
        if turn_over:
            extras.extend(say("move.ludo.lost", die=lost) for lost in after.lost)
        return joined(main, extras + again)
