"""Garbage-collection settings: the start-up heap is frozen, long pauses are reported."""

from __future__ import annotations

import gc
import logging

import pytest

from bot.runtime import PauseWatch, freeze_startup_heap


def test_freezing_exempts_what_is_alive_now() -> None:
    keep = [[] for _ in range(1000)]  # containers: objects the collector tracks
    try:
        frozen = freeze_startup_heap()
        assert frozen >= len(keep)
        # What was alive is in no generation the collector scans. (The freeze count itself
        # is no witness: another thread of the test process may free frozen objects.)
        scanned = {id(o) for o in gc.get_objects()}
        assert id(keep) not in scanned
        assert not any(id(item) in scanned for item in keep)
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
