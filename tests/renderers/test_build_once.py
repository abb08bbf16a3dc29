"""``renderers.memo.cached``: each value is built once, and a long build (a palette during
warm-up) does not hold up the builds other threads need meanwhile (a click's first board)."""

from __future__ import annotations

import threading
import time

import pytest

from renderers.fonts import text_mask
from renderers.memo import cached


def test_a_long_build_does_not_hold_up_other_builds() -> None:
    started, release = threading.Event(), threading.Event()

    @cached
    def slow(value: int) -> int:
        started.set()
        release.wait(30)
        return value

    @cached
    def quick(value: int) -> int:
        return value * 2

    builder = threading.Thread(target=slow, args=(1,))
    builder.start()
    try:
        assert started.wait(10)
        done: list[object] = []
        other = threading.Thread(target=lambda: done.append((quick(2), text_mask("zq", 13))))
        other.start()
        other.join(10)
        assert done, "another value's build waited for the long one"
        assert done[0][0] == 4  # type: ignore[index]
    finally:
        release.set()
        builder.join(10)


def test_a_value_asked_for_by_many_threads_is_built_once() -> None:
    builds: list[int] = []
    gate = threading.Barrier(6)

    @cached
    def board(value: int) -> list[int]:
        builds.append(value)
        time.sleep(0.05)  # the others arrive while it builds
        return [value]

    results: list[list[int]] = []

    def ask() -> None:
        gate.wait(10)
        results.append(board(7))

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert builds == [7]
    assert len(results) == 6 and all(result is results[0] for result in results)


def test_a_failed_build_is_tried_again() -> None:
    calls: list[int] = []

    @cached
    def flaky(value: int) -> int:
        calls.append(value)
        if len(calls) == 1:
            raise OSError("first time")
        return value

    with pytest.raises(OSError):
        flaky(3)
    assert flaky(3) == 3
    assert calls == [3, 3]
