"""One helper for the bot's periodic work (sweeps): run a coroutine every few seconds until
stopped, and never let one failed round end the loop.

A round that fails is logged and the next one comes as usual: periodic work is how the bot
heals after a fault (a database outage, Discord refusing for a while), so the loop itself
must outlive every fault.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Awaitable, Callable
from dataclasses import KW_ONLY, dataclass, field

log = logging.getLogger(__name__)


@dataclass(eq=False)
class Periodic:
    """``work()`` every ``every`` seconds (after each round ends) in a task of its own,
    from ``start()`` until ``stop()``; ``first_delay``: the wait before the first round;
    ``expected``: failures logged in one line, without their traceback."""

    name: str
    work: Callable[[], Awaitable[object]]
    _: KW_ONLY
    every: float
    first_delay: float = 0.0
    expected: Callable[[BaseException], bool] = lambda error: False
    rounds: int = field(default=0, init=False)
    failures: int = field(default=0, init=False)
    _task: asyncio.Task[None] | None = field(default=None, init=False, repr=False)

    def start(self) -> None:
        if self._task is None:
            # A context of its own: nothing of whoever started it (a click's deadline) leaks in.
            self._task = asyncio.create_task(
                self._forever(), name=self.name, context=contextvars.Context()
            )

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _forever(self) -> None:
        await asyncio.sleep(self.first_delay)
        while True:
            try:
                await self.work()
            except Exception as error:
                self.failures += 1
                if self.expected(error):  # a known fault (the database away): one line
                    log.warning("%s: a round failed: %s", self.name, error)
                else:
                    log.exception("%s: a round failed", self.name)
            self.rounds += 1
            await asyncio.sleep(self.every)
