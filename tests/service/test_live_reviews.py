"""One review of a game at a time in a process (``bot.service.live_reviews``): requests that
come while it is being made, from a click or from the background reviewer's own review
service, share that one analysis and its result; its owner goes once it is made; a reader
who stops waiting leaves it to the others, and the last one stops it."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest

from bot import storage
from bot.ai.backgammon_analysis import GameAnalysis
from bot.service.games import GameService
from bot.service.live_reviews import LiveReviews
from bot.service.models import Game
from bot.service.review import ReviewService, ReviewUnavailable
from tests.service.test_review import analysis, decision, finished_game


class GatedPool:
    """The expert engine's pool, stand-in: each analysis waits for ``gate`` (set when the
    test says), after telling ``entered`` it began."""

    def __init__(self, result: GameAnalysis | Exception) -> None:
        self.result = result
        self.calls = 0
        self.entered = asyncio.Event()
        self.gate = asyncio.Event()
        self.cancelled = False

    async def review(
        self,
        options: dict[str, Any],
        notations: Sequence[str],
        timeout: float = 0.0,  # noqa: ASYNC109
    ) -> GameAnalysis:
        self.calls += 1
        self.entered.set()
        try:
            await self.gate.wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        if isinstance(self.result, Exception):
            raise self.result
        r = self.result
        return GameAnalysis(r.level, r.decisions, r.luck, r.series, len(notations))


def good() -> GameAnalysis:
    return analysis([decision(0, 120, index=4), decision(1, 0, index=5)])


@pytest.fixture
async def game(db: storage.Database) -> Game:
    return await finished_game(GameService(db), "backgammon", seed=3)


async def test_two_requests_at_once_run_the_analysis_once_and_share_it(
    db: storage.Database, game: Game
) -> None:
    pool = GatedPool(good())
    service = ReviewService(db, pool)
    first = asyncio.create_task(service.review(game.id))
    await pool.entered.wait()  # the analysis is under way
    second = asyncio.create_task(service.review(game.id))
    await asyncio.sleep(0)  # the second request is waiting for it
    assert game.id in service.live
    pool.gate.set()
    one, two = await asyncio.gather(first, second)
    assert one is two and pool.calls == 1
    assert game.id not in service.live and len(service.live) == 0  # let go once made
    again = await service.review(game.id)  # from the database now
    assert again == one and pool.calls == 1


async def test_the_background_reviewer_and_a_click_share_one_review(
    db: storage.Database, game: Game
) -> None:
    live = LiveReviews()
    background_pool, click_pool = GatedPool(good()), GatedPool(good())
    background = ReviewService(db, background_pool, live=live)
    clicks = ReviewService(db, click_pool, live=live)
    made = asyncio.create_task(background.review(game.id))
    await background_pool.entered.wait()
    clicked = asyncio.create_task(clicks.review(game.id))
    await asyncio.sleep(0)
    background_pool.gate.set()
    assert await clicked is await made
    assert (background_pool.calls, click_pool.calls) == (1, 0)
    assert len(live) == 0


async def test_a_refusal_is_everyones_and_the_next_request_tries_again(
    db: storage.Database, game: Game
) -> None:
    pool = GatedPool(ReviewUnavailable("error.review_busy"))
    service = ReviewService(db, pool)
    first = asyncio.create_task(service.review(game.id))
    await pool.entered.wait()
    second = asyncio.create_task(service.review(game.id))
    await asyncio.sleep(0)
    pool.gate.set()
    outcomes = await asyncio.gather(first, second, return_exceptions=True)
    assert [getattr(o, "key", o) for o in outcomes] == ["error.review_busy"] * 2
    assert pool.calls == 1 and len(service.live) == 0
    pool.result = good()
    assert (await service.review(game.id)).players[0].blunders == 1
    assert pool.calls == 2


async def test_a_reader_who_stops_waiting_leaves_the_review_to_the_others(
    db: storage.Database, game: Game
) -> None:
    pool = GatedPool(good())
    service = ReviewService(db, pool)
    leaving = asyncio.create_task(service.review(game.id))
    await pool.entered.wait()
    staying = asyncio.create_task(service.review(game.id))
    await asyncio.sleep(0)
    leaving.cancel()
    with pytest.raises(asyncio.CancelledError):
        await leaving
    assert not pool.cancelled and game.id in service.live
    pool.gate.set()
    assert (await staying).players[0].blunders == 1
    assert await storage.load_review(db, game.id) is not None


async def test_the_last_reader_to_stop_waiting_stops_the_review(
    db: storage.Database, game: Game
) -> None:
    pool = GatedPool(good())
    service = ReviewService(db, pool)
    only = asyncio.create_task(service.review(game.id))
    await pool.entered.wait()
    owner = service.live.peek(game.id)
    assert owner is not None
    only.cancel()
    with pytest.raises(asyncio.CancelledError):
        await only
    with pytest.raises(asyncio.CancelledError):
        await owner.task  # the analysis stops; its owner goes as it ends
    assert pool.cancelled and game.id not in service.live
    assert await storage.load_review(db, game.id) is None
