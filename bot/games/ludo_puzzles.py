"""Ludo puzzles: moves where the hard AI's search finds the best move clearly better (at
least 5 points of winning chance) than every other.

The built-in set: four-seat games of the bot's ``medium`` level; at every move with a choice
the hard search (``bot.ai.ludo.action_chances``) rates each legal move, and a position whose
best move keeps :data:`MIN_MARGIN` or more over the next best becomes a puzzle. An answer is
judged as the Ludo review judges a move (``bot.vocabulary.review_labels``).
"""

from __future__ import annotations

import random
import re
from typing import Final

from bot.ai import ludo as ai
from bot.engines import ludo
from bot.games.puzzles import Candidate, Puzzle, chance_source, ordered, self_play

MIN_MARGIN: Final = 0.05


def position_puzzle(state: ludo.LudoState, rng: random.Random) -> Puzzle | None:
    actions = ludo.legal_actions(state)
    if len(actions) < 2:
        return None
    # Two tokens on one square make the same move: one button for it.
    best: dict[str, tuple[str, float]] = {}
    for action, chance in zip(actions, ai.action_chances(state, actions), strict=True):
        text = ludo.notation(state, action)
        same = re.sub(r"t\d+ ", "", text)
        if same not in best or chance > best[same][1]:
            best[same] = (text, chance)
    ranked = sorted(best.values(), key=lambda pair: -pair[1])
    if len(ranked) < 2 or ranked[0][1] - ranked[1][1] < MIN_MARGIN:
        return None
    candidates = [Candidate(text, chance) for text, chance in ranked[:5]]
    return Puzzle(ludo.GAME, ludo.dump_state(state), state.turn, ordered(candidates, rng))


def generate(count: int, rng: random.Random) -> list[Puzzle]:
    # Every other position with a choice on average: the set spreads over more games.
    return self_play(
        ludo,
        count,
        rng,
        choose=lambda state: ai.choose_action(state, "medium", rng),
        find=lambda state, _: position_puzzle(state, rng) if rng.random() < 0.5 else None,
    )


SOURCE = chance_source(ludo, generate, MIN_MARGIN, "puzzle.how.ludo")
