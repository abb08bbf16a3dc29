"""Garbage-collection settings: the start-up heap is frozen, long pauses are reported."""

from __future__ import annotations

import gc
import logging

import pytest

from bot.runtime import PauseWatch, freeze_startup_heap


def test_freezing_exempts_what_is_alive_now() -> None:
    keep = [object() for _ in range(1000)]
    try:
        frozen = freeze_startup_heap()
        assert frozen >= len(keep)
        # At least as many by the time we look: a thread the test process still runs (an
        # earlier test's) may allocate and freeze meanwhile; none are thawed.
        assert gc.get_freeze_count() >= frozen
    finally:
        gc.unfreeze()


def test_a_slow_collection_is_logged_and_a_quick_one_is_not(
    caplog: pytest.LogCaptureFixture,
) -> None:
    watch = PauseWatch(threshold=0.0)
    watch.install()
    watch.install()  # idempotent
    try:
        assert gc.callbacks.count(watch) == 1
        with caplog.at_level(logging.WARNING, logger="bot.runtime"):
            gc.collect()
        assert "slow garbage collection: generation 2" in caplog.text
    finally:
        watch.remove()
    assert watch not in gc.callbacks
    caplog.clear()
    patient = PauseWatch(threshold=60.0)
    patient.install()
    try:
        with caplog.at_level(logging.WARNING, logger="bot.runtime"):
            gc.collect()
        assert "slow garbage collection" not in caplog.text
    finally:
        patient.remove()
