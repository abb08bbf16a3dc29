"""The owner of each game under review in this process: the one review of it under way,
whose result everyone who asks meanwhile shares, let go as soon as it is made.

Two Review clicks, ``/review`` and the background skill reviewer (which reviews over a pool
of its own, through a second ``ReviewService``) all ask here, so a game's analysis runs once
in a process however many want it; who asks later reads it back from the database (the
review service stores each). The analysis runs as a task of its own: a reader who stops
waiting (their click's task cancelled at shutdown) leaves it to the others, and the last one
to stop cancels it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.games.review import Reviewed
from bot.service.owners import Owners


class LiveReview:
    """One game's review under way and how many wait for it."""

    __slots__ = ("id", "task", "used", "waiting")
    task: asyncio.Task[Reviewed]  # the analysis (or the read of the stored review)

    def __init__(self, game_id: str, now: float) -> None:
        self.id = game_id
        self.used = now
        self.waiting = 0

    @property
    def busy(self) -> bool:
        """Always: an owner is kept exactly while its review is under way."""
        return True


# Reviews under way at once are few (a pool's worth): none is let go before it ends.
MOST_KEPT = 10_000


class LiveReviews(Owners[str, LiveReview]):
    """The reviews under way in this process, by game id."""

    def __init__(self) -> None:
        super().__init__(LiveReview, most=MOST_KEPT)

    async def run(self, game_id: str, make: Callable[[], Awaitable[Reviewed]]) -> Reviewed:
        """The review of ``game_id``: the one under way, else ``make()``'s, run once for
        every caller that comes before it is done."""
        owner = self.peek(game_id)
        if owner is None:
            owner = self.get(game_id)
            owner.task = asyncio.create_task(self._made(owner, make), name=f"review-{game_id}")
            owner.task.add_done_callback(_retrieved)
        owner.waiting += 1
        try:
            return await asyncio.shield(owner.task)
        except asyncio.CancelledError:
            if owner.waiting == 1 and not owner.task.done():
                # Nobody else wants it; whoever asks from now on starts afresh.
                self._let_go(owner)
                owner.task.cancel()
            raise
        finally:
            owner.waiting -= 1

    async def _made(self, owner: LiveReview, make: Callable[[], Awaitable[Reviewed]]) -> Reviewed:
        try:
            return await make()
        finally:  # let go as it ends: whoever asks next reads the stored one, or tries again
            self._let_go(owner)

    def _let_go(self, owner: LiveReview) -> None:
        self.let_go(owner.id, owner)


def _retrieved(task: asyncio.Task[Reviewed]) -> None:
    """Its readers got its error, or all of them went: nothing is left unheard."""
    if not task.cancelled():
        task.exception()


__all__ = ["LiveReview", "LiveReviews"]
