"""A small read-through cache whose entries expire: what a process keeps of rows that
another process may change behind its back (server settings, a person's preferences)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class ExpiringCache(Generic[K, V]):
    """Values by key, each kept ``seconds`` from the moment it was read.

    The moment is the caller's (:meth:`now` before the read, then :meth:`put`), so that a
    write by another process during a slow read is not hidden for longer than ``seconds``.
    """

    def __init__(self, seconds: float, clock: Callable[[], float]) -> None:
        self.seconds = seconds
        self.clock = clock
        self._entries: dict[K, tuple[float, V]] = {}

    def now(self) -> float:
        return self.clock()

    def get(self, key: K) -> V | None:
        """The value kept for ``key``; None when there is none or it has expired."""
        entry = self._entries.get(key)
        if entry is None or self.clock() - entry[0] >= self.seconds:
            return None
        return entry[1]

    def put(self, key: K, value: V, read_at: float | None = None) -> None:
        self._entries[key] = (self.clock() if read_at is None else read_at, value)

    def drop(self, key: K) -> None:
        self._entries.pop(key, None)
