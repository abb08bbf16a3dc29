"""A build-once cache that is safe to share between the bot's render threads.

Cached values are images that many threads paste from at the same time, so they are built
once under a lock and never mutated afterwards. Building under one re-entrant lock also keeps
FreeType faces, which are not thread-safe, to one thread at a time.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

BUILD_LOCK = threading.RLock()


def cached(fn: Callable[P, R]) -> Callable[P, R]:
    """Memoise ``fn`` by its (hashable) arguments; the first call builds under BUILD_LOCK."""
    store: dict[Any, R] = {}

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        key = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        try:
            return store[key]
        except KeyError:
            pass
        with BUILD_LOCK:
            if key not in store:
                store[key] = fn(*args, **kwargs)
            return store[key]

    wrapper.cache = store  # type: ignore[attr-defined]
    return wrapper
