"""Toy Race in words, from its own catalogue (``tests/toy_game/locales``)."""

from __future__ import annotations

from bot.engines.common import Roll
from bot.games.texts import GameTexts, Speaker, rolled
from tests.toy_game.engine import HOME, Lead, Move, Phase, ToyState


class ToyTexts(GameTexts[ToyState, Move | Lead]):
    def action(
        self,
        before: ToyState,
        action: Move | Lead | Roll,
        after: ToyState,
        speak: Speaker,
        _: str | None,
    ) -> str:
        if isinstance(action, Roll):
            return rolled(str(action.dice[0]), False, speak)
        if isinstance(action, Lead):
            if action.seat == before.turn:
                return speak.say("move.toy.first")
            return speak.say("move.toy.second", name=speak.name(action.seat))
        if action.target == HOME:
            return speak.say("move.toy.home", frm=action.source)
        return speak.say("move.toy.step", frm=action.source, to=action.target)

    def status(self, state: ToyState, speak: Speaker) -> str | None:
        if state.phase is Phase.CHOOSE:
            return speak.say("text.toy.to_choose", name=speak.name(state.turn))
        return None
