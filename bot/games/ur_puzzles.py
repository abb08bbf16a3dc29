"""Ur puzzles: positions of the solved table where one move keeps at least 10 points more
chance to win than the next best.

The built-in set: games played by the bot's ``medium`` level, every move with a choice looked
up in the solved table (the installed one; a table of fewer pieces covers the end of the real
game, where each side has borne off the pieces it lacks). Positions where the best move keeps
:data:`MIN_MARGIN` or more over the next best become puzzles, every legal move a button. An
answer is judged as the Ur review judges a move (``bot.vocabulary.review_labels``).
"""

from __future__ import annotations

import random
from typing import Final

from bot.ai import ur as ai
from bot.ai import ur_table
from bot.engines import ur
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

MIN_MARGIN: Final = 0.10
MAX_GAMES_PER_PUZZLE: Final = 200  # gives up when the table covers too little of the game


def judge(loss: float) -> Verdict:
    word = label(loss)
    return verdict(loss < GOOD_LOSS, word, loss)


def value(chance: float) -> str:
    return f"{100 * chance:.1f}%"


def position_puzzle(
    state: ur.UrState, table: ur_table.UrTable, rng: random.Random
) -> Puzzle | None:
    if not table.covers(state.position):
        return None
    chances = ai.move_chances(state.position, state.roll_value, table)
    if len(chances) < 2 or chances[0][1] - chances[1][1] < MIN_MARGIN:
        return None
    candidates = [Candidate(move.notation(), chance) for move, chance in chances[:5]]
    return Puzzle(ur.GAME, ur.dump_state(state), state.turn, ordered(candidates, rng))


def generate(count: int, rng: random.Random) -> list[Puzzle]:
    table = ur_table.installed()
    if table is None:
        raise RuntimeError("Ur puzzles come from the solved table: build it first")
    found: dict[str, Puzzle] = {}
    games = 0
    while len(found) < count and games < MAX_GAMES_PER_PUZZLE * count:
        games += 1
        state = ur.new_game()
        while state.phase is not Phase.FINISHED and len(found) < count:
            if state.phase is Phase.ROLL:
                state = ur.apply(state, ur.roll(state, rng))
                continue
            if len(ur.legal_actions(state)) > 1:
                puzzle = position_puzzle(state, table, rng)
                if puzzle is not None:
                    found.setdefault(puzzle.key, puzzle)
            state = ur.apply(state, ai.choose_action(state, "medium", rng))
    return list(found.values())[:count]


def from_review(review: ChanceReview, record: Record) -> list[Puzzle]:
    """A server game's moves that lost at least MIN_MARGIN against the best."""
    return chance_review_puzzles(review, record, ur, ur.GAME, MIN_MARGIN)


SOURCE = PuzzleSource(
    generate=generate,
    judge=judge,
    value=value,
    how="puzzle.how.ur",
    from_review=of_reviews(ChanceReview, from_review),
)
