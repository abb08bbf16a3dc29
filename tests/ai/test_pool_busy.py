"""A busy expert worker is never reported as a missing one: with the pool's one worker held
busy, a review waits its turn (bounded) and then says the engine is busy, with its own
catalogue key; "not available" is kept for an installation without the engine.

The worker is a stand-in (no bgsage process): it holds its request until the test lets it
go, so which request waits for which is decided by the test, not by timing."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from bot.ai import bgsage_engine
from bot.ai import pool as pool_module
from bot.ai.pool import ExpertBusy, ExpertPool, ExpertUnavailable
from bot.games import backgammon_review
from bot.games.review import Record, ReviewUnavailable


class _Process:
    pid = 4242

    def is_alive(self) -> bool:
        return True


class HeldWorker:
    """A worker that answers each request only once the test releases it."""

    entered = threading.Event()
    release = threading.Event()
    calls: ClassVar[list[str]] = []

    def __init__(self, threads: int, levels: tuple[str, str], nice: int = 0) -> None:
        self.process = _Process()
        self.ready = True

    @property
    def pid(self) -> int:
        return self.process.pid

    def call(self, message: tuple[str, Any], timeout: float) -> Any:
        kind, _ = message
        HeldWorker.calls.append(kind)
        HeldWorker.entered.set()
        if not HeldWorker.release.wait(timeout):
            raise TimeoutError("held past its timeout")
        return f"analysis {len(HeldWorker.calls)}"

    def stop(self, grace: float = 1.0) -> None:
        HeldWorker.release.set()

    def kill(self) -> None:
        HeldWorker.release.set()


@pytest.fixture
def one_worker(monkeypatch: pytest.MonkeyPatch) -> Iterator[ExpertPool]:
    monkeypatch.setattr(bgsage_engine, "available", lambda: True)
    monkeypatch.setattr(pool_module, "_Worker", HeldWorker)
    HeldWorker.entered = threading.Event()
    HeldWorker.release = threading.Event()
    HeldWorker.calls = []
    pool = ExpertPool(workers=1)
    yield pool
    HeldWorker.release.set()
    pool.close()


async def _hold(pool: ExpertPool) -> asyncio.Task[Any]:
    """The pool's one worker busy with a review until the test releases it."""
    first = asyncio.create_task(pool.review({}, ("roll",), timeout=30.0))
    await asyncio.to_thread(HeldWorker.entered.wait, 30.0)
    assert HeldWorker.calls == ["review"]
    return first


async def test_a_review_behind_a_busy_worker_is_told_busy_not_missing(
    one_worker: ExpertPool,
) -> None:
    first = await _hold(one_worker)
    with pytest.raises(ExpertBusy) as busy:
        await one_worker.review({}, ("roll",), timeout=30.0, wait=0.05)
    assert not isinstance(busy.value, ExpertUnavailable)
    assert HeldWorker.calls == ["review"]  # the second never reached the worker
    HeldWorker.release.set()
    assert await first == "analysis 1"


async def test_the_review_page_says_busy_with_its_own_key(
    one_worker: ExpertPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await _hold(one_worker)
    monkeypatch.setattr(backgammon_review, "REVIEW_TIMEOUT", 30.0)
    original = one_worker.review

    async def short_wait(*args: Any, **kwargs: Any) -> Any:
        return await original(*args, **kwargs, wait=0.05)

    monkeypatch.setattr(one_worker, "review", short_wait)
    record = Record("0123abcd", {}, ("roll",), (0, 1))
    with pytest.raises(ReviewUnavailable) as refused:
        await backgammon_review.analyse(record, one_worker)
    assert refused.value.key == "error.review_expert_busy"
    HeldWorker.release.set()
    await first


async def test_a_review_waits_its_turn_and_then_runs(one_worker: ExpertPool) -> None:
    first = await _hold(one_worker)
    second = asyncio.create_task(one_worker.review({}, ("roll",), timeout=30.0, wait=30.0))
    await asyncio.sleep(0)  # let it queue for the worker
    assert not second.done()
    HeldWorker.release.set()
    assert await first == "analysis 1"
    assert await second == "analysis 2"
    assert HeldWorker.calls == ["review", "review"]


async def test_missing_engine_is_still_said_to_be_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bgsage_engine, "available", lambda: False)
    record = Record("0123abcd", {}, ("roll",), (0, 1))
    with pytest.raises(ReviewUnavailable) as refused:
        await backgammon_review.analyse(record, ExpertPool(workers=1))
    assert refused.value.key == "error.review_unavailable"
