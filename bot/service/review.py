"""Post-game review of a finished backgammon game (or match), judged by the expert engine.

API (for the Review button, ``/review`` and the renderers)::

    service = ReviewService(db, pool)            # pool: a started bot.ai.pool.ExpertPool
    review = await service.review(game_id)       # -> Review; cached in the database
    game_id = await service.check(typed, guild_id=..., user_id=...)  # refusals, no engine
    state, review_decision = await service.decision_state(game_id, decision)
        # the board before a reviewed decision, to draw with renderers.review.decision_card

    review.players[seat]: PlayerReview
        .decisions      decisions counted (the PR denominator, see below)
        .error_rate_mp  mean equity lost per counted decision, in millipoints
        .pr             PR = 500 x mean equity lost per counted decision (= error_rate_mp / 2)
        .total_loss_mp  equity lost over the game, in millipoints
        .luck_mp        sum of the luck of this player's rolls, in millipoints (+ = lucky)
        .errors         decisions losing >= ERROR_MP and < BLUNDER_MP millipoints
        .blunders       decisions losing >= BLUNDER_MP millipoints
        .worst          the (up to) three costliest decisions, worst first (ReviewDecision)
    review.series: ((action index, game number, white's chance to win that game), ...)

The first call runs bgsage on the whole record in a worker (a few seconds); the review is then
stored with :func:`bot.storage.save_review` and later calls read it back. Errors:
:class:`GameNotFound`, :class:`ReviewUnavailable` (``key`` says why: not backgammon, not
finished, the expert engine missing or too slow).

Definitions (stated here because players will ask):

- Equity is bgsage's cubeful equity, normalised to a cube of 1 (money and single games) or
  match-winning chances as equity (matches). One millipoint (mp) is 0.001 of it.
- A decision is every checker play with more than one legal play, every take / drop, and the
  double / no-double choice when the player doubled, got it wrong, or doubling was within
  0.16 of not doubling (a "close" cube decision). Forced plays do not count.
- PR follows eXtreme Gammon's performance rating: 500 x the mean equity lost per counted
  decision. 0-2 is world class, 5 expert, 8 advanced, 12 intermediate, 18+ beginner.
- Thresholds: an error loses at least 40 mp, a blunder at least 80 mp (separate counts).
- Luck of a roll: the equity after the best play with it minus the average over all 21
  rolls (the opening roll: 15 non-doubles), summed per player.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Final, Protocol

from bot import games
from bot import storage as store
from bot.ai import ur_table
from bot.ai.backgammon_analysis import Decision, GameAnalysis
from bot.ai.bgsage_engine import ExpertUnavailable
from bot.engines import backgammon as bg
from bot.engines.common import replay
from bot.service.errors import GameNotFound, TabulaError
from bot.service.lookup import NO_SUCH_GAME, find_game, shown_id
from bot.service.ludo_review import LudoReview, LudoReviews
from bot.service.options import engine_options
from bot.service.ur_review import NoTable, UrReview, UrReviews

__all__ = [
    "BLUNDER_MP",
    "ERROR_MP",
    "REVIEW_VERSION",
    "PlayerReview",
    "Review",
    "ReviewDecision",
    "ReviewService",
    "ReviewUnavailable",
    "summarise",
]

REVIEW_VERSION: Final = 1  # bump when the numbers or the JSON change: old rows are redone
ERROR_MP: Final = 40.0
BLUNDER_MP: Final = 80.0
PR_FACTOR: Final = 500.0
WORST: Final = 3
REVIEW_TIMEOUT: Final = 180.0


class ReviewUnavailable(TabulaError):
    """No review can be made: ``key`` is one of ``error.review_backgammon_only``,
    ``error.review_not_finished``, ``error.review_unavailable`` (no expert engine here) or
    ``error.review_busy`` (the engine did not answer in time)."""

    key = "error.review_unavailable"


class Reviewer(Protocol):
    """What the service needs of :class:`bot.ai.pool.ExpertPool`."""

    async def review(
        self,
        options: dict[str, Any],
        notations: Sequence[str],
        timeout: float = ...,  # noqa: ASYNC109 - the pool's own deadline
    ) -> GameAnalysis: ...


@dataclass(frozen=True, slots=True)
class ReviewDecision:
    """One reviewed decision (see :class:`bot.ai.backgammon_analysis.Decision`), the loss in
    millipoints."""

    index: int  # position in the action log; the board before it: replay(actions[:index])
    seat: int
    kind: str  # "move", "double" or "take"
    game_number: int
    position_id: str
    dice: tuple[int, ...]
    played: str
    best: str
    loss_mp: float
    played_steps: tuple[tuple[int, int], ...] = ()
    best_steps: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerReview:
    seat: int
    decisions: int
    moves: int  # counted checker plays
    cube_decisions: int  # counted cube decisions
    error_rate_mp: float
    pr: float
    total_loss_mp: float
    luck_mp: float
    errors: int
    blunders: int
    worst: tuple[ReviewDecision, ...]


@dataclass(frozen=True, slots=True)
class Review:
    game_id: str
    version: int
    level: str
    actions: int
    players: tuple[PlayerReview, ...]  # index = seat
    series: tuple[tuple[int, int, float], ...]  # (action index, game number, white's chance)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Review:
        data = json.loads(text)
        return cls(
            game_id=str(data["game_id"]),
            version=int(data["version"]),
            level=str(data["level"]),
            actions=int(data["actions"]),
            players=tuple(_player(p) for p in data["players"]),
            series=tuple((int(i), int(g), float(w)) for i, g, w in data["series"]),
        )


def _steps(raw: Sequence[Sequence[int]]) -> tuple[tuple[int, int], ...]:
    return tuple((int(a), int(b)) for a, b in raw)


def _decision(d: dict[str, Any]) -> ReviewDecision:
    return ReviewDecision(
        index=int(d["index"]),
        seat=int(d["seat"]),
        kind=str(d["kind"]),
        game_number=int(d["game_number"]),
        position_id=str(d["position_id"]),
        dice=tuple(int(x) for x in d["dice"]),
        played=str(d["played"]),
        best=str(d["best"]),
        loss_mp=float(d["loss_mp"]),
        played_steps=_steps(d["played_steps"]),
        best_steps=_steps(d["best_steps"]),
    )


def _player(p: dict[str, Any]) -> PlayerReview:
    return PlayerReview(
        seat=int(p["seat"]),
        decisions=int(p["decisions"]),
        moves=int(p["moves"]),
        cube_decisions=int(p["cube_decisions"]),
        error_rate_mp=float(p["error_rate_mp"]),
        pr=float(p["pr"]),
        total_loss_mp=float(p["total_loss_mp"]),
        luck_mp=float(p["luck_mp"]),
        errors=int(p["errors"]),
        blunders=int(p["blunders"]),
        worst=tuple(_decision(d) for d in p["worst"]),
    )


# ---------------------------------------------------------------------------------------------
# From an analysis to a review (pure)


def _reviewed(d: Decision) -> ReviewDecision:
    return ReviewDecision(
        index=d.index,
        seat=d.seat,
        kind=d.kind,
        game_number=d.game_number,
        position_id=d.position_id,
        dice=d.dice,
        played=d.played,
        best=d.best,
        loss_mp=d.loss * 1000.0,
        played_steps=d.played_steps,
        best_steps=d.best_steps,
    )


def summarise(analysis: GameAnalysis, game_id: str = "") -> Review:
    """The per-player numbers of a :class:`GameAnalysis` (see the module docstring)."""
    players = []
    for seat in (0, 1):
        mine = [d for d in analysis.decisions if d.seat == seat and d.counted]
        losses = [d.loss * 1000.0 for d in mine]
        total = sum(losses)
        rate = total / len(mine) if mine else 0.0
        worst = sorted((d for d in mine if d.loss > 0.0), key=lambda d: (-d.loss, d.index))[:WORST]
        players.append(
            PlayerReview(
                seat=seat,
                decisions=len(mine),
                moves=sum(1 for d in mine if d.kind == "move"),
                cube_decisions=sum(1 for d in mine if d.kind != "move"),
                error_rate_mp=rate,
                pr=PR_FACTOR * rate / 1000.0,
                total_loss_mp=total,
                luck_mp=1000.0 * sum(e.luck for e in analysis.luck if e.seat == seat),
                errors=sum(1 for x in losses if ERROR_MP <= x < BLUNDER_MP),
                blunders=sum(1 for x in losses if x >= BLUNDER_MP),
                worst=tuple(_reviewed(d) for d in worst),
            )
        )
    return Review(
        game_id=game_id,
        version=REVIEW_VERSION,
        level=analysis.level,
        actions=analysis.actions,
        players=tuple(players),
        series=tuple((p.index, p.game_number, p.white_win) for p in analysis.series),
    )


def _check_reviewable(row: store.GameRow) -> None:
    review = games.get(row.game).review  # the game's manifest says whether it has one
    if review is None:
        raise ReviewUnavailable("error.review_backgammon_only")
    if review.needs_table and ur_table.installed() is None:
        raise ReviewUnavailable("error.review_no_table")
    if str(row.status) != str(store.GameStatus.FINISHED):
        raise ReviewUnavailable("error.review_not_finished")


# ---------------------------------------------------------------------------------------------
# The service


class ReviewService:
    def __init__(
        self, db: store.Database, pool: Reviewer, *, clock: Callable[[], float] = time.time
    ) -> None:
        self.db = db
        self.pool = pool
        self.clock = clock
        self._locks: dict[str, asyncio.Lock] = {}
        self.ludo = LudoReviews(db, clock=clock)
        self.ur = UrReviews(db, clock=clock)

    async def ur_review(self, game_id: str) -> UrReview:
        """The review of a finished Ur game (see :mod:`bot.service.ur_review`)."""
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            row = await store.load_game(self.db, game_id)
            if row is None:
                raise GameNotFound(NO_SUCH_GAME, game=shown_id(game_id))
            _check_reviewable(row)
            try:
                return await self.ur.review(row)
            except NoTable:
                raise ReviewUnavailable("error.review_no_table") from None

    async def ludo_review(self, game_id: str) -> LudoReview:
        """The review of a finished Ludo game (see :mod:`bot.service.ludo_review`)."""
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            row = await store.load_game(self.db, game_id)
            if row is None:
                raise GameNotFound(NO_SUCH_GAME, game=shown_id(game_id))
            _check_reviewable(row)
            return await self.ludo.review(row)

    async def check(self, typed: str, *, guild_id: int | None, user_id: int) -> str:
        """The id of the game ``typed`` names if it can be reviewed here (see
        :func:`bot.service.lookup.find_game`); raises what :meth:`review` would, without engine
        work, so a refusal comes before any "reviewing" message."""
        row = await find_game(self.db, typed, guild_id=guild_id, user_id=user_id)
        _check_reviewable(row)
        return row.id

    async def _record(self, game_id: str) -> tuple[dict[str, Any], list[str]]:
        row = await store.load_game(self.db, game_id)
        if row is None:
            raise GameNotFound(NO_SUCH_GAME, game=shown_id(game_id))
        _check_reviewable(row)
        actions = await store.load_actions(self.db, game_id)
        return engine_options(json.loads(row.options_json)), [a.notation for a in actions]

    async def cached(self, game_id: str) -> Review | None:
        """The stored review, if there is a current one (no engine work)."""
        row = await store.load_review(self.db, game_id)
        if row is None or row.version != REVIEW_VERSION:
            return None
        return Review.from_json(row.review_json)

    async def review(self, game_id: str) -> Review:
        """The review of a finished backgammon game: from the cache, else made and stored."""
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            options, notations = await self._record(game_id)
            found = await self.cached(game_id)
            if found is not None and found.actions == len(notations):
                return found
            try:
                analysis = await self.pool.review(options, notations, timeout=REVIEW_TIMEOUT)
            except ExpertUnavailable:
                raise ReviewUnavailable("error.review_unavailable") from None
            except TimeoutError:
                raise ReviewUnavailable("error.review_busy") from None
            made = summarise(analysis, game_id)
            await store.save_review(
                self.db,
                game_id,
                version=REVIEW_VERSION,
                level=made.level,
                actions=made.actions,
                review_json=made.to_json(),
                now=self.clock(),
            )
            return made

    async def decision_state(
        self, game_id: str, decision: ReviewDecision
    ) -> tuple[bg.BackgammonState, ReviewDecision]:
        """The board just before ``decision`` (MOVE phase with its dice, or ROLL / CUBE)."""
        options, notations = await self._record(game_id)
        state: bg.BackgammonState = replay(bg, options, notations[: decision.index])
        return state, decision
