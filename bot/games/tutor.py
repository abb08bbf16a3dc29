"""Tutor mode as a game brings it: how one move is judged before it is stored, and from what
loss the player is asked "Are you sure?".

A game offers tutor mode when its review does (``ReviewSpec.tutor``): the judge is the
review's own judgement of one move (backgammon: the expert's equity at the review's level;
Ur: the solved table; Ludo: the hard AI's search), made for the move about to be played
instead of for a finished game, and the thresholds are the review's labels. The service
(:mod:`bot.service.tutor`) asks, stores the warning and waits for the answer; nothing here
knows Discord or storage.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from bot.ai.move_review import JudgedMove
from bot.ai.pool import ExpertPool

__all__ = ["Judge", "TutorSpec", "Unit", "Verdict", "verdict_of"]

Unit = Literal["equity", "chance"]
"""What a game's losses are measured in: equity (shown in millipoints) or the mover's chance
to win (shown in percentage points)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """One move judged: what it gives up against the best move (``loss`` >= 0, in the game's
    unit) and the best move (notation, or the review's wording of it)."""

    loss: float
    best: str


Judge = Callable[[Any, Any, ExpertPool | None], Awaitable[Verdict | None]]
"""``judge(state, action, expert)``: the person on turn in ``state`` (its move phase) is about
to play ``action``; the verdict, or ``None`` where the move is not judged (no real choice, no
engine or table here). Judges that search run off the event loop (a worker thread, the expert
pool); the service bounds the wait."""


@dataclass(frozen=True, slots=True)
class TutorSpec:
    """A game's tutor mode: its ``judge``, and its thresholds from its review's labels. A move
    losing ``asks_from`` or more is questioned; ``never_below`` is the review's next label
    down, under which a move is never questioned (``never_below <= asks_from``; the gap
    between them is the review's "error" / "mistake" band, played without a question)."""

    judge: Judge
    asks_from: float
    never_below: float
    unit: Unit

    def __post_init__(self) -> None:
        if not 0.0 < self.never_below <= self.asks_from:
            raise ValueError("a tutor asks from a loss at least its never_below, above 0")

    def asks(self, verdict: Verdict | None) -> bool:
        """Whether the move judged ``verdict`` is questioned."""
        return verdict is not None and verdict.loss >= self.asks_from


def verdict_of(judged: JudgedMove | None) -> Verdict | None:
    """A chance review's judged move as a tutor's verdict."""
    return None if judged is None else Verdict(judged.loss, judged.best)
