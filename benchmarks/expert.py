"""How strong and how fast the ``expert`` level (bgsage) is. Run on demand (not a test):

    python -m benchmarks.expert                      # 1,000 games expert vs hard, then timings
    python -m benchmarks.expert --games 100 --skip-strength

1. Strength: ``expert`` against ``hard`` over seeded single games with the cube on (the bot's
   default: ``match_length`` 1, scored 1/2/3 times the cube), changing seats every game.
   Prints the expert's win rate (Wilson 95 % interval) and points per game (normal 95 %
   interval). Games run in two processes, each with its own in-process bgsage engine.
2. Speed through :class:`bot.ai.pool.ExpertPool` (what the bot uses): p50 / p95 of one
   expert decision (MOVE, ROLL and CUBE states sampled from recorded games).
3. Review: time to analyse a recorded game of about 50 turns through the pool.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bot.ai import backgammon as hard_ai
from bot.ai import bgsage_engine
from bot.engines import backgammon as bg
from bot.engines.backgammon import Phase

OPTIONS: dict[str, Any] = {"cube": True, "match_length": 1}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def play_game(seed: int, threads: int = 1) -> tuple[int, int, list[str], list[float]]:
    """(expert won, expert's points, the record, expert decision times)."""
    rng = random.Random(seed)
    expert_seat = seed % 2
    eng = bgsage_engine.engine(threads)
    state = bg.new_game(OPTIONS)
    record: list[str] = []
    times: list[float] = []
    while state.phase is not Phase.FINISHED:
        action: Any
        if state.phase is Phase.OPENING:
            action = bg.roll(state, rng)
        else:
            if state.turn == expert_seat:
                started = time.perf_counter()
                action = bgsage_engine.choose_action(state, bgsage_engine.PLAY_LEVEL, eng)
                times.append(time.perf_counter() - started)
            else:
                action = hard_ai.choose_action(state, "hard", rng)
            if action is None:
                action = bg.roll(state, rng)
        record.append(bg.notation(state, action))
        state = bg.apply(state, action)
    outcome = state.outcome
    assert outcome is not None
    won = int(outcome.winner == expert_seat)
    return won, outcome.points if won else -outcome.points, record, times


def strength(n: int, workers: int) -> list[list[str]]:
    started = time.perf_counter()
    rows: list[tuple[int, int, list[str], list[float]]] = []
    with ProcessPoolExecutor(workers) as pool:
        for row in pool.map(play_game, range(n), chunksize=4):
            rows.append(row)
            if len(rows) % 50 == 0:
                wins = sum(r[0] for r in rows)
                print(f"  {len(rows)} games: expert won {wins}", file=sys.stderr, flush=True)
    wins = sum(r[0] for r in rows)
    points = [r[1] for r in rows]
    low, high = wilson(wins, n)
    mean = statistics.fmean(points)
    spread = 1.96 * statistics.stdev(points) / math.sqrt(n) if n > 1 else 0.0
    times = sorted(t for r in rows for t in r[3])
    p50, p95 = times[len(times) // 2] * 1000, times[int(len(times) * 0.95)] * 1000
    gammons = sum(1 for p in points if abs(p) >= 2)
    print(
        f"expert vs hard, {n} single games, cube on: expert wins {wins / n:.1%} "
        f"[{low:.1%}, {high:.1%}], points per game {mean:+.3f} ± {spread:.3f} "
        f"(games worth 2+ points: {gammons}); in-process decision p50 "
        f"{p50:.0f} ms, p95 {p95:.0f} ms; "
        f"{time.perf_counter() - started:.0f} s"
    )
    return [r[2] for r in rows]


def sample_states(records: list[list[str]], count: int) -> list[bg.BackgammonState]:
    """Decision states (MOVE with a choice, ROLL with the cube available, CUBE)."""
    found: list[bg.BackgammonState] = []
    for record in records:
        state = bg.new_game(OPTIONS)
        for text in record:
            choice = state.phase is Phase.MOVE and len(bg.legal_plays_for(state)) > 1
            cube = state.phase is Phase.CUBE or (state.phase is Phase.ROLL and bg.can_double(state))
            if choice or cube:
                found.append(state)
            state = bg.apply(state, bg.parse(state, text))
        if len(found) >= count:
            break
    return found[:count]


async def pool_speed(records: list[list[str]], decisions: int) -> None:
    from bot.ai.pool import ExpertPool

    pool = ExpertPool(workers=2)
    pool.start()
    try:
        states = sample_states(records, decisions)
        await pool.choose_action(states[0], timeout=60)  # wait for the workers to load
        times = []
        for state in states:
            started = time.perf_counter()
            await pool.choose_action(state, timeout=30)
            times.append(time.perf_counter() - started)
        times.sort()
        p50, p95 = times[len(times) // 2] * 1000, times[int(len(times) * 0.95)] * 1000
        print(
            f"expert decision through the pool ({len(times)} states): p50 {p50:.0f} ms, "
            f"p95 {p95:.0f} ms, max {times[-1] * 1000:.0f} ms; {pool.stats}"
        )
        turns = [sum(1 for t in r if t.startswith("roll")) for r in records]
        pick = min(range(len(records)), key=lambda i: abs(turns[i] - 50))
        started = time.perf_counter()
        analysis = await pool.review(OPTIONS, records[pick])
        print(
            f"review of a {turns[pick]}-turn game ({len(records[pick])} actions, "
            f"{len(analysis.decisions)} decisions): {time.perf_counter() - started:.2f} s"
        )
    finally:
        pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--skip-strength", action="store_true")
    args = parser.parse_args()
    if not bgsage_engine.available():
        raise SystemExit("bgsage is not installed: nothing to measure")
    if args.skip_strength:
        records = [play_game(seed)[2] for seed in range(6)]
    else:
        records = strength(args.games, args.workers)
    asyncio.run(pool_speed(records, args.decisions))


if __name__ == "__main__":
    main()
