"""Pacing of the requests the bot makes with its bot token, within Discord's budgets.

Discord gives a bot 50 requests a second with its bot token, one budget for all its
processes and shards together; requests through an interaction (its callback and its
webhook: followups, ``@original`` edits) do not count against it. Messages posted in one
channel are also limited, to about 5 in 5 seconds. discord.py's own limiter reacts to
Discord's answers (it waits on a bucket it saw emptied, and after a 429); it cannot know
that other processes spend the same global budget, nor hold back a burst before the first
429 (a restart redrawing a hundred boards, a sweep of reminders). So every bot-token message
request passes here first: each process keeps to its share of a global figure below the
limit (its shards over all shards), and to the per-channel figure for posts.

Boards are shown through the clicks' interactions wherever one is valid (``bot.ui.delivery``),
so this budget carries only what has no interaction: thread openings and first boards in
them, reminders and time-out notices, boards of games idle for longer than a token lives,
the refresh after a restart.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.shards import ShardPlan

# Discord developer docs, "Rate Limits": "All bots can make up to 50 requests per second to
# our API", per bot token and across all shards; interaction endpoints are not bound by it.
GLOBAL_LIMIT_PER_SECOND = 50
# What the whole bot aims at: requests reach Discord a little later and closer together than
# they leave this pacer (the event loop, the network), and discord.py's own calls (command
# sync, the odd fetch) are not paced here; a fifth of the budget covers both.
GLOBAL_TARGET_PER_SECOND = 40
# Posting in one channel: Discord documents no figure; its per-route bucket for
# POST /channels/{id}/messages answers 5 per 5 seconds. The window has half a second to spare
# for the same reason as above.
CHANNEL_POSTS = 5
CHANNEL_WINDOW_SECONDS = 5.5
IDLE_CHANNELS_KEPT = 1024  # channel windows kept before those long quiet are dropped

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[object]]


class Window:
    """At most ``limit`` starts in any ``period`` seconds (a sliding window: whatever way
    Discord counts, a fixed window or a bucket, it sees no more than that)."""

    def __init__(self, limit: int, period: float) -> None:
        self.limit = max(1, limit)
        self.period = period
        self._starts: deque[float] = deque()
        self.lock = asyncio.Lock()

    def delay(self, now: float) -> float:
        """Seconds until one more start fits (0: now)."""
        while self._starts and now - self._starts[0] >= self.period:
            self._starts.popleft()
        if len(self._starts) < self.limit:
            return 0.0
        return self._starts[0] + self.period - now

    def take(self, now: float) -> None:
        self._starts.append(now)

    def quiet_since(self, now: float) -> bool:
        return not self.lock.locked() and (
            not self._starts or now - self._starts[-1] >= self.period
        )


@dataclass
class PacerStats:
    """What the pacer let through and how long it held requests back."""

    requests: int = 0
    posts: int = 0
    held: int = 0  # requests that waited at all
    held_seconds: float = 0.0


class BotTokenPacer:
    """This process's share of the bot token's budget (see the module's doc)."""

    def __init__(
        self,
        share: float = 1.0,
        *,
        per_second: float = GLOBAL_TARGET_PER_SECOND,
        channel_posts: int = CHANNEL_POSTS,
        channel_window: float = CHANNEL_WINDOW_SECONDS,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        if not 0 < share <= 1:
            raise ValueError(f"a process's share of the budget is in (0, 1], not {share}")
        self.per_second = max(1, math.floor(per_second * share))
        self._global = Window(self.per_second, 1.0)
        self._channel_posts = channel_posts
        self._channel_window = channel_window
        self._channels: dict[int, Window] = {}
        self._clock = clock
        self._sleep = sleep
        self.stats = PacerStats()

    @classmethod
    def for_plan(cls, plan: ShardPlan) -> BotTokenPacer:
        """The pacer of a process running ``plan``'s shards: its share is its shards over all
        of them (every process of the bot names the same count), so the processes together
        stay within the one budget."""
        share = 1.0 if plan.shard_count is None else len(plan.shards) / plan.shard_count
        return cls(share)

    async def request(self) -> None:
        """Wait until one more bot-token request fits this process's share."""
        self.stats.requests += 1
        await self._through(self._global)

    async def post(self, channel_id: int) -> None:
        """Wait until one more message may be posted in ``channel_id`` with the bot token."""
        self.stats.posts += 1
        await self._through(self._channel(channel_id))
        await self.request()

    def _channel(self, channel_id: int) -> Window:
        window = self._channels.get(channel_id)
        if window is None:
            if len(self._channels) >= IDLE_CHANNELS_KEPT:
                now = self._clock()
                for key in [k for k, w in self._channels.items() if w.quiet_since(now)]:
                    del self._channels[key]
            window = self._channels[channel_id] = Window(self._channel_posts, self._channel_window)
        return window

    async def _through(self, window: Window) -> None:
        first = self._clock()
        # One waiter at a time per window: requests leave in the order they asked.
        async with window.lock:
            while (wait := window.delay(self._clock())) > 0:
                await self._sleep(wait)
            now = self._clock()
            window.take(now)
            if now > first:
                self.stats.held += 1
                self.stats.held_seconds += now - first


__all__ = [
    "CHANNEL_POSTS",
    "CHANNEL_WINDOW_SECONDS",
    "GLOBAL_LIMIT_PER_SECOND",
    "GLOBAL_TARGET_PER_SECOND",
    "BotTokenPacer",
    "PacerStats",
    "Window",
]
