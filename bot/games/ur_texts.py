"""Ur in words: "moved a piece from square 5 to 8, rosette: rolls again". The four binary
dice are said as their total, the number players count."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.ai.ur_hint import UrHint
from bot.engines import ur
from bot.engines.common import Phase, Roll
from bot.engines.ur_labels import label
from bot.formats import decimal
from bot.games.texts import GameTexts, Speaker, joined, listed, rolled, turn_words
from bot.i18n import tr

TITLE: Final = "Royal Game of Ur"  # the manifest's; Ur's refusals name the game by it too
HINT_LINES = 5  # of the table's moves, /hint shows the best this many


class UrTexts(GameTexts[ur.UrState, ur.Move]):
    def action(
        self,
        before: ur.UrState,
        action: ur.Move | Roll,
        after: ur.UrState,
        speak: Speaker,
        _: str | None,
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

    def candidate(self, state: ur.UrState, notation: str, speak: Speaker) -> str:
        """Named like its piece's button and board marker: the square it stands on."""
        move = ur.parse(state, notation)
        return label(move.source) if isinstance(move, ur.Move) else notation

    def describe(self, state: ur.UrState, speak: Speaker) -> str:
        """Each side's waiting pieces, squares of its path and pieces borne off."""
        lines = [speak.say("alt.ur.header")]
        position = state.position
        for seat, side in enumerate(ur.SEATS):
            on_board = [s for s in position.squares(side) if ur.START < s < ur.OFF]
            lines.append(
                speak.say(
                    "alt.ur.side",
                    name=speak.name(seat),
                    waiting=position.waiting(side),
                    squares=listed(on_board, speak),
                    off=position.borne_off(side),
                )
            )
        if state.outcome is None:
            dice = str(sum(state.dice)) if state.phase is Phase.MOVE else None
            lines.append(turn_words(state.turn, dice, speak))
        return " ".join(lines)

    def hint(self, hint: UrHint, locale: str | None) -> str:
        """The solved table's chance before the roll, or each move with the chance after it."""
        if not hint.moves:
            return tr("hint.ur_roll", locale, win=decimal(100 * hint.chance, locale))
        best = hint.moves[0][1]
        lines = [tr("hint.ur_header", locale)]
        for rank, (move, chance) in enumerate(hint.moves[:HINT_LINES], start=1):
            loss = best - chance
            lines.append(
                tr(
                    "hint.ur_line",
                    locale,
                    rank=rank,
                    move=move,
                    win=decimal(100 * chance, locale),
                    loss=f" (−{decimal(100 * loss, locale)})" if loss >= 0.0005 else "",
                )
            )
        return "\n".join(lines)
