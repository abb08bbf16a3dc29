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
from bot.games.puzzles import Candidate, Puzzle, chance_source, ordered, self_play

MIN_MARGIN: Final = 0.10
MAX_GAMES_PER_PUZZLE: Final = 200  # gives up when the table covers too little of the game


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
    return self_play(
        ur,
        count,
        rng,
        choose=lambda state: ai.choose_action(state, "medium", rng),
        find=lambda state, _: position_puzzle(state, table, rng),
        max_games=MAX_GAMES_PER_PUZZLE * count,
    )


SOURCE = chance_source(ur, generate, MIN_MARGIN, "puzzle.how.ur")
