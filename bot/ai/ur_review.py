"""Move-by-move analysis of a finished Ur game from the solved table, for the review.

:func:`analyse` replays a game's action log. Every move with a real choice (two or more legal
moves that do not all come to the same chance) is judged: the solved table gives the mover's
chance to win after each legal move (:func:`bot.ai.ur.move_chances`), and the move played and
the best one are kept with their chances (:func:`bot.ai.move_review.judge`). The chart's
series is each side's chance to win before every roll, and the result at the end.

A table built with fewer than seven pieces covers only the end of a game (each side has that
many pieces left to play): moves and chart points before that are left out, and
``MoveAnalysis.complete`` says so. Look-ups are a few microseconds, so a 100-move game takes a
few milliseconds once the pages of the table it touches are in memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.ai.move_review import JudgedMove, MoveAnalysis, judge
from bot.ai.ur import move_chances
from bot.ai.ur_table import UrTable
from bot.engines import ur
from bot.engines.common import Phase, Replay

__all__ = ["JudgedMove", "MoveAnalysis", "analyse", "judge_move"]


def judge_move(
    state: ur.UrState, action: ur.Move, table: UrTable, index: int = 0
) -> JudgedMove | None:
    """``action`` played in ``state`` (its move phase) judged as the review judges it:
    against every legal move's exact chance from ``table``; ``None`` where there is no real
    choice or the table does not cover the position. ``index``: its place in the log."""
    position = state.position
    if not table.covers(position):
        return None
    chances = move_chances(position, state.roll_value, table)
    return judge(index, state.turn, (state.roll_value,), action, chances)


def analyse(
    notations: Sequence[str], table: UrTable, seats: Iterable[int] | None = None
) -> MoveAnalysis:
    """Judge the moves of ``seats`` (default: both) in the game recorded as ``notations``."""
    judged_seats = set(range(len(ur.SEATS)) if seats is None else seats)
    steps = Replay(ur, None, notations)
    moves: list[JudgedMove] = []
    series: list[tuple[int, tuple[float, ...]]] = []
    complete = True
    for index, (state, action, _) in enumerate(steps):
        position = state.position
        if state.phase is Phase.ROLL and not table.covers(position):
            complete = False
        elif state.phase is Phase.ROLL:
            chance = table.win_chance(position)
            light = chance if position.to_move == "light" else 1.0 - chance
            series.append((index, (light, 1.0 - light)))
        elif isinstance(action, ur.Move) and state.turn in judged_seats:
            judged = judge_move(state, action, table, index)
            if judged is not None:
                moves.append(judged)
    state = steps.state
    if state.outcome is not None and state.outcome.winner is not None:
        light_won = 1.0 if state.outcome.winner == ur.LIGHT else 0.0
        series.append((len(notations), (light_won, 1.0 - light_won)))
    return MoveAnalysis(len(notations), tuple(moves), tuple(series), complete)
