"""A move's transaction on SQLite: one hop to the database thread, or one per statement.

    python -m benchmarks.sqlite_hops [--transactions 2000] [--busy-tasks 4] [--busy-ms 0.5]
        [--busy-pause-ms 2]

Needs aiosqlite (``pip install -e ".[bench]"``); the bot never uses it.

The bot's SQLite backend (``bot/storage/sqlite.py``) runs the standard :mod:`sqlite3` module on
one worker thread, and a transaction is a plain function that runs there whole: BEGIN, its
statements, COMMIT, then one result back to the event loop. aiosqlite's public API awaits each
statement: every statement goes to its thread and its result comes back through the event
loop before the next one is sent, with the file's write lock held all the while; running a
whole function in one go is only its private ``_execute``.

This times the transaction a move commits (``bot.storage.append_actions``: the version-checked
``UPDATE games ... RETURNING action_count`` and the INSERT of its actions, here a roll and a
move with a backgammon snapshot) on a file built by the project's own migrations, both ways:

- ``tabula``: ``append_actions`` itself, through :class:`bot.storage.Database`;
- ``aiosqlite``: the same statements with aiosqlite's public API (``BEGIN IMMEDIATE``,
  ``execute_fetchall`` for the UPDATE, ``executemany``, ``COMMIT``: the fewest awaits it
  allows), the connection configured as the bot's (WAL, ``synchronous=NORMAL``, foreign keys).
  One connection serves one transaction at a time, so concurrent writers queue on a lock.

in three settings: an idle event loop with one writer; a busy loop (``--busy-tasks`` tasks
each holding it ``--busy-ms`` at a time, then sleeping ``--busy-pause-ms``, as other clicks'
Python work does; about three quarters of the time by default) with one writer; and the busy
loop with eight writers at once. The interpreter runs with the bot's switch interval
(``bot.runtime.tune_interpreter``). Printed per way: transactions a second, latency per
transaction (mean, p50, p99: the await, from asking to the result), hops per transaction (the
results other threads handed to the event loop, ``call_soon_threadsafe``), and the share of
the time the busy tasks held the loop.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    import aiosqlite
except ImportError:  # pragma: no cover - the message is the point
    raise SystemExit(
        'this benchmark needs aiosqlite: pip install -e ".[bench]" (the bot does not use it)'
    ) from None

from bot.runtime import tune_interpreter
from bot.storage import Database, NewAction, SeatRow, append_actions, create_game

# A backgammon game's snapshot as the service stores it after a move (json.dumps, sorted).
STATE_JSON = (
    '{"engine": {"crawford": false, "cube_enabled": true, "cube_owner": null, "cube_value": 1,'
    ' "dice": [], "game_number": 1, "games": [], "last_play": [[8, 5], [6, 5]],'
    ' "last_roll": [3, 1], "match_length": 1,'
    ' "mine": [0, 0, 0, 0, 2, 4, 0, 2, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0],'
    ' "outcome": null, "passed": false, "phase": "rolling", "post_crawford": false,'
    ' "score": [0, 0],'
    ' "theirs": [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0],'
    ' "turn": 1}, "rolls": 1}'
)

# append_actions' statements for a move that sets the next turn's deadline (no game end).
UPDATE_GAME = (
    "UPDATE games SET version = version + ?, action_count = action_count + ?, state_json = ?, "
    "updated_at = ?, draft_json = ?, turn_deadline = ?, reminder_sent = 0 "
    "WHERE id = ? AND version = ? AND status = 'active' RETURNING action_count"
)
INSERT_ACTIONS = (
    "INSERT INTO actions (game_id, seq, seat, user_id, kind, notation, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)
MOVE = (NewAction(0, 11, "roll", "31"), NewAction(0, 11, "move", "8/5 6/5"))
DAY = 86_400.0


class CountingLoop(asyncio.SelectorEventLoop):
    """An event loop that counts what other threads hand it: one per hop back from a
    worker thread (``run_in_executor``'s result and aiosqlite's both arrive this way)."""

    hops = 0

    def call_soon_threadsafe(  # type: ignore[override]
        self,
        callback: Callable[..., object],
        *args: Any,
        context: contextvars.Context | None = None,
    ) -> asyncio.Handle:
        self.hops += 1
        return super().call_soon_threadsafe(callback, *args, context=context)


@dataclass(frozen=True)
class Result:
    way: str
    seconds: float
    latencies: list[float]
    hops: int
    loop_busy: float  # the share of the time the busy tasks held the event loop

    def line(self) -> str:
        ms = sorted(t * 1000 for t in self.latencies)
        count = len(ms)
        p99 = ms[min(count - 1, round(0.99 * count))]
        return (
            f"  {self.way:<10} {count / self.seconds:>8,.0f} tx/s   "
            f"mean {statistics.fmean(ms):6.3f}  p50 {statistics.median(ms):6.3f}  "
            f"p99 {p99:7.3f} ms   {self.hops / count:4.2f} hops/tx   "
            f"loop {self.loop_busy:4.0%} busy"
        )


async def _setup(path: Path, games: int) -> None:
    """A fresh file with the project's schema and ``games`` active backgammon games."""
    async with await Database.open(path) as db:
        for n in range(games):
            await create_game(
                db,
                game_id=f"g{n}",
                game="backgammon",
                guild_id=1,
                channel_id=100 + n,
                state_json=STATE_JSON,
                seats=[SeatRow(0, 11, None, "Ada"), SeatRow(1, 12, None, "Ben")],
                dice_seed="00" * 32,
                dice_seed_hash="11" * 32,
                now=time.time(),
            )


Commit = Callable[[str, int], Awaitable[None]]
Run = Callable[[Path, int, int], Awaitable[tuple[float, list[float]]]]


async def _drive(commit: Commit, writers: int, transactions: int) -> tuple[float, list[float]]:
    """``writers`` tasks, each committing moves to its own game one after another."""
    latencies: list[float] = []
    per_writer = transactions // writers

    async def writer(n: int) -> None:
        for version in range(0, per_writer * len(MOVE), len(MOVE)):
            asked = time.perf_counter()
            await commit(f"g{n}", version)
            latencies.append(time.perf_counter() - asked)

    started = time.perf_counter()
    await asyncio.gather(*(writer(n) for n in range(writers)))
    return time.perf_counter() - started, latencies


async def _tabula(path: Path, writers: int, transactions: int) -> tuple[float, list[float]]:
    async with await Database.open(path) as db:

        async def commit(game_id: str, version: int) -> None:
            now = time.time()
            await append_actions(
                db, game_id, version, MOVE, STATE_JSON, now, turn_deadline=now + DAY
            )

        return await _drive(commit, writers, transactions)


async def _aiosqlite(path: Path, writers: int, transactions: int) -> tuple[float, list[float]]:
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        for pragma in ("busy_timeout = 5000", "journal_mode = WAL", "synchronous = NORMAL"):
            await conn.execute(f"PRAGMA {pragma}")
        await conn.execute("PRAGMA foreign_keys = ON")
        # One connection runs one transaction at a time: statements of two would interleave.
        lock = asyncio.Lock()

        async def commit(game_id: str, version: int) -> None:
            now = time.time()
            count = len(MOVE)
            async with lock:
                await conn.execute("BEGIN IMMEDIATE")
                try:
                    rows = await conn.execute_fetchall(
                        UPDATE_GAME,
                        (count, count, STATE_JSON, now, None, now + DAY, game_id, version),
                    )
                    (after,) = list(rows)
                    first = int(after[0]) - count + 1
                    await conn.executemany(
                        INSERT_ACTIONS,
                        [
                            (game_id, seq, a.seat, a.user_id, a.kind, a.notation, now)
                            for seq, a in enumerate(MOVE, start=first)
                        ],
                    )
                    await conn.execute("COMMIT")
                except BaseException:
                    await conn.execute("ROLLBACK")
                    raise

        return await _drive(commit, writers, transactions)


class Busy:
    """Keeps the event loop occupied as other clicks' Python work does: each of ``tasks``
    tasks holds it ``hold`` seconds, then sleeps ``pause`` seconds; ``held`` adds up."""

    def __init__(self, tasks: int, hold: float, pause: float) -> None:
        self.tasks, self.hold, self.pause = tasks, hold, pause
        self.held = 0.0
        self._stop = asyncio.Event()
        self._running: asyncio.Future[list[None]] | None = None

    def start(self) -> None:
        self._running = asyncio.gather(*(self._one() for _ in range(self.tasks)))

    async def stop(self) -> None:
        self._stop.set()
        if self._running is not None:
            await self._running

    async def _one(self) -> None:
        while not self._stop.is_set():
            started = time.perf_counter()
            while time.perf_counter() < started + self.hold:
                pass
            self.held += time.perf_counter() - started
            await asyncio.sleep(self.pause)


async def _measure(
    way: str, run: Run, folder: Path, *, writers: int, transactions: int, busy: Busy
) -> Result:
    path = folder / f"{way}-{writers}-{busy.tasks}.db"
    await _setup(path, writers)
    loop = asyncio.get_running_loop()
    assert isinstance(loop, CountingLoop)
    busy.start()
    hops_before = loop.hops
    try:
        seconds, latencies = await run(path, writers, transactions)
    finally:
        await busy.stop()
    # Opening and closing the database hand back a few results too: 0.01 a transaction.
    return Result(way, seconds, latencies, loop.hops - hops_before, busy.held / seconds)


async def _main(args: argparse.Namespace) -> None:
    hold, pause = args.busy_ms / 1000, args.busy_pause_ms / 1000
    busy = f"{args.busy_tasks} tasks holding it {args.busy_ms} ms, then {args.busy_pause_ms} ms off"
    settings = [
        ("idle event loop, one writer", 1, 0),
        (f"busy event loop ({busy}), one writer", 1, args.busy_tasks),
        (f"busy event loop ({busy}), 8 writers", 8, args.busy_tasks),
    ]
    with tempfile.TemporaryDirectory(prefix="tabula-hops-") as folder:
        for title, writers, tasks in settings:
            print(f"{title}: {args.transactions} move transactions")
            for way, run in (("tabula", _tabula), ("aiosqlite", _aiosqlite)):
                result = await _measure(
                    way,
                    run,
                    Path(folder),
                    writers=writers,
                    transactions=args.transactions,
                    busy=Busy(tasks, hold, pause),
                )
                print(result.line())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--transactions", type=int, default=2000)
    parser.add_argument("--busy-tasks", type=int, default=4)
    parser.add_argument("--busy-ms", type=float, default=0.5)
    parser.add_argument("--busy-pause-ms", type=float, default=2.0)
    args = parser.parse_args()
    tune_interpreter()
    with asyncio.Runner(loop_factory=CountingLoop) as runner:
        runner.run(_main(args))


if __name__ == "__main__":
    main()
