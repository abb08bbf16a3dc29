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
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from bot.service.owners import Owners


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


class LiveChallenges(Owners[int, LiveChallenge]):
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
        super().__init__(LiveChallenge, idle_seconds=idle_seconds, most=most, clock=clock)

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
        owner = self.peek(challenge_id)
        if owner is not None:
            owner.over = True
            self._let_go_if_over(owner)

    def start_ended(self, owner: LiveChallenge, *, stored: bool) -> None:
        """This process's start of it ended; ``stored``: its game was stored (it is over)."""
        owner.starting = False
        owner.over = owner.over or stored
        self._let_go_if_over(owner)

    def _let_go_if_over(self, owner: LiveChallenge) -> None:
        if owner.over and not owner.busy:
            self.let_go(owner.id, owner)


__all__ = ["MOST_KEPT", "LiveChallenge", "LiveChallenges"]
