"""Ludo in words: "token 4 out of base with a 6", captures, lost dice and extra turns."""

from __future__ import annotations

from bot.engines import ludo
from bot.engines.common import Phase, Roll
from bot.games.texts import GameTexts, Speaker, dice_text, joined, listed, rolled, turn_words


class LudoTexts(GameTexts[ludo.LudoState, ludo.Move]):
    def describe(self, state: ludo.LudoState, speak: Speaker) -> str:
        """Each colour's tokens in the yard, the steps of the others along its path, home."""
        lines = [speak.say("alt.ludo.header")]
        for seat in range(len(ludo.SEATS)):
            steps = state.position.steps(seat)
            lines.append(
                speak.say(
                    "alt.ludo.seat",
                    name=speak.name(seat),
                    yard=steps.count(0),
                    steps=listed(sorted(s for s in steps if 0 < s < ludo.HOME), speak),
                    home=steps.count(ludo.HOME),
                )
            )
        if state.outcome is None:
            dice = dice_text(state.dice) if state.phase is Phase.MOVE else None
            lines.append(turn_words(state.position.to_move, dice, speak))
        return " ".join(lines)

    def resign_question(self, state: ludo.LudoState, speak: Speaker) -> str:
        # A resigned seat drops out: the table plays on without it.
        return speak.say("resign.confirm_ludo")

    def candidate(self, state: ludo.LudoState, notation: str, speak: Speaker) -> str:
        """As the move line says it: ``token 3 moved 4``."""
        move = ludo.parse(state, notation)
        if not isinstance(move, ludo.Move):
            return notation
        return self._main(move, speak)

    def _main(self, move: ludo.Move, speak: Speaker) -> str:
        token, die = move.token + 1, move.die
        if move.source == 0:
            return speak.say("move.ludo.out", token=token, die=die)
        if move.target == ludo.HOME:
            return speak.say("move.ludo.home", token=token, die=die)
        if move.target > ludo.LOOP >= move.source:
            return speak.say("move.ludo.stretch", token=token, die=die)
        return speak.say("move.ludo.step", token=token, die=die)

    def action(
        self,
        before: ludo.LudoState,
        action: ludo.Move | Roll,
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
        main = self._main(move, speak)
        extras = []
        last = after.last_move
        if last is not None and last.captured is not None:
            victim = speak.name(last.captured.seat)
            extras.append(say("move.ludo.captured", token=last.captured.token + 1, victim=victim))
        if turn_over:
            extras.extend(say("move.ludo.lost", die=lost) for lost in after.lost)
        return joined(main, extras + again)
