"""Post-game reviews: one cached path for every game, the analysis from the game's manifest.

API (for the Review button, ``/review`` and the review pages)::

    service = ReviewService(db, pool)       # pool: the expert engine's, for games that use it
    game_id = await service.check(typed, viewer)  # refusals (bot.service.lookup), no analysis
    review = await service.review(game_id)  # the game's review; made once, then from the DB
    await service.cached(game_id)           # the stored review if it is current, else None
    state = await service.state_before(game_id, index)  # the board before action ``index``

What a review holds is the game's (``GameSpec.review``, :mod:`bot.games.review`): backgammon's
equity review (:mod:`bot.games.backgammon_review`), or the chance review of Ur and Ludo
(:class:`bot.games.review.ChanceReview`). The first call asks the game's ``analyse`` hook (the
expert pool, or a worker thread) and stores the result with :func:`bot.storage.save_review`;
later calls read it back while it is current (same version, a level the game still accepts,
the whole action log). Calls that come while it is being made share that one making
(:mod:`bot.service.live_reviews`: one owner per game under review, shared by every review
service of the process, the background reviewer's too). Errors: :class:`GameNotFound`,
:class:`ReviewUnavailable` (``key`` says why: no review for this game, not finished, no
table, the expert engine missing or too slow).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot import games
from bot import storage as store
from bot.clock import SYSTEM_CLOCK
from bot.engines.common import replay
from bot.games.review import Record, Reviewed, ReviewSpec, ReviewUnavailable
from bot.service.live_reviews import LiveReviews
from bot.service.lookup import NO_SUCH_GAME, Viewer, find_game, shown_id
from bot.vocabulary.errors import GameNotFound
from bot.vocabulary.options import engine_options

__all__ = ["ReviewService", "ReviewUnavailable", "followers"]

log = logging.getLogger(__name__)


def _reviewable(row: store.GameRow) -> ReviewSpec:
    """The game's review spec, or the refusal of a game that cannot be reviewed here now."""
    spec = games.get(row.game)
    review = spec.review  # the game's manifest says whether it has one
    if review is None:
        raise ReviewUnavailable("error.review_not_offered", games=games.titles(lambda g: g.review))
    if review.needs_table and not spec.table_ready():
        raise ReviewUnavailable("error.review_no_table", **spec.table_missing)
    if str(row.status) != str(store.GameStatus.FINISHED):
        raise ReviewUnavailable("error.review_not_finished")
    return review


OnReview = Callable[[int | None, str, Any, Record], Awaitable[object]]
"""``on_review(guild_id, game, review, record)``: told of every review made (the puzzles keep
the costly mistakes of a server's games; the training deck, each person's own)."""


def followers(*hooks: OnReview) -> OnReview:
    """One ``on_review`` that tells each of ``hooks`` in turn; one that fails is logged and
    does not keep the review from the others."""

    async def tell(guild_id: int | None, game: str, review: Any, record: Record) -> None:
        for hook in hooks:
            try:
                await hook(guild_id, game, review, record)
            except Exception:
                log.exception("after the review of %s", record.game_id)

    return tell


class ReviewService:
    def __init__(
        self,
        db: store.Database,
        pool: Any,
        *,
        clock: Callable[[], float] = SYSTEM_CLOCK.now,
        on_review: OnReview | None = None,
        live: LiveReviews | None = None,
    ):
        self.db = db
        self.pool = pool  # handed to the games' ``analyse`` hooks that review with it
        self.clock = clock
        self.on_review = on_review
        # The reviews under way, shared with the process's other review services (the
        # background reviewer's): one analysis of a game at a time, its result for everyone.
        self.live = live if live is not None else LiveReviews()

    async def _row(self, game_id: str) -> store.GameRow:
        row = await store.load_game(self.db, game_id)
        if row is None:
            raise GameNotFound(NO_SUCH_GAME, game=shown_id(game_id))
        return row

    async def check(self, typed: str, viewer: Viewer) -> str:
        """The id of the game ``typed`` names if ``viewer`` may review it (see
        :func:`bot.service.lookup.find_game`); raises what :meth:`review` would, without the
        analysis, so a refusal comes before any "reviewing" message."""
        row = await find_game(self.db, typed, viewer)
        _reviewable(row)
        return row.id

    async def cached(self, game_id: str) -> Any | None:
        """The stored review, if there is a current one (no analysis)."""
        spec = games.get((await self._row(game_id)).game).review
        return None if spec is None else await self._stored(game_id, spec)

    async def _stored(self, game_id: str, spec: ReviewSpec) -> Reviewed | None:
        row = await store.load_review(self.db, game_id)
        if row is None or row.version != spec.version or not spec.current(row.level):
            return None
        return spec.read(row.review_json)

    async def review(self, game_id: str) -> Any:
        """The review of a finished game: from the cache, else made and stored; while one is
        being made in this process (a second click, the background reviewer), that one."""
        return await self.live.run(game_id, lambda: self._review(game_id))

    async def _review(self, game_id: str) -> Reviewed:
        row = await self._row(game_id)
        spec = _reviewable(row)
        notations = tuple(a.notation for a in await store.load_actions(self.db, game_id))
        found = await self._stored(game_id, spec)
        if found is not None and found.actions == len(notations):
            return found
        people = tuple(seat.seat for seat in row.seats if not seat.is_ai)
        options = engine_options(json.loads(row.options_json))
        record = Record(game_id, options, notations, people)
        made = await spec.analyse(record, self.pool)
        await store.save_review(
            self.db,
            game_id,
            version=spec.version,
            level=made.level,
            actions=made.actions,
            review_json=made.to_json(),
            now=self.clock(),
        )
        if self.on_review is not None:
            try:
                await self.on_review(row.guild_id, row.game, made, record)
            except Exception:  # the review stands whatever its followers do
                log.exception("after the review of %s", game_id)
        return made

    async def state_before(self, game_id: str, index: int) -> Any:
        """The game's state just before its action ``index`` (a reviewed move's board, its
        dice on the table)."""
        row = await self._row(game_id)
        actions = await store.load_actions(self.db, game_id)
        rules = games.get(row.game).rules
        options = engine_options(json.loads(row.options_json))
        return replay(rules, options, [a.notation for a in actions[:index]])
