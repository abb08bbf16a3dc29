"""Move-by-move analysis of a finished Ur game from the solved table, for the review.

:func:`analyse` replays a game's action log. Every move with a real choice (two or more legal
moves that do not all come to the same chance) is judged: the solved table gives the mover's
chance to win after each legal move (:func:`bot.ai.ur.move_chances`), and the move played and
the best one are kept with their chances. The chart's series is light's chance to win before
every roll, and the result at the end.

A table built with fewer than seven pieces covers only the end of a game (each side has that
many pieces left to play): moves and chart points before that are left out, and
``UrAnalysis.complete`` says so. Look-ups are a few microseconds, so a 100-move game takes a
few milliseconds once the pages of the table it touches are in memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.ai.ur import move_chances
from bot.ai.ur_table import UrTable
from bot.engines import ur
from bot.engines.common import Phase

__all__ = ["JudgedMove", "UrAnalysis", "analyse"]

SAME: float = 1e-12  # chances closer than this are the same


@dataclass(frozen=True, slots=True)
class JudgedMove:
    """One judged move: ``index`` is its place in the action log (the state before it is the
    replay of the actions before it, in the move phase with its roll)."""

    index: int
    seat: int
    roll: int
    played: str
    best: str
    played_chance: float  # the mover's chance to win after the move played
    best_chance: float  # ... after the best move

    @property
    def loss(self) -> float:
        """Winning chance lost against the best move (0 for the best move)."""
        return max(0.0, self.best_chance - self.played_chance)


@dataclass(frozen=True, slots=True)
class UrAnalysis:
    actions: int
    moves: tuple[JudgedMove, ...]
    series: tuple[tuple[int, float], ...]  # (action index, light's chance to win)
    complete: bool  # False: the table covers only the end of the game


def analyse(
    notations: Sequence[str], table: UrTable, seats: Iterable[int] | None = None
) -> UrAnalysis:
    """Judge the moves of ``seats`` (default: both) in the game recorded as ``notations``."""
    judged_seats = set(range(len(ur.SEATS)) if seats is None else seats)
    state = ur.new_game()
    moves: list[JudgedMove] = []
    series: list[tuple[int, float]] = []
    complete = True
    for index, text in enumerate(notations):
        action = ur.parse(state, text)
        position = state.position
        if state.phase is Phase.ROLL and not table.covers(position):
            complete = False
        elif state.phase is Phase.ROLL:
            chance = table.win_chance(position)
            series.append((index, chance if position.to_move == "light" else 1.0 - chance))
        elif isinstance(action, ur.Move) and state.turn in judged_seats:
            judged = _judge(state, action, index, table)
            if judged is not None:
                moves.append(judged)
        state = ur.apply(state, action)
    if state.outcome is not None and state.outcome.winner is not None:
        series.append((len(notations), 1.0 if state.outcome.winner == ur.LIGHT else 0.0))
    return UrAnalysis(len(notations), tuple(moves), tuple(series), complete)


def _judge(state: ur.UrState, played: ur.Move, index: int, table: UrTable) -> JudgedMove | None:
    if not table.covers(state.position):
        return None
    roll = state.roll_value
    chances = move_chances(state.position, roll, table)
    if len(chances) < 2 or chances[0][1] - chances[-1][1] < SAME:
        return None  # forced, or every choice comes to the same
    best, best_chance = chances[0]
    played_chance = next(chance for move, chance in chances if move == played)
    if best_chance - played_chance < SAME:
        best = played  # the move played was (one of) the best
    return JudgedMove(
        index=index,
        seat=state.turn,
        roll=roll,
        played=played.notation(),
        best=best.notation(),
        played_chance=played_chance,
        best_chance=best_chance,
    )
