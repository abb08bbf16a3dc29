"""How long ``/analyze`` takes at the expert level. Run on demand (not a test):

    python -m benchmarks.analyze                 # 200 positions: 150 with dice, 50 cube
    python -m benchmarks.analyze --positions 60

The positions are the built-in backgammon puzzles (checker plays from self-play, with their
dice) and the same boards before the roll (cube decisions), pasted as XGIDs. Each is timed as
the bot answers it: the ID read, the expert's verdict from a bgsage worker process (one
worker, as ``EXPERT_WORKERS=1``; already started, as in a running bot) and the verdict put in
words. Prints p50, p95 and the maximum, with dice and without. The board image (drawn in the
bot's render thread, about 10 ms) is not included.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from dataclasses import replace

from bot.ai.pool import ExpertPool
from bot.engines import backgammon as bg
from bot.engines.backgammon import Phase
from bot.engines.backgammon_setup import ids_of
from bot.games import backgammon_positions as positions
from bot.games.puzzles import load_set


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(count: int) -> None:
    states = [bg.load_state(p.state) for p in load_set(bg.GAME)]
    moves = [ids_of(s).xgid for s in states[: count * 3 // 4]]
    cubes = [
        ids_of(replace(s, phase=Phase.ROLL, dice=(), cube_enabled=True)).xgid
        for s in states[: count - len(moves)]
    ]
    pool = ExpertPool(workers=1)
    pool.start()
    try:
        await pool.position(positions.read(moves[0]))  # the worker's first request loads it
        for name, texts in (("with dice", moves), ("cube", cubes)):
            times = []
            for text in texts:
                started = time.perf_counter()
                state = positions.read(text)
                positions.words(state, await pool.position(state), "en")
                times.append(time.perf_counter() - started)
            print(
                f"{name:9}: {len(times)} positions, p50 {1000 * statistics.median(times):.0f} ms, "
                f"p95 {1000 * quantile(times, 0.95):.0f} ms, max {1000 * max(times):.0f} ms"
            )
    finally:
        await pool.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    args = parser.parse_args()
    asyncio.run(measure(args.positions))


if __name__ == "__main__":
    main()
