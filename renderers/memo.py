"""A build-once cache that is safe to share between the bot's render threads.

Cached values are images that many threads paste from at the same time, so each is built
once and never mutated afterwards. A build holds a lock of its own key only: a thread that
needs a text stamp is not held up by another thread building a whole palette (warm-up at
start-up does that while the first clicks draw their boards), and two threads asking for the
same value wait for one build. This cannot deadlock: a build only waits for builds of the
values it needs, and those never need it back (that would recurse forever in one thread).
FreeType, which is not thread-safe, has its own lock (``renderers.fonts.FONT_LOCK``).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

_LOCKS_LOCK = threading.Lock()  # guards the table of per-key build locks


def cached(fn: Callable[P, R]) -> Callable[P, R]:
    """Memoise ``fn`` by its (hashable) arguments; the first call builds, under that key's
    lock."""
    store: dict[Any, R] = {}
    building: dict[Any, threading.Lock] = {}

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        key = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        try:
            return store[key]
        except KeyError:
            pass
        with _LOCKS_LOCK:
            lock = building.setdefault(key, threading.Lock())
        with lock:
            if key not in store:
                store[key] = fn(*args, **kwargs)
        with _LOCKS_LOCK:
            building.pop(key, None)
        return store[key]

    wrapper.cache = store  # type: ignore[attr-defined]
    return wrapper
