"""The owner of each challenge this process is working on, as ``LiveGame`` is a game's: the
lock its answers, its expiry and its start's claim are taken under, and whether this process
is making its game, from the offer until it is started, declined, cancelled or expired; let
go afterwards.

The stored transitions stay the guard between processes (of two Accepts on two processes one
claims it, of two starts one stores the game); the owner keeps one process from racing
itself: a Decline waits for the Accept before it, the expiry sweep for a click, and the
start-up recovery leaves alone a start a click of this process is making. Nothing here
lives only in memory: an owner let go is made again, knowing nothing, when next used.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager


class LiveChallenge:
    """One challenge's runtime state (see the module)."""

    __slots__ = ("id", "lock", "over", "starting", "used", "users")

    def __init__(self, challenge_id: int, now: float) -> None:
        self.id = challenge_id
        self.lock = asyncio.Lock()  # one change of it in storage at a time, in this process
        self.starting = False  # its game is being made here (thread, game, first board)
        self.over = False  # started, declined, cancelled or expired: let go once idle
        self.used = now
        self.users = 0  # holders of the lock and those waiting for it

    @property
    def busy(self) -> bool:
        return self.starting or self.users > 0


# The least recently used past this many go when the next one comes (clicks naming unknown
# challenges make owners too).
MOST_KEPT = 10_000


class LiveChallenges:
    """The owners of the challenges this process has in hand. An owner goes when its
    challenge is over and nothing holds it; one nobody used for ``idle_seconds`` (its end came
    in another process), or the least recently used beyond ``most``, when the next one
    comes."""

    def __init__(
        self,
        *,
        idle_seconds: float,
        most: int = MOST_KEPT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.idle_seconds = idle_seconds
        self.most = most
        self.clock = clock
        self._owners: OrderedDict[int, LiveChallenge] = OrderedDict()  # least recently used first

    def __len__(self) -> int:
        return len(self._owners)

    def __contains__(self, challenge_id: object) -> bool:
        return challenge_id in self._owners

    def get(self, challenge_id: int) -> LiveChallenge:
        """The owner of ``challenge_id``, made on first use."""
        now = self.clock()
        owner = self._owners.get(challenge_id)
        if owner is None:
            self._evict_idle(now)
            owner = self._owners[challenge_id] = LiveChallenge(challenge_id, now)
        else:
            self._owners.move_to_end(challenge_id)
            owner.used = now
        return owner

    def peek(self, challenge_id: int) -> LiveChallenge | None:
        return self._owners.get(challenge_id)

    @asynccontextmanager
    async def hold(self, challenge_id: int) -> AsyncIterator[LiveChallenge]:
        """The owner, its lock held: counted as busy from the wait on, so it is not let go
        while anyone waits for it."""
        owner = self.get(challenge_id)
        owner.users += 1
        try:
            async with owner.lock:
                yield owner
        finally:
            owner.users -= 1
            self._let_go_if_over(owner)

    def done(self, challenge_id: int) -> None:
        """The challenge is over (its game stored, declined, cancelled, expired): its owner
        goes now, or when the last work on it ends."""
        owner = self._owners.get(challenge_id)
        if owner is not None:
            owner.over = True
            self._let_go_if_over(owner)

    def start_ended(self, owner: LiveChallenge, *, stored: bool) -> None:
        """This process's start of it ended; ``stored``: its game was stored (it is over)."""
        owner.starting = False
        owner.over = owner.over or stored
        self._let_go_if_over(owner)

    def _let_go_if_over(self, owner: LiveChallenge) -> None:
        if owner.over and not owner.busy and self._owners.get(owner.id) is owner:
            del self._owners[owner.id]

    def _evict_idle(self, now: float) -> None:
        for owner in list(self._owners.values()):
            if now - owner.used < self.idle_seconds and len(self._owners) < self.most:
                break  # the rest were used later
            if owner.busy:
                self._owners.move_to_end(owner.id)
                continue
            del self._owners[owner.id]


__all__ = ["MOST_KEPT", "LiveChallenge", "LiveChallenges"]
