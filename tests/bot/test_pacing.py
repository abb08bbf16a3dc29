"""The bot token's pacer (``bot.ui.pacing``): each process keeps to its shards' share of one
global budget, and posts in one channel to Discord's per-channel figure, on a virtual clock."""

from __future__ import annotations

import asyncio
import heapq
from collections.abc import Awaitable

import pytest

from bot.shards import ShardPlan
from bot.ui.pacing import (
    CHANNEL_POSTS,
    CHANNEL_WINDOW_SECONDS,
    GLOBAL_LIMIT_PER_SECOND,
    GLOBAL_TARGET_PER_SECOND,
    BotTokenPacer,
)


class VirtualClock:
    """Time that passes only when every task waits: then it jumps to the earliest sleeper's
    wake-up (so one waiter's sleep does not move the others' time)."""

    def __init__(self) -> None:
        self.now = 0.0
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = 0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._seq += 1
        heapq.heappush(self._sleepers, (self.now + max(seconds, 0.0), self._seq, future))
        await future

    async def run(self, *jobs: Awaitable[object]) -> None:
        everything = asyncio.gather(*jobs)
        while not everything.done():
            for _ in range(20):  # let every task that can run, run
                await asyncio.sleep(0)
            if self._sleepers and not everything.done():
                wake, _, future = heapq.heappop(self._sleepers)
                self.now = max(self.now, wake)
                future.set_result(None)
        await everything


def most_in_any_window(times: list[float], window: float) -> int:
    ordered = sorted(times)
    best = 0
    for i, start in enumerate(ordered):
        best = max(best, sum(1 for t in ordered[i:] if t < start + window))
    return best


def pacer(clock: VirtualClock, share: float = 1.0) -> BotTokenPacer:
    return BotTokenPacer(share, clock=clock, sleep=clock.sleep)


def test_the_target_leaves_room_below_discords_global_limit() -> None:
    assert GLOBAL_TARGET_PER_SECOND < GLOBAL_LIMIT_PER_SECOND


async def test_a_burst_is_spread_to_the_share_per_second() -> None:
    clock = VirtualClock()
    paced = pacer(clock)
    times: list[float] = []

    async def one() -> None:
        await paced.request()
        times.append(clock())

    await clock.run(*(one() for _ in range(130)))
    assert most_in_any_window(times, 1.0) == GLOBAL_TARGET_PER_SECOND
    # 130 requests at 40 a second: three full seconds of waiting for the last ten.
    assert max(times) == pytest.approx(3.0)
    assert paced.stats.requests == 130 and paced.stats.held == 130 - GLOBAL_TARGET_PER_SECOND


@pytest.mark.parametrize(("ids", "count"), [((0,), 2), ((0, 1), 4), ((3,), 4)])
async def test_processes_together_stay_within_the_one_budget(
    ids: tuple[int, ...], count: int
) -> None:
    """Every process of a bot paces to its shards' share: all of them flat out together
    make no more than the target in any second."""
    plans = [ShardPlan(tuple(range(s, s + len(ids))), count) for s in range(0, count, len(ids))]
    clock = VirtualClock()
    pacers = [BotTokenPacer.for_plan(plan) for plan in plans]
    for each in pacers:
        each._clock, each._sleep = clock, clock.sleep  # one shared virtual clock
    times: list[float] = []

    async def one(each: BotTokenPacer) -> None:
        await each.request()
        times.append(clock())

    await clock.run(*(one(each) for each in pacers for _ in range(100)))
    assert most_in_any_window(times, 1.0) <= GLOBAL_TARGET_PER_SECOND


def test_an_unsharded_process_has_the_whole_budget() -> None:
    assert BotTokenPacer.for_plan(ShardPlan()).per_second == GLOBAL_TARGET_PER_SECOND
    assert BotTokenPacer.for_plan(ShardPlan(None, 8)).per_second == GLOBAL_TARGET_PER_SECOND
    assert BotTokenPacer.for_plan(ShardPlan((0, 1), 8)).per_second == 10
    with pytest.raises(ValueError, match="share"):
        BotTokenPacer(0.0)


async def test_posts_in_one_channel_keep_to_its_figure_and_others_do_not_wait() -> None:
    clock = VirtualClock()
    paced = pacer(clock)
    posted: dict[int, list[float]] = {1: [], 2: []}

    async def post(channel: int) -> None:
        await paced.post(channel)
        posted[channel].append(clock())

    # A restart's burst: twelve notices for channel 1, one for channel 2 queued behind them.
    await clock.run(*(post(1) for _ in range(12)), post(2))
    assert most_in_any_window(posted[1], CHANNEL_WINDOW_SECONDS) == CHANNEL_POSTS
    assert posted[2] == [0.0]
    assert max(posted[1]) == pytest.approx(2 * CHANNEL_WINDOW_SECONDS)
