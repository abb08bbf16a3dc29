"""What a move-by-move review of a race game is made of, whatever judges the moves.

A game's analysis (``bot.ai.ur_review`` from the solved table, ``bot.ai.ludo_review`` from
the hard AI's search) replays a finished game and, for every move with a real choice, has the
mover's chance to win after each legal move; :func:`judge` keeps the move played and the best
one with their chances, and leaves out moves whose choices all come to the same. The result
is a :class:`MoveAnalysis`: the judged moves, and every seat's chance to win at each roll
(the chart).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["SAME", "JudgedMove", "MoveAnalysis", "judge"]

SAME: float = 1e-12  # chances closer than this are the same


class Action(Protocol):
    def notation(self) -> str: ...


@dataclass(frozen=True, slots=True)
class JudgedMove:
    """One judged move: ``index`` is its place in the action log (the state before it is the
    replay of the actions before it, in the move phase with its dice)."""

    index: int
    seat: int
    dice: tuple[int, ...]  # the dice left to play when it was chosen (Ur: its one roll)
    played: str
    best: str
    played_chance: float  # the mover's chance to win after the move played
    best_chance: float  # ... after the best move

    @property
    def loss(self) -> float:
        """Winning chance lost against the best move (0 for the best move)."""
        return max(0.0, self.best_chance - self.played_chance)


@dataclass(frozen=True, slots=True)
class MoveAnalysis:
    actions: int
    moves: tuple[JudgedMove, ...]
    # (action index, each seat's chance to win) at every roll judged, and at the end.
    series: tuple[tuple[int, tuple[float, ...]], ...]
    complete: bool = True  # False: the judge saw only part of the game (a small Ur table)


def judge(
    index: int,
    seat: int,
    dice: tuple[int, ...],
    played: Any,
    chances: Sequence[tuple[Any, float]],
) -> JudgedMove | None:
    """The judged move ``played`` from each legal move's chance for the mover (``chances``,
    the first of equal best ones counting as best); ``None`` where there was no real choice:
    fewer than two moves, or all coming to the same."""
    if len(chances) < 2:
        return None
    values = [chance for _, chance in chances]
    if max(values) - min(values) < SAME:
        return None
    best, best_chance = max(chances, key=lambda pair: pair[1])
    played_chance = next(chance for move, chance in chances if move == played)
    if best_chance - played_chance < SAME:
        best = played  # the move played was (one of) the best
    return JudgedMove(
        index=index,
        seat=seat,
        dice=dice,
        played=played.notation(),
        best=best.notation(),
        played_chance=played_chance,
        best_chance=best_chance,
    )
