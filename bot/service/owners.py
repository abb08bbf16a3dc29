"""The keyed owners a process keeps of the entities it works on (games, challenges,
tournaments): one owner per key, made on first use, least recently used first, let go when
idle or when there are too many, never while it is busy.

An owner holds only what a process may forget: the stored state stays the truth, and an
owner let go is made again, knowing nothing, when the key is next used.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, Protocol, TypeVar


class Owner(Protocol):
    """What the registry reads of an owner: its key, when it was last used, and whether work
    on it is under way (a busy owner is never let go)."""

    @property
    def id(self) -> Hashable: ...

    used: float

    @property
    def busy(self) -> bool: ...


K = TypeVar("K", bound=Hashable)
OwnerT = TypeVar("OwnerT", bound=Owner)


class Owners(Generic[K, OwnerT]):
    """The owners of one kind of entity in this process. One nobody used for
    ``idle_seconds``, or the least recently used beyond ``most``, goes when the next one is
    made, unless it is busy (then it goes to the back of the line)."""

    def __init__(
        self,
        make: Callable[[K, float], OwnerT],
        *,
        idle_seconds: float = math.inf,
        most: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.idle_seconds = idle_seconds
        self.most = most
        self.clock = clock
        self._make = make
        self._owners: OrderedDict[K, OwnerT] = OrderedDict()  # least recently used first

    def __len__(self) -> int:
        return len(self._owners)

    def __iter__(self) -> Iterator[OwnerT]:
        return iter(list(self._owners.values()))

    def __contains__(self, key: object) -> bool:
        return key in self._owners

    def get(self, key: K) -> OwnerT:
        """The owner of ``key``, made on first use."""
        now = self.clock()
        owner = self._owners.get(key)
        if owner is None:
            self._evict_idle(now)
            owner = self._owners[key] = self._make(key, now)
        else:
            self._owners.move_to_end(key)
            owner.used = now
        return owner

    def peek(self, key: K) -> OwnerT | None:
        """The owner of ``key`` if there is one (made by nothing, used by nothing)."""
        return self._owners.get(key)

    def drop(self, key: K) -> None:
        self._owners.pop(key, None)

    def let_go(self, key: K, owner: OwnerT) -> bool:
        """Let ``owner`` go if it is still the one kept for ``key``. True when it went."""
        if self._owners.get(key) is not owner:
            return False
        del self._owners[key]
        return True

    def _evict_idle(self, now: float) -> None:
        """Make room for one more."""
        for key, owner in list(self._owners.items()):
            if now - owner.used < self.idle_seconds and len(self._owners) < self.most:
                break  # the rest were used later
            if owner.busy:
                self._owners.move_to_end(key)  # a long AI think, a start under way
                continue
            del self._owners[key]


__all__ = ["Owner", "Owners"]
