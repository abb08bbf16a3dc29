"""Post-game review of a finished Ludo game, judged by the ``hard`` AI's search.

API (used by :class:`bot.service.review.ReviewService` and the review UI)::

    reviews = LudoReviews(db)
    review = await reviews.review(row)            # -> LudoReview; cached in the database
    state, move = await reviews.move_state(game_id, move)
        # the state just before a reviewed move, to draw it made and best

    review.players[i]: LudoPlayerReview, one per human seat
        .seat, .moves (judged), .accuracy (percent), .counts (label -> moves)
        .worst  the (up to) three costliest moves, worst first (LudoMove)
    review.series: ((action index, (each seat's chance to win)), ...)

How moves are judged (:mod:`bot.ai.ludo_review`): every move of a human seat with a real
choice gets, for each legal move, the mover's chance to win after it with the rest of the
turn played as well as possible (the ``hard`` AI's search, :mod:`bot.ai.ludo_eval`'s model
at its leaves); the loss is the best move's chance minus the played one's. Labels and
accuracy follow :mod:`bot.service.review_labels`, as for Ur. The analysis runs in a worker
thread (well under a second for a whole game), so the event loop never waits on it; the
result is stored with :func:`bot.storage.save_review` and read back later.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Final

from bot import storage as store
from bot.ai.ludo_review import JudgedMove, LudoAnalysis, analyse
from bot.engines import ludo
from bot.engines.common import replay
from bot.service.review_labels import LABELS, accuracy, label

__all__ = [
    "LUDO_REVIEW_VERSION",
    "LudoMove",
    "LudoPlayerReview",
    "LudoReview",
    "LudoReviews",
    "summarise_ludo",
]

LUDO_REVIEW_VERSION: Final = 1  # bump when the numbers or the JSON change: old rows are redone
LEVEL: Final = "hard"
WORST: Final = 3


@dataclass(frozen=True, slots=True)
class LudoMove:
    """One reviewed move; ``index`` is its place in the action log."""

    index: int
    seat: int
    dice: tuple[int, ...]
    played: str
    best: str
    played_chance: float
    best_chance: float
    loss: float
    label: str


@dataclass(frozen=True, slots=True)
class LudoPlayerReview:
    seat: int
    moves: int
    accuracy: float
    counts: dict[str, int]  # label -> moves with it, every label present
    worst: tuple[LudoMove, ...]


@dataclass(frozen=True, slots=True)
class LudoReview:
    game_id: str
    version: int
    level: str
    actions: int
    players: tuple[LudoPlayerReview, ...]
    series: tuple[tuple[int, tuple[float, ...]], ...]

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> LudoReview:
        data = json.loads(text)
        return cls(
            game_id=str(data["game_id"]),
            version=int(data["version"]),
            level=str(data["level"]),
            actions=int(data["actions"]),
            players=tuple(_player(p) for p in data["players"]),
            series=tuple(
                (int(i), tuple(float(c) for c in chances)) for i, chances in data["series"]
            ),
        )


def _move(d: dict[str, Any]) -> LudoMove:
    return LudoMove(
        index=int(d["index"]),
        seat=int(d["seat"]),
        dice=tuple(int(x) for x in d["dice"]),
        played=str(d["played"]),
        best=str(d["best"]),
        played_chance=float(d["played_chance"]),
        best_chance=float(d["best_chance"]),
        loss=float(d["loss"]),
        label=str(d["label"]),
    )


def _player(p: dict[str, Any]) -> LudoPlayerReview:
    return LudoPlayerReview(
        seat=int(p["seat"]),
        moves=int(p["moves"]),
        accuracy=float(p["accuracy"]),
        counts={str(k): int(v) for k, v in p["counts"].items()},
        worst=tuple(_move(d) for d in p["worst"]),
    )


def _reviewed(move: JudgedMove) -> LudoMove:
    return LudoMove(
        index=move.index,
        seat=move.seat,
        dice=move.dice,
        played=move.played,
        best=move.best,
        played_chance=move.played_chance,
        best_chance=move.best_chance,
        loss=move.loss,
        label=label(move.loss),
    )


def summarise_ludo(analysis: LudoAnalysis, seats: Sequence[int], game_id: str = "") -> LudoReview:
    """The per-seat numbers of ``analysis`` for ``seats`` (see the module docstring)."""
    players = []
    for seat in seats:
        mine = [_reviewed(m) for m in analysis.moves if m.seat == seat]
        counts: dict[str, int] = {name: sum(1 for m in mine if m.label == name) for name in LABELS}
        worst = sorted((m for m in mine if m.loss > 0.0), key=lambda m: (-m.loss, m.index))
        players.append(
            LudoPlayerReview(
                seat=seat,
                moves=len(mine),
                accuracy=accuracy((m.played_chance, m.best_chance) for m in mine),
                counts=counts,
                worst=tuple(worst[:WORST]),
            )
        )
    return LudoReview(
        game_id=game_id,
        version=LUDO_REVIEW_VERSION,
        level=LEVEL,
        actions=analysis.actions,
        players=tuple(players),
        series=analysis.series,
    )


def human_seats(row: store.GameRow) -> list[int]:
    return [seat.seat for seat in row.seats if not seat.is_ai]


class LudoReviews:
    """Makes and caches Ludo reviews (the checks that a game may be reviewed are the
    caller's: :class:`bot.service.review.ReviewService`)."""

    def __init__(self, db: store.Database, *, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock

    async def cached(self, game_id: str) -> LudoReview | None:
        row = await store.load_review(self.db, game_id)
        if row is None or row.version != LUDO_REVIEW_VERSION or row.level != LEVEL:
            return None
        return LudoReview.from_json(row.review_json)

    async def review(self, row: store.GameRow) -> LudoReview:
        """The review of the finished Ludo game ``row``: from the cache, else made and stored."""
        notations = [a.notation for a in await store.load_actions(self.db, row.id)]
        found = await self.cached(row.id)
        if found is not None and found.actions == len(notations):
            return found
        seats = human_seats(row)
        analysis = await asyncio.to_thread(analyse, notations, seats)
        made = summarise_ludo(analysis, seats, row.id)
        await store.save_review(
            self.db,
            row.id,
            version=LUDO_REVIEW_VERSION,
            level=LEVEL,
            actions=made.actions,
            review_json=made.to_json(),
            now=self.clock(),
        )
        return made

    async def move_state(self, game_id: str, move: LudoMove) -> ludo.LudoState:
        """The state just before ``move`` (its dice on the table)."""
        actions = await store.load_actions(self.db, game_id)
        state: ludo.LudoState = replay(ludo, {}, [a.notation for a in actions[: move.index]])
        return state
