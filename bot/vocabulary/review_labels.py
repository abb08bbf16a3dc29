"""How reviews of Ur and Ludo label a move and score a player (one place for both games).

A move is judged by the winning chance it loses against the best move in that position
(chances from 0 to 1, so 0.05 is five percentage points):

- ``best``: nothing lost (it is the best move, or as good as it);
- ``good``: less than :data:`GOOD_LOSS`;
- ``inaccuracy``: less than :data:`MISTAKE_LOSS`;
- ``mistake``: less than :data:`BLUNDER_LOSS`;
- ``blunder``: :data:`BLUNDER_LOSS` or more.

Accuracy is the mean share of the best move's winning chance that the moves played kept
(``played / best``), as a percentage: 100 means every move was the best.

A label counted in a review is the plural message ``count.review.<label>``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Literal

Label = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
LABELS: Final[tuple[Label, ...]] = ("best", "good", "inaccuracy", "mistake", "blunder")

BEST_LOSS: Final = 1e-9  # float noise: a move losing no more than this is a best move
GOOD_LOSS: Final = 0.02
MISTAKE_LOSS: Final = 0.05
BLUNDER_LOSS: Final = 0.10


def label(loss: float) -> Label:
    """The label of a move that lost ``loss`` winning chance against the best move."""
    if loss <= BEST_LOSS:
        return "best"
    if loss < GOOD_LOSS:
        return "good"
    if loss < MISTAKE_LOSS:
        return "inaccuracy"
    if loss < BLUNDER_LOSS:
        return "mistake"
    return "blunder"


def accuracy(kept: Iterable[tuple[float, float]]) -> float:
    """Accuracy in percent from ``(played chance, best chance)`` of each judged move; 100 when
    there is none (nothing was got wrong)."""
    shares = [1.0 if best <= 0.0 else min(1.0, max(0.0, played / best)) for played, best in kept]
    return 100.0 * sum(shares) / len(shares) if shares else 100.0
