"""The skill record: every finished rated game reviewed in the background, each player's
figures kept, and what ``/stats`` and the skill board read of them.

API::

    skill = SkillService(db, reviews, worker="host:pid")
    games.finish_listeners.append(skill.finished)  # a rated game ended: wake the reviewer
    skill.start(); ...; await skill.stop()         # the background reviewer
    await skill.review_next()                      # one queued game reviewed (tests, tools)
    await skill.summary(user_id, guild_id=None)    # {game: SkillSummary} for /stats
    await skill.board(game, guild_id=...)          # the skill board (PR, least first)

The queue is stored (:mod:`bot.storage.skill`): a finished rated game gets a "to review" row,
claimed by one process at a time, so a restart or a second process loses and doubles
nothing; at start the reviewer also queues any finished rated game that never got its row.
It is the lowest priority work of the bot: one review at a time per process, a pause after
each, reviews of the expert engine in a worker process of their own at the lowest CPU priority
(``ReviewService`` over a ``nice``-d pool), never on the path of a click. A review it makes is
the one the Review button shows (it is stored the same way), so neither is made twice; a
click while it is being made waits for it rather than making another
(:mod:`bot.service.live_reviews`, shared by both review services).

The figures per judged seat (:class:`bot.games.review.SeatSkill`, from the game's review):

- PR (games whose review measures equity): 500 x the mean equity lost per counted decision
  (checker plays with a choice and cube decisions); over several games, their summed loss
  over their summed decisions. Its 95 % interval treats each game as one sample of a ratio
  (the delta method): PR +- 1.96 x 500 x sqrt(n/(n-1) x sum (loss_i - R x decisions_i)^2) /
  sum decisions_i.
- Luck: the sum of the luck of the seat's rolls (equity: what a roll gained over the average
  roll), per game of a match and per match.
- Result: +1 won, -1 lost, 0 neither (a shared place). Luck-adjusted result: the result less
  the net luck (the seat's luck less the opponent's), two-seat games with luck only.
- Accuracy (the other games): the review's accuracy, averaged over games.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot import games
from bot import storage as store
from bot.clock import SYSTEM_CLOCK
from bot.games.review import ReviewUnavailable, SeatSkill
from bot.service.fairplay_flag import PR_FACTOR
from bot.service.models import Game
from bot.service.review import ReviewService
from bot.storage import skill as records
from bot.storage.skill import SkillRow
from bot.vocabulary.errors import TabulaError

__all__ = [
    "LAST_GAMES",
    "MIN_BOARD_DECISIONS",
    "BoardRow",
    "Interval",
    "SkillService",
    "SkillSummary",
    "seat_records",
    "summarise",
]

log = logging.getLogger(__name__)

LAST_GAMES: Final = 50  # /stats: the figures over a player's last this many games or matches
MIN_BOARD_DECISIONS: Final = 200  # the skill board: decisions a player needs to be on it
LEASE: Final = 900.0  # seconds a claim holds; an older one is taken over (its process died)
PAUSE: Final = 2.0  # seconds between two reviews: the queue never runs flat out
POLL: Final = 300.0  # seconds between looks at the stored queue when nothing wakes it
MAX_ATTEMPTS: Final = 3  # a game whose review keeps failing is marked failed
MAX_WAKES: Final = 1000  # finished games remembered for queueing (beyond: the start-up catch-up)
Z95: Final = 1.959964
BUSY: Final = "error.review_busy"


@dataclass(frozen=True, slots=True)
class Interval:
    value: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class SkillSummary:
    """One player's record in one game, over their last ``games`` reviewed games."""

    game: str
    games: int
    decisions: int
    pr: Interval | None  # games measured in equity
    accuracy: Interval | None  # the other games
    luck: Interval | None  # mean luck per game or match (equity)
    adjusted: Interval | None  # mean luck-adjusted result per game or match
    agreement: float  # share of decisions that were the expert's first choice


@dataclass(frozen=True, slots=True)
class BoardRow:
    rank: int
    user_id: int
    games: int
    decisions: int
    pr: float


def _mean_interval(values: Sequence[float]) -> Interval | None:
    if not values:
        return None
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return Interval(mean, -math.inf, math.inf)
    sd = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return Interval(mean, mean - half, mean + half)


def pr_interval(rows: Sequence[tuple[int, float]]) -> Interval | None:
    """PR over games given as (decisions, equity lost), with its 95 % interval (the module
    docstring); None without decisions."""
    decisions = sum(d for d, _ in rows)
    if decisions == 0:
        return None
    ratio = sum(loss for _, loss in rows) / decisions
    n = len(rows)
    if n < 2:
        return Interval(PR_FACTOR * ratio, -math.inf, math.inf)
    spread = sum((loss - ratio * d) ** 2 for d, loss in rows) * n / (n - 1)
    half = Z95 * math.sqrt(spread) / decisions
    return Interval(PR_FACTOR * ratio, PR_FACTOR * (ratio - half), PR_FACTOR * (ratio + half))


def summarise(game: str, rows: Sequence[SkillRow], *, pr: bool) -> SkillSummary:
    """The figures of ``rows`` (one player's records of one game)."""
    decisions = sum(r.decisions for r in rows)
    lucks = [r.luck for r in rows if r.luck is not None]
    adjusted = [r.adjusted for r in rows if r.adjusted is not None]
    accuracies = [r.accuracy for r in rows if r.accuracy is not None]
    return SkillSummary(
        game=game,
        games=len(rows),
        decisions=decisions,
        pr=pr_interval([(r.decisions, r.loss) for r in rows]) if pr else None,
        accuracy=None if pr else _mean_interval(accuracies),
        luck=_mean_interval(lucks),
        adjusted=_mean_interval(adjusted),
        agreement=sum(r.agreed for r in rows) / decisions if decisions else 0.0,
    )


def _result(place: int | None, sole_winner: bool) -> float:
    if place is None:
        return 0.0
    if place > 1:
        return -1.0
    return 1.0 if sole_winner else 0.0


def seat_records(
    row: store.GameRow,
    skills: Sequence[SeatSkill],
    places: dict[int, int],
    ratings: dict[int, int],
) -> list[SkillRow]:
    """The records of a reviewed game: one per judged seat. ``places`` maps seats to their
    place, ``ratings`` users to their displayed global rating."""
    sole_winner = sum(1 for p in places.values() if p == 1) == 1
    luck = {s.seat: s.luck for s in skills if s.luck is not None}
    out = []
    for s in skills:
        seat = next((x for x in row.seats if x.seat == s.seat), None)
        user = None if seat is None else seat.user_id
        result = _result(places.get(s.seat), sole_winner)
        adjusted = None
        if s.luck is not None and len(row.seats) == 2:
            other = luck.get(1 - s.seat)
            if other is not None:
                adjusted = result - (s.luck - other)
        out.append(
            SkillRow(
                game_id=row.id,
                seat=s.seat,
                user_id=user,
                guild_id=row.guild_id,
                game=row.game,
                finished_at=row.finished_at or row.updated_at,
                rating=None if user is None else ratings.get(user),
                decisions=s.decisions,
                loss=s.loss,
                loss_sq=s.loss_sq,
                agreed=s.agreed,
                luck=s.luck,
                luck_games_json=json.dumps(list(s.luck_games)),
                result=result,
                adjusted=adjusted,
                accuracy=s.accuracy,
            )
        )
    return out


class SkillService:
    def __init__(
        self,
        db: store.Database,
        reviews: ReviewService,
        *,
        worker: str,
        clock: Callable[[], float] = SYSTEM_CLOCK.now,
        pause: float = PAUSE,
        poll: float = POLL,
        lease: float = LEASE,
    ) -> None:
        self.db = db
        self.reviews = reviews  # over the background pool: reviews at the lowest priority
        self.worker = worker
        self.clock = clock
        self.pause = pause
        self.poll = poll
        self.lease = lease
        self._finished: deque[str] = deque(maxlen=MAX_WAKES)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.reviewed = 0  # games reviewed by this process (health, tests)

    # -- the queue ---------------------------------------------------------------------------

    def finished(self, game: Game) -> None:
        """A finish listener (``GameService.finish_listeners``): a rated game ended. Queued by
        the reviewer's task, not here: the click that ended the game waits for nothing."""
        if game.rated and game.spec.review is not None:
            self._finished.append(game.id)
            self._wake.set()

    async def queue_finished(self) -> int:
        """Queue the games :meth:`finished` was told of; returns how many were new."""
        new = 0
        while self._finished:
            game_id = self._finished.popleft()
            new += await records.queue_review(self.db, game_id, self.clock())
        return new

    async def review_next(self) -> str | None:
        """Claim the oldest waiting game, review it, store its records; its id, or None when
        nothing waits."""
        game_id = await records.claim_review(self.db, self.worker, self.clock(), self.lease)
        if game_id is None:
            return None
        try:
            rows = await self.record(game_id)
        except ReviewUnavailable as refusal:
            if refusal.key == BUSY:  # the engine did not answer in time: later
                await records.give_back_review(self.db, game_id, self.worker, note=refusal.key)
                return game_id
            # The game cannot be reviewed here (no engine, no table, no review): for good.
            await records.finish_review(self.db, game_id, self.worker, (), failed=refusal.key)
            return game_id
        except Exception as error:
            log.exception("background review of %s failed", game_id)
            attempts = await self._attempts(game_id)
            if attempts >= MAX_ATTEMPTS:
                await records.finish_review(
                    self.db, game_id, self.worker, (), failed=type(error).__name__
                )
            else:
                await records.give_back_review(
                    self.db, game_id, self.worker, note=type(error).__name__
                )
            return game_id
        if await records.finish_review(self.db, game_id, self.worker, rows):
            self.reviewed += 1
            log.info("skill record: reviewed %s (%d seats)", game_id, len(rows))
        return game_id

    async def _attempts(self, game_id: str) -> int:
        return await records.review_attempts(self.db, game_id)

    async def record(self, game_id: str) -> list[SkillRow]:
        """The records of a finished game, from its review (made now, or the stored one)."""
        row = await store.load_game(self.db, game_id)
        if row is None:
            raise ReviewUnavailable("error.review_not_offered")
        spec = games.get(row.game).review
        if spec is None or spec.skill is None:
            raise ReviewUnavailable("error.review_not_offered")
        review = await self.reviews.review(game_id)
        results = await store.results_of_game(self.db, game_id)
        places = {r.seat: r.place for r in results}
        ratings: dict[int, int] = {}
        for seat in row.seats:
            if seat.user_id is not None and seat.user_id not in ratings:
                mine = await store.ratings_of_user(self.db, seat.user_id, store.GLOBAL_SCOPE)
                found = next((r for r in mine if r.game == row.game), None)
                if found is not None:
                    ratings[seat.user_id] = round(1500 + 40 * found.ordinal)
        return seat_records(row, spec.skill(review), places, ratings)

    # -- the background task -----------------------------------------------------------------

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="skill-reviews")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        try:
            queued = await records.queue_unreviewed(self.db, self.clock())
            if queued:
                log.info("queued %d finished rated games for the skill record", queued)
        except store.StorageError as error:
            log.warning("could not queue the unreviewed games now: %s", error)
        while True:
            try:
                await self.queue_finished()
                while await self.review_next() is not None:
                    await asyncio.sleep(self.pause)
                    await self.queue_finished()
            except store.StorageError as error:
                log.warning("skill reviews paused: %s", error)
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll)

    # -- what /stats and the board read ------------------------------------------------------

    async def summary(
        self, user_id: int, *, guild_id: int | None = None, last: int = LAST_GAMES
    ) -> dict[str, SkillSummary]:
        """``user_id``'s figures per game over their last ``last`` reviewed games there."""
        rows = await records.skill_rows(self.db, user_id, guild_id=guild_id)
        by_game: dict[str, list[SkillRow]] = {}
        for r in rows:
            mine = by_game.setdefault(r.game, [])
            if len(mine) < last:
                mine.append(r)
        out = {}
        for game, mine in by_game.items():
            spec = games.get(game).review
            out[game] = summarise(game, mine, pr=spec is not None and spec.pr)
        return out

    async def board(
        self,
        game: str,
        *,
        guild_id: int | None,
        min_decisions: int = MIN_BOARD_DECISIONS,
        limit: int = 10,
    ) -> list[BoardRow]:
        """The best players of ``game`` by PR (least first) among those with at least
        ``min_decisions`` reviewed decisions. Raises :class:`TabulaError` for a game whose
        review does not measure equity (it has no PR)."""
        spec = games.get(game).review
        if spec is None or not spec.pr:
            raise TabulaError("skill.board_no_pr", games=games.titles(_has_pr))
        totals = await records.skill_totals(
            self.db, game, guild_id=guild_id, min_decisions=min_decisions
        )
        ranked = sorted(totals, key=lambda t: (t.loss / t.decisions, t.user_id))
        return [
            BoardRow(rank, t.user_id, t.games, t.decisions, PR_FACTOR * t.loss / t.decisions)
            for rank, t in enumerate(ranked[:limit], start=1)
        ]


def _has_pr(spec: Any) -> bool:
    return spec.review is not None and bool(spec.review.pr)
