"""Post-game review of a finished Ur game, judged by the solved table (perfect play); and
the table's /hint.

API (used by :class:`bot.service.review.ReviewService` and the review UI)::

    reviews = UrReviews(db)
    review = await reviews.review(row)          # -> UrReview; cached in the database
    state = await reviews.move_state(game_id, move)
        # the state just before a reviewed move, to draw it made and best

    review.players[i]: UrPlayerReview, one per seat
        .seat, .moves (judged), .accuracy (percent), .counts (label -> moves)
        .worst  the (up to) three costliest moves, worst first (UrMove)
    review.series: ((action index, light's chance to win), ...)
    review.complete: False when the table covers only the end of the game (a test table)

Every move with a real choice is judged by :mod:`bot.ai.ur_review` from the table installed
with :func:`bot.ai.ur_table.install`; labels and accuracy follow
:mod:`bot.service.review_labels`, as for Ludo. The analysis runs in a worker thread (the
table's pages may come from disk), the result is stored with :func:`bot.storage.save_review`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from bot import storage as store
from bot.ai import ur_table
from bot.ai.ur_hint import UrHint, hint
from bot.ai.ur_review import JudgedMove, UrAnalysis, analyse
from bot.engines import ur
from bot.engines.common import replay
from bot.service.errors import TabulaError
from bot.service.review_labels import LABELS, accuracy, label

__all__ = [
    "UR_REVIEW_VERSION",
    "UrMove",
    "UrPlayerReview",
    "UrReview",
    "UrReviews",
    "install_table",
    "summarise_ur",
    "table_hint",
]

log = logging.getLogger(__name__)

UR_REVIEW_VERSION: Final = 1  # bump when the numbers or the JSON change: old rows are redone
LEVEL: Final = "perfect"
WORST: Final = 3


class NoTable(Exception):
    """No solved table is installed: Ur games cannot be reviewed here."""


def install_table(path: Path) -> ur_table.UrTable | None:
    """Install the solved table at ``path`` for this process (bot start-up), saying in the
    log what that offers; ``None`` (and the reason logged) where there is none."""
    try:
        table = ur_table.install(path)
    except ur_table.TableError as error:
        # No table is an ordinary set-up; a table that cannot be read is a problem.
        report = log.info if not path.exists() else log.warning
        report("Ur's perfect level, hints and reviews are off: %s", error)
        return None
    if table is not None:
        what = "the full game" if table.complete else f"{table.pieces} pieces a side (a test table)"
        log.info("solved Ur table %s: %s, for perfect, hints and reviews", path, what)
    return table


def table_hint(state: ur.UrState) -> UrHint:
    """/hint for an Ur game from the installed table; refuses (``hint.no_table``,
    ``hint.outside_table``) where there is none or it does not cover the position."""
    table = ur_table.installed()
    if table is None:
        raise TabulaError("hint.no_table")
    try:
        return hint(state, table)
    except ur_table.NotCovered:
        raise TabulaError(
            "hint.outside_table", pieces=table.pieces, off=ur.PIECES - table.pieces
        ) from None


@dataclass(frozen=True, slots=True)
class UrMove:
    """One reviewed move; ``index`` is its place in the action log."""

    index: int
    seat: int
    roll: int
    played: str
    best: str
    played_chance: float
    best_chance: float
    loss: float
    label: str


@dataclass(frozen=True, slots=True)
class UrPlayerReview:
    seat: int
    moves: int
    accuracy: float
    counts: dict[str, int]  # label -> moves with it, every label present
    worst: tuple[UrMove, ...]


@dataclass(frozen=True, slots=True)
class UrReview:
    game_id: str
    version: int
    level: str
    actions: int
    players: tuple[UrPlayerReview, ...]
    series: tuple[tuple[int, float], ...]
    complete: bool

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> UrReview:
        data = json.loads(text)
        return cls(
            game_id=str(data["game_id"]),
            version=int(data["version"]),
            level=str(data["level"]),
            actions=int(data["actions"]),
            players=tuple(_player(p) for p in data["players"]),
            series=tuple((int(i), float(c)) for i, c in data["series"]),
            complete=bool(data["complete"]),
        )


def _move(d: dict[str, Any]) -> UrMove:
    return UrMove(
        index=int(d["index"]),
        seat=int(d["seat"]),
        roll=int(d["roll"]),
        played=str(d["played"]),
        best=str(d["best"]),
        played_chance=float(d["played_chance"]),
        best_chance=float(d["best_chance"]),
        loss=float(d["loss"]),
        label=str(d["label"]),
    )


def _player(p: dict[str, Any]) -> UrPlayerReview:
    return UrPlayerReview(
        seat=int(p["seat"]),
        moves=int(p["moves"]),
        accuracy=float(p["accuracy"]),
        counts={str(k): int(v) for k, v in p["counts"].items()},
        worst=tuple(_move(d) for d in p["worst"]),
    )


def _reviewed(move: JudgedMove) -> UrMove:
    return UrMove(
        index=move.index,
        seat=move.seat,
        roll=move.roll,
        played=move.played,
        best=move.best,
        played_chance=move.played_chance,
        best_chance=move.best_chance,
        loss=move.loss,
        label=label(move.loss),
    )


def summarise_ur(analysis: UrAnalysis, game_id: str = "", level: str = LEVEL) -> UrReview:
    """The per-seat numbers of ``analysis`` (see the module docstring)."""
    players = []
    for seat in range(len(ur.SEATS)):
        mine = [_reviewed(m) for m in analysis.moves if m.seat == seat]
        counts: dict[str, int] = {name: sum(1 for m in mine if m.label == name) for name in LABELS}
        worst = sorted((m for m in mine if m.loss > 0.0), key=lambda m: (-m.loss, m.index))
        players.append(
            UrPlayerReview(
                seat=seat,
                moves=len(mine),
                accuracy=accuracy((m.played_chance, m.best_chance) for m in mine),
                counts=counts,
                worst=tuple(worst[:WORST]),
            )
        )
    return UrReview(
        game_id=game_id,
        version=UR_REVIEW_VERSION,
        level=level,
        actions=analysis.actions,
        players=tuple(players),
        series=analysis.series,
        complete=analysis.complete,
    )


class UrReviews:
    """Makes and caches Ur reviews (the checks that a game may be reviewed are the caller's:
    :class:`bot.service.review.ReviewService`)."""

    def __init__(
        self,
        db: store.Database,
        *,
        table: Callable[[], ur_table.UrTable | None] = ur_table.installed,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.table = table
        self.clock = clock

    @property
    def available(self) -> bool:
        """Whether a solved table is installed, so that Ur games can be reviewed."""
        return self.table() is not None

    def level(self) -> str | None:
        """The level reviews are stored under: ``perfect``, or ``perfect-N`` from a table of
        N < 7 pieces (so that building the full table later redoes them); None: no table."""
        table = self.table()
        if table is None:
            return None
        return LEVEL if table.complete else f"{LEVEL}-{table.pieces}"

    async def cached(self, game_id: str) -> UrReview | None:
        level = self.level()
        row = await store.load_review(self.db, game_id)
        if row is None or row.version != UR_REVIEW_VERSION or row.level != level:
            return None
        return UrReview.from_json(row.review_json)

    async def review(self, row: store.GameRow) -> UrReview:
        """The review of the finished Ur game ``row``: from the cache, else made and stored.
        Raises :class:`NoTable` when no table is installed."""
        notations = [a.notation for a in await store.load_actions(self.db, row.id)]
        found = await self.cached(row.id)
        if found is not None and found.actions == len(notations):
            return found
        table = self.table()
        if table is None:
            raise NoTable()
        analysis = await asyncio.to_thread(analyse, notations, table)
        made = summarise_ur(analysis, row.id, self.level() or LEVEL)
        await store.save_review(
            self.db,
            row.id,
            version=UR_REVIEW_VERSION,
            level=made.level,
            actions=made.actions,
            review_json=made.to_json(),
            now=self.clock(),
        )
        return made

    async def move_state(self, game_id: str, move: UrMove) -> ur.UrState:
        """The state just before ``move`` (its roll on the table)."""
        actions = await store.load_actions(self.db, game_id)
        state: ur.UrState = replay(ur, {}, [a.notation for a in actions[: move.index]])
        return state
