"""Gateway shards: which of them this process runs, and which work is therefore its own.

Discord splits a bot's servers into ``shard_count`` shards by ``(guild_id >> 22) %
shard_count`` and sends each server's events only to the gateway session of its shard
(direct messages go to shard 0). A bot too big for one process runs several, each with a
slice of the shards (``SHARD_IDS`` of ``SHARD_COUNT``, or ``tabula run --shards 0-3
--shard-count 8``), all sharing one PostgreSQL database.

A server's clicks and commands reach only the process running its shard, so everything a
game does on its own (AI moves, clocks, reminders, claims, the board refresh at start-up)
belongs to that process too: :meth:`ShardPlan.owns` says whether a server is this
process's. Without ``SHARD_IDS`` and ``SHARD_COUNT`` the bot is one process without
sharding, as Discord sees any bot in fewer than 2,500 servers, and owns everything.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

__all__ = ["IdentifyGate", "ShardPlan", "format_ids", "parse_shard_ids", "shard_of"]

# Discord recommends about 1,000 servers per shard; far beyond any real bot's count, this
# bound only catches a typo (an id pasted as a count) before it opens that many sockets.
MAX_SHARD_COUNT = 65_536
_RANGE = re.compile(r"^(\d+)(?:\s*-\s*(\d+))?$")


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends ``guild_id``'s events to; direct messages (no server) go to
    shard 0."""
    if guild_id is None:
        return 0
    return (guild_id >> 22) % shard_count


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``"0-3"``, ``"5"`` or ``"0,2,4-7"`` as sorted shard ids without repeats; ``ValueError``
    with a sentence for an operator otherwise."""
    ids: set[int] = set()
    for part in text.split(","):
        match = _RANGE.match(part.strip())
        if match is None:
            raise ValueError(
                f"{text!r} is not a list of shard ids: use a range such as 0-3, single ids, "
                "or both separated by commas (0,2,4-7)"
            )
        first = int(match[1])
        last = int(match[2]) if match[2] is not None else first
        if last < first:
            raise ValueError(f"the shard range {part.strip()!r} runs backwards")
        if last - first >= MAX_SHARD_COUNT:
            raise ValueError(f"the shard range {part.strip()!r} is larger than any shard count")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


@dataclass(frozen=True, slots=True)
class ShardPlan:
    """The shards one process runs: ``shard_ids`` of ``shard_count``.

    ``shard_count`` None: not sharded (one gateway session with every server).
    ``shard_ids`` None with a count: every shard of that count, in this one process.
    """

    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None

    def __post_init__(self) -> None:
        count, ids = self.shard_count, self.shard_ids
        if count is None:
            if ids is not None:
                raise ValueError(
                    "SHARD_IDS needs SHARD_COUNT: the total number of shards over all processes "
                    "(the same number in every one of them)"
                )
            return
        if not 1 <= count <= MAX_SHARD_COUNT:
            raise ValueError(f"SHARD_COUNT must be between 1 and {MAX_SHARD_COUNT}, not {count}")
        if ids is not None:
            if not ids:
                raise ValueError("SHARD_IDS names no shard")
            outside = [i for i in ids if not 0 <= i < count]
            if outside:
                raise ValueError(
                    f"shard ids {outside} do not exist with SHARD_COUNT={count}: "
                    f"the ids run from 0 to {count - 1}"
                )

    @classmethod
    def parse(cls, shard_ids: str | None, shard_count: int | None) -> ShardPlan:
        """From the settings' text (``SHARD_IDS``) and number (``SHARD_COUNT``); empty text
        counts as unset."""
        text = (shard_ids or "").strip()
        return cls(parse_shard_ids(text) if text else None, shard_count)

    @classmethod
    def of_client(cls, client: object) -> ShardPlan:
        """What a running discord.py client was started with (``AutoShardedClient`` has
        ``shard_ids``; a plain ``Client`` with no ``shard_count`` is not sharded)."""
        count = getattr(client, "shard_count", None)
        if count is None:
            return cls()
        ids = getattr(client, "shard_ids", None)
        return cls(None if ids is None else tuple(sorted(ids)), int(count))

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @property
    def shards(self) -> tuple[int, ...]:
        """The shard ids this process runs (``(0,)`` when not sharded)."""
        if self.shard_count is None:
            return (0,)
        return self.shard_ids if self.shard_ids is not None else tuple(range(self.shard_count))

    @property
    def owns_everything(self) -> bool:
        return self.shard_count is None or len(self.shards) == self.shard_count

    def owns(self, guild_id: int | None) -> bool:
        """Whether ``guild_id``'s events come to this process (None: a direct message)."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    def describe(self) -> str:
        """For the start-up log: ``shards 0-3 of 8``."""
        if self.shard_count is None:
            return "not sharded"
        return f"shards {format_ids(self.shards)} of {self.shard_count}"


def format_ids(ids: tuple[int, ...]) -> str:
    """``(0, 1, 2, 5)`` as ``0-2,5``: the inverse of :func:`parse_shard_ids`."""
    parts: list[str] = []
    start = previous = None
    for shard in ids:
        if previous is not None and shard == previous + 1:
            previous = shard
            continue
        if start is not None:
            parts.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = shard
    if start is not None:
        parts.append(str(start) if start == previous else f"{start}-{previous}")
    return ",".join(parts)


IDENTIFY_INTERVAL_SECONDS = 5.0


class IdentifyGate:
    """Discord's session start limit: in each bucket (``shard_id % max_concurrency``) one
    IDENTIFY per 5 seconds. :meth:`wait` returns when ``shard_id`` may identify, and counts
    that identify."""

    def __init__(
        self,
        max_concurrency: int,
        *,
        interval: float = IDENTIFY_INTERVAL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self.max_concurrency = max(1, max_concurrency)
        self.interval = interval
        self._clock = clock
        self._sleep = sleep
        self._next: dict[int, float] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    async def wait(self, shard_id: int) -> None:
        bucket = shard_id % self.max_concurrency
        async with self._locks.setdefault(bucket, asyncio.Lock()):
            delay = self._next.get(bucket, 0.0) - self._clock()
            if delay > 0:
                await self._sleep(delay)
            self._next[bucket] = self._clock() + self.interval
