"""The expert level's worker processes: bgsage never runs on the event loop.

API (for the bot and the service)::

    pool = ExpertPool(workers=2)      # cheap; nothing starts yet
    pool.start()                      # at bot start-up: spawns the workers (no-op without bgsage)
    pool.available                    # bgsage importable: offer difficulty "expert"

    action = await pool.choose_action(state, timeout=10.0, rng=rng)
        # like bot.ai.backgammon.choose_action(state, "expert", rng): a Play, Double,
        # Take, Drop, or None to roll. Never raises for engine trouble: on a timeout, a
        # crashed worker, a bgsage error or a missing bgsage it answers with the hard AI.
    lines = await pool.hint(state, timeout=10.0)
        # list[bot.ai.backgammon_analysis.HintLine]: the best plays (MOVE) or cube actions
        # (ROLL/CUBE); raises ExpertUnavailable / TimeoutError (there is no "hard" hint to fall
        # back to).
    analysis = await pool.review(options, notations, timeout=120.0)
        # bot.ai.backgammon_analysis.GameAnalysis of a backgammon record; bot.service.review
        # turns it into a player-facing review and caches it. Waits up to ``wait`` seconds
        # for a free worker, then raises ExpertBusy (a TimeoutError); raises ExpertUnavailable
        # only where bgsage is missing (or the pool closed), TimeoutError for an overrun.
    decision = await pool.judge(state, play, timeout=2.0)
        # tutor mode: one checker play judged as the review judges it (a Decision, its
        # ``loss`` in equity; None for a forced play); raises as hint does.
    pool.close()  /  await pool.aclose()  # at shutdown: stops and reaps the workers

Each worker is a ``spawn``-ed process holding its own bgsage analyzers and serving one
request at a time over a pipe; the event loop waits for the answer in a thread. A worker
that dies (killed, crashed) is replaced and the request retried once on the new one; a
worker that overruns its timeout is killed and replaced too (a search cannot be cancelled
from outside, and a stuck worker must not keep its slot). ``stats`` counts what happened.

Workers are ``spawn``-ed, so the program's main module must be import-safe (``python -m bot``
and the ``tabula`` script are). Why processes: bgsage's N-ply search releases the GIL but its
cube analysis does not (and re-reads its weight files, 40-80 ms), which would stall every
game on the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from multiprocessing.context import SpawnProcess
from typing import Any, Final

from bot.ai import backgammon_analysis, bgsage_engine
from bot.ai.backgammon_analysis import Decision, GameAnalysis, HintLine, PositionVerdict
from bot.ai.bgsage_engine import ExpertBusy, ExpertUnavailable
from bot.engines.backgammon import BackgammonState, Play

__all__ = ["ExpertBusy", "ExpertPool", "ExpertUnavailable", "PoolStats"]

log = logging.getLogger(__name__)

FALLBACK_LEVEL: Final = "hard"
DEFAULT_MOVE_TIMEOUT: Final = 10.0
DEFAULT_REVIEW_TIMEOUT: Final = 180.0
# How long a review waits for a worker to come free before it says the engine is busy; its
# own analysis then gets its whole timeout (a review that waited must not be cut short).
DEFAULT_REVIEW_WAIT: Final = 60.0


class _WorkerDied(Exception):
    pass


MAX_START_FAILURES: Final = 3  # workers dying before they are ready: bgsage is broken here


class _StillStarting(ExpertBusy):
    """The worker has not finished loading bgsage: not its fault, keep it (busy, not
    missing)."""


class _WorkerFailed(Exception):
    """The request raised inside the worker; the worker itself is fine."""


# ---------------------------------------------------------------------------------------------
# Inside a worker process


def _handle(eng: bgsage_engine.Engine, kind: str, payload: Any, levels: tuple[str, str]) -> Any:
    play_level, review_level = levels
    if kind == "action":
        return bgsage_engine.choose_action(payload, play_level, eng)
    if kind == "hint":
        return backgammon_analysis.hint(payload, play_level, eng=eng)
    if kind == "review":
        options, notations = payload
        return backgammon_analysis.analyse_game(options, notations, review_level, eng)
    if kind == "position":
        return backgammon_analysis.analyse_position(payload, play_level, eng=eng)
    if kind == "judge":
        state, action = payload
        return backgammon_analysis.judge_play(state, action, review_level, eng)
    if kind == "ping":
        return os.getpid()
    raise ValueError(f"unknown request {kind!r}")


def _serve(
    conn: multiprocessing.connection.Connection,
    threads: int,
    levels: tuple[str, str],
    nice: int = 0,
) -> None:
    """A worker's main loop: one request at a time until the pipe closes or ``None`` comes.
    ``nice`` lowers the process's scheduling priority first (background reviews give way to
    everything else on the machine)."""
    if nice > 0:
        with contextlib.suppress(OSError, AttributeError):  # no os.nice on Windows
            os.nice(nice)
    eng = bgsage_engine.engine(threads)
    for level in {*levels, "1ply"}:
        eng.analyzer(level)  # load the weights now, not during the first request
    conn.send(("ready", os.getpid()))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        kind, payload = message
        try:
            reply: tuple[str, Any] = ("ok", _handle(eng, kind, payload, levels))
        except Exception as error:  # reported to the parent, which falls back
            reply = ("error", f"{type(error).__name__}: {error}")
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return


# ---------------------------------------------------------------------------------------------
# In the bot's process


class _Worker:
    def __init__(self, threads: int, levels: tuple[str, str], nice: int = 0) -> None:
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        self.process: SpawnProcess = context.Process(
            target=_serve, args=(child, threads, levels, nice), daemon=True, name="tabula-expert"
        )
        self.process.start()
        child.close()
        self.conn = parent
        self.ready = False

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def call(self, message: tuple[str, Any], timeout: float) -> Any:
        """Blocking round trip (run in a thread). Raises TimeoutError / _WorkerDied."""
        deadline = time.monotonic() + timeout
        try:
            if not self.ready:
                # Loading bgsage takes a second or two: that counts against this request,
                # but a worker still loading is kept, not killed as a stuck one would be.
                if not self.conn.poll(timeout):
                    raise _StillStarting("expert worker still starting")
                self.conn.recv()
                self.ready = True
            self.conn.send(message)
            if not self.conn.poll(max(0.0, deadline - time.monotonic())):
                raise TimeoutError("expert worker timed out")
            status, value = self.conn.recv()
        except TimeoutError:
            raise  # an OSError too, but not a dead worker
        except (EOFError, OSError) as error:
            what = "died" if self.ready else "died while starting"
            raise _WorkerDied(f"{what}: {error or type(error).__name__}") from error
        if status != "ok":
            raise _WorkerFailed(str(value))
        return value

    def stop(self, grace: float = 1.0) -> None:
        with contextlib.suppress(BrokenPipeError, OSError):
            self.conn.send(None)
        self.process.join(grace)
        self.kill()

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5.0)
        self.conn.close()


@dataclass(slots=True)
class PoolStats:
    requests: int = 0
    fallbacks: int = 0
    timeouts: int = 0
    crashes: int = 0
    errors: int = 0
    respawns: int = 0


class ExpertPool:
    """A few bgsage worker processes; see the module docstring for the API."""

    def __init__(
        self,
        workers: int = 2,
        *,
        threads: int = 1,
        play_level: str = bgsage_engine.PLAY_LEVEL,
        review_level: str = backgammon_analysis.REVIEW_LEVEL,
        move_timeout: float = DEFAULT_MOVE_TIMEOUT,
        nice: int = 0,
    ) -> None:
        if workers < 1:
            raise ValueError("an expert pool needs at least one worker")
        self.size = workers
        self.threads = threads
        self.levels = (play_level, review_level)
        self.move_timeout = move_timeout
        self.nice = nice  # the workers' niceness: background pools give way to the bot's
        self.stats = PoolStats()
        self._workers: list[_Worker] = []
        self._idle: asyncio.Queue[_Worker] | None = None
        self._closed = False
        self._start_failures = 0  # consecutive workers that died before becoming ready

    @property
    def available(self) -> bool:
        """Whether the expert level is real here (bgsage importable, workers not failing)."""
        return bgsage_engine.available() and self._start_failures < MAX_START_FAILURES

    @property
    def started(self) -> bool:
        return bool(self._workers)

    def pids(self) -> list[int]:
        """Process ids of the current workers (for health checks and tests)."""
        return [w.pid for w in self._workers if w.pid is not None]

    def start(self) -> None:
        """Spawn the workers; they load bgsage in the background. No-op without bgsage."""
        if self._workers or not self.available:
            return
        self._closed = False
        self._idle = asyncio.Queue()
        for _ in range(self.size):
            worker = _Worker(self.threads, self.levels, self.nice)
            self._workers.append(worker)
            self._idle.put_nowait(worker)

    def close(self) -> None:
        """Stop every worker (a second call does nothing)."""
        self._closed = True
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.stop()
        self._idle = None

    async def aclose(self) -> None:
        """:meth:`close` without blocking the event loop (it waits up to a second a worker)."""
        await asyncio.to_thread(self.close)

    # ----------------------------------------------------------------------------- requests

    async def choose_action(
        self,
        state: BackgammonState,
        timeout: float | None = None,  # noqa: ASYNC109 - the worker's deadline: it is killed then
        rng: random.Random | None = None,
    ) -> Any:
        """The expert's action for the seat on turn, or the hard AI's when it cannot answer."""
        self.stats.requests += 1
        if self.available and not self._closed:
            try:
                return await self._request("action", state, timeout or self.move_timeout)
            except (TimeoutError, _WorkerDied, _WorkerFailed, ExpertUnavailable) as error:
                log.warning("expert fell back to %s: %s", FALLBACK_LEVEL, error)
        self.stats.fallbacks += 1
        return await asyncio.to_thread(_fallback, state, rng or random.Random(0))

    async def hint(
        self,
        state: BackgammonState,
        timeout: float | None = None,  # noqa: ASYNC109 - as in choose_action
    ) -> list[HintLine]:
        """The best plays or cube actions with their equities (see ``backgammon_analysis.hint``)."""
        result: list[HintLine] = await self._checked("hint", state, timeout or self.move_timeout)
        return result

    async def position(
        self,
        state: BackgammonState,
        timeout: float | None = None,  # noqa: ASYNC109 - as in choose_action
    ) -> PositionVerdict:
        """The expert's verdict on one position (``backgammon_analysis.analyse_position``)."""
        result: PositionVerdict = await self._checked(
            "position", state, timeout or self.move_timeout
        )
        return result

    async def judge(
        self,
        state: BackgammonState,
        action: Play,
        timeout: float | None = None,  # noqa: ASYNC109 - as in choose_action
    ) -> Decision | None:
        """One checker play judged at the review's level (``backgammon_analysis.judge_play``):
        tutor mode's question. Raises as :meth:`hint` does."""
        result: Decision | None = await self._checked(
            "judge", (state, action), timeout or self.move_timeout
        )
        return result

    async def review(
        self,
        options: Mapping[str, Any],
        notations: Sequence[str],
        timeout: float = DEFAULT_REVIEW_TIMEOUT,  # noqa: ASYNC109 - as in choose_action
        wait: float = DEFAULT_REVIEW_WAIT,
    ) -> GameAnalysis:
        """bgsage's analysis of a whole backgammon record (a few seconds per game): waits
        up to ``wait`` s for its turn at a worker, then has ``timeout`` s to run."""
        result: GameAnalysis = await self._checked(
            "review", (dict(options), tuple(notations)), timeout, wait=wait
        )
        return result

    async def _checked(
        self, kind: str, payload: Any, budget: float, *, wait: float | None = None
    ) -> Any:
        self.stats.requests += 1
        if not self.available:
            raise ExpertUnavailable("bgsage is not installed on this machine.")
        try:
            return await self._request(kind, payload, budget, wait=wait)
        except _WorkerDied as error:
            raise TimeoutError(f"the expert worker died twice: {error}") from error
        except _WorkerFailed as error:
            # The engine is here and answered with an error: not a missing engine (the
            # same request asked again usually works), so it is reported as a busy one.
            raise ExpertBusy(f"the expert worker failed: {error}") from error

    async def _request(
        self, kind: str, payload: Any, budget: float, *, wait: float | None = None
    ) -> Any:
        """``budget`` s for the whole request; with ``wait``, up to ``wait`` s to get a worker
        and then ``budget`` s from then on."""
        if self._closed:
            raise ExpertUnavailable("the expert pool is closed")
        if not self._workers:
            self.start()
        deadline = time.monotonic() + budget
        for attempt in (1, 2):
            try:
                worker = await self._acquire(deadline if wait is None else time.monotonic() + wait)
            except TimeoutError:
                self.stats.timeouts += 1
                raise
            if wait is not None:
                deadline = time.monotonic() + budget
            try:
                value = await asyncio.to_thread(
                    worker.call, (kind, payload), max(0.0, deadline - time.monotonic())
                )
            except (_WorkerFailed, _StillStarting) as error:
                if isinstance(error, _WorkerFailed):
                    self.stats.errors += 1
                else:
                    self.stats.timeouts += 1
                self._release(worker)
                raise
            except TimeoutError:
                self.stats.timeouts += 1
                self._replace(worker)
                raise
            except _WorkerDied:
                self.stats.crashes += 1
                if not worker.ready:
                    self._start_failures += 1
                    if self._start_failures >= MAX_START_FAILURES:
                        log.error("expert workers keep dying at start-up; expert plays as hard")
                        self.close()
                        raise
                self._replace(worker)
                if attempt == 2:
                    raise
                continue
            except BaseException:  # cancelled mid-request: the worker's state is unknown
                self._replace(worker)
                raise
            self._start_failures = 0
            self._release(worker)
            return value
        raise AssertionError("unreachable")

    async def _acquire(self, deadline: float) -> _Worker:
        idle = self._idle
        if idle is None:
            raise ExpertUnavailable("the expert pool is closed")
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise ExpertBusy("no expert worker free in time")
        try:
            worker = await asyncio.wait_for(idle.get(), remaining)
        except TimeoutError:
            raise ExpertBusy("no expert worker free in time") from None
        if not worker.process.is_alive():  # died while idle: replace before use
            self.stats.crashes += 1
            self._replace(worker, queue=False)
            worker = self._workers[-1]
        return worker

    def _release(self, worker: _Worker) -> None:
        if self._idle is not None and worker in self._workers:
            self._idle.put_nowait(worker)
        else:
            worker.stop(0.1)

    def _replace(self, worker: _Worker, *, queue: bool = True) -> None:
        """Kill ``worker`` and start a fresh one in its slot."""
        worker.kill()
        if worker in self._workers:
            self._workers.remove(worker)
        if self._closed:
            return
        fresh = _Worker(self.threads, self.levels, self.nice)
        self._workers.append(fresh)
        self.stats.respawns += 1
        if queue and self._idle is not None:
            self._idle.put_nowait(fresh)


def _fallback(state: BackgammonState, rng: random.Random) -> Any:
    from bot.ai import backgammon

    return backgammon.choose_action(state, FALLBACK_LEVEL, rng)
