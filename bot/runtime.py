"""Interpreter settings for a long-running bot: garbage collection that does not stall clicks.

CPython's full (oldest-generation) collection walks every tracked object. After start-up most
of them are modules, classes, functions, discord.py's and the renderers' caches: they live as
long as the process and never become garbage, yet under load a full collection walking them
held the interpreter for about 60 ms every half minute (measured with benchmarks/load.py), and
every click and board waiting meanwhile was late by that much. ``gc.freeze()`` moves them out
of the collector's view once start-up is over; full collections then take about a sixth.
"""

from __future__ import annotations

import gc
import logging
import sys
import time
from typing import Any

log = logging.getLogger(__name__)

SLOW_COLLECTION_SECONDS = 0.05

# How long a thread may hold the interpreter while another waits for it. CPython's 5 ms
# default suits throughput; here the event loop (acknowledgements), the database thread(s)
# and the render threads hand it back and forth several times per click, and each hand-over
# to a waiting thread could cost up to a whole interval behind a render's Python code.
SWITCH_INTERVAL_SECONDS = 0.001


def freeze_startup_heap(*, collect: bool = True) -> int:
    """Collect once (unless ``collect`` is false: the caller collected shortly before), then
    exempt everything alive now from future collections; returns how many objects were
    frozen."""
    if collect:
        gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def tune_interpreter() -> None:
    """Interpreter settings for a bot process, applied once at start-up."""
    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)


def collect_startup_garbage() -> None:
    """The full collection the freeze wants first, done before the gateway connects: at
    READY it took 85-100 ms, and a restarted bot's first clicks arrive right then."""
    gc.collect()


class PauseWatch:
    """Logs a warning for each garbage collection that held the interpreter too long, so a
    latency spike in the access log can be told apart from a slow database or Discord."""

    def __init__(self, threshold: float = SLOW_COLLECTION_SECONDS) -> None:
        self.threshold = threshold
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        elapsed = time.perf_counter() - self._started
        if elapsed > self.threshold:
            log.warning(
                "slow garbage collection: generation %d took %.0f ms (%d objects freed)",
                info.get("generation", -1),
                elapsed * 1000,
                info.get("collected", 0),
            )

    def install(self) -> None:
        if self not in gc.callbacks:
            gc.callbacks.append(self)

    def remove(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)
