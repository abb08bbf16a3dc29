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
from bot.engines.common import Phase
from bot.games.puzzles import (
    Candidate,
    Puzzle,
    PuzzleSource,
    Verdict,
    chance_review_puzzles,
    of_reviews,
    ordered,
    verdict,
)
from bot.games.review import ChanceReview, Record
from bot.vocabulary.review_labels import GOOD_LOSS, label

MIN_MARGIN: Final = 0.05


def judge(loss: float) -> Verdict:
    return verdict(loss < GOOD_LOSS, label(loss), loss)


def value(chance: float) -> str:
    return f"{100 * chance:.1f}%"


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
    found: dict[str, Puzzle] = {}
    while len(found) < count:
        state = ludo.new_game()
        while state.phase is not Phase.FINISHED and len(found) < count:
            if state.phase is Phase.ROLL:
                state = ludo.apply(state, ludo.roll(state, rng))
                continue
            puzzle = position_puzzle(state, rng) if rng.random() < 0.5 else None
            if puzzle is not None:
                found.setdefault(puzzle.key, puzzle)
            state = ludo.apply(state, ai.choose_action(state, "medium", rng))
    return list(found.values())[:count]


def from_review(review: ChanceReview, record: Record) -> list[Puzzle]:
    """A server game's moves that lost at least MIN_MARGIN against the best."""
    return chance_review_puzzles(review, record, ludo, ludo.GAME, MIN_MARGIN)


SOURCE = PuzzleSource(
    generate=generate,
    judge=judge,
    value=value,
    how="puzzle.how.ludo",
    from_review=of_reviews(ChanceReview, from_review),
)
