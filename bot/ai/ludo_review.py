"""Move-by-move analysis of a finished Ludo game, for the review.

:func:`analyse` replays a game's action log and, for every move of the asked seats that had a
real choice, asks the ``hard`` AI's search (:func:`bot.ai.ludo.action_chances`) for the mover's
chance to win after each legal move (as the AI rates it, its caution about its own exposed
tokens included): the move played and the best one are kept with their chances. A move is one
die: its chance assumes the rest of the turn is played as well as possible. Moves whose legal
choices all end the turn in the same position (forced moves, or two tokens on one square) are
not judged. The chart's series is every seat's chance to win at each roll, from
:func:`bot.ai.ludo_eval.win_chances`.

A 700-action game takes well under a second: each judged move is one search of the rest of the
turn with the winning-chance model at its leaves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.ai.ludo import action_chances
from bot.ai.ludo_eval import win_chances
from bot.ai.move_review import JudgedMove, MoveAnalysis, judge
from bot.engines import ludo
from bot.engines.common import Phase, Replay

__all__ = ["JudgedMove", "MoveAnalysis", "analyse", "judge_move"]


def judge_move(state: ludo.LudoState, action: ludo.Move, index: int = 0) -> JudgedMove | None:
    """``action`` played in ``state`` (its move phase) judged as the review judges it: the
    hard AI's search rates every legal move; ``None`` where there is no real choice.
    ``index``: its place in the log."""
    actions = ludo.legal_actions(state)
    # A forced move is not judged: no search for it.
    chances = action_chances(state, actions) if len(actions) > 1 else [0.0]
    ranked = list(zip(actions, chances, strict=True))
    return judge(index, state.turn, state.dice, action, ranked)


def analyse(notations: Sequence[str], seats: Iterable[int] | None = None) -> MoveAnalysis:
    """Judge the moves of ``seats`` (default: all) in the game recorded as ``notations``."""
    judged_seats = set(range(len(ludo.SEATS)) if seats is None else seats)
    steps = Replay(ludo, None, notations)
    moves: list[JudgedMove] = []
    series: list[tuple[int, tuple[float, ...]]] = []
    for index, (state, action, _) in enumerate(steps):
        if state.phase is Phase.ROLL:
            position = state.position
            series.append(
                (index, tuple(win_chances(position.tokens, position.to_move, position.out)))
            )
        elif isinstance(action, ludo.Move) and state.turn in judged_seats:
            judged = judge_move(state, action, index)
            if judged is not None:
                moves.append(judged)
    state = steps.state
    if state.outcome is not None:
        winner = state.outcome.winner
        final = tuple(1.0 if seat == winner else 0.0 for seat in range(len(ludo.SEATS)))
        series.append((len(notations), final))
    return MoveAnalysis(len(notations), tuple(moves), tuple(series))
