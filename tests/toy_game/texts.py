"""Toy Race in words (English only: a test game brings no catalogue entries of its own)."""

from __future__ import annotations

from bot.engines.common import Roll
from bot.games.texts import GameTexts, Speaker, rolled
from tests.toy_game.engine import HOME, Move, ToyState


class ToyTexts(GameTexts[ToyState, Move]):
    def action(
        self, before: ToyState, action: Move | Roll, after: ToyState, speak: Speaker, _: str | None
    ) -> str:
        if isinstance(action, Roll):
            return rolled(str(action.dice[0]), False, speak)
        where = "home" if action.target == HOME else f"to square {action.target}"
        return f"moved a piece from square {action.source} {where}"
