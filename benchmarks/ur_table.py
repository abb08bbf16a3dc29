"""The solved Ur table: build time and memory, file size, look-up time. Run on demand:

    python -m benchmarks.ur_table                      # builds the 7-piece table (~25 min)
    python -m benchmarks.ur_table --pieces 5           # a quick run on a smaller game
    python -m benchmarks.ur_table --reuse PATH         # only the look-ups of a built table

The build runs ``tabula ur-table build`` in a child process, so its peak memory is the child's
alone (``getrusage(RUSAGE_CHILDREN)``). Look-ups go through the bot's reader
(:func:`bot.ai.ur_table.open`, a lazily opened memory map) on random positions the table
covers, each timed on its own: p50 and p99, the first look-ups (cold pages) apart. The
process's anonymous memory before and after shows that the table is not copied into it.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bot.ai import ur_table
from bot.engines.ur import Position

SAMPLES = 200_000
COLD = 1_000  # the first look-ups: pages not yet mapped in


def random_positions(pieces: int, count: int, seed: int = 1) -> list[Position]:
    """Legal positions with each side at most ``pieces`` pieces left to play."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        masks, waits = [], []
        for _ in range(2):
            left = rng.randint(1, pieces)
            squares = rng.sample(range(1, 15), rng.randint(0, left))
            masks.append(sum(1 << s for s in squares))
            waits.append(left - len(squares))
        if not masks[0] & masks[1] & 0x1FE0:
            side = rng.choice(("light", "dark"))
            found.append(Position(masks[0], masks[1], waits[0], waits[1], side))
    return found


def memory_kb(field: str) -> int:
    """A line of /proc/self/status in kB (RssAnon: the process's own memory)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def build(pieces: int, out: Path, threads: int) -> tuple[float, float]:
    """(seconds, peak MB) of ``tabula ur-table build`` in a child process."""
    command = [sys.executable, "-m", "bot", "ur-table", "build", "--pieces", str(pieces)]
    command += ["--out", str(out), "--threads", str(threads)]
    started = time.perf_counter()
    subprocess.run(command, check=True)
    seconds = time.perf_counter() - started
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, peak_kb / 1024


def look_ups(path: Path) -> None:
    anon_before = memory_kb("RssAnon")
    table = ur_table.open(path)
    positions = random_positions(table.pieces, SAMPLES)
    times = []
    clock = time.perf_counter_ns
    win_chance = table.win_chance
    for position in positions:
        started = clock()
        win_chance(position)
        times.append(clock() - started)
    cold, warm = times[:COLD], sorted(times[COLD:])
    anon_after = memory_kb("RssAnon")
    print(f"table         {path} ({path.stat().st_size / 1e6:.1f} MB, {table.pieces} pieces)")
    print(f"first player  {table.start_chance:.10g} from the start (stored in the header)")
    print(
        f"look-up       p50 {warm[len(warm) // 2] / 1000:.1f} µs, "
        f"p99 {warm[int(len(warm) * 0.99)] / 1000:.1f} µs over {len(warm):,} warm look-ups; "
        f"first {COLD:,} (cold pages) mean {statistics.fmean(cold) / 1000:.1f} µs"
    )
    print(
        f"memory        the reader's own memory grew {(anon_after - anon_before) / 1024:.1f} MB "
        f"(positions list included); the table's pages are the file's, shared and evictable"
    )


def review_time(path: Path, games: int = 20) -> None:
    """Seconds to review whole games (hard against hard, seeded) from the table."""
    from bot.ai import ur as ur_ai
    from bot.ai.ur_review import analyse
    from bot.engines import ur
    from bot.engines.common import Phase

    table = ur_table.open(path)
    seconds, moves = [], []
    for seed in range(games):
        rng = random.Random(seed)
        state = ur.new_game()
        notations = []
        while state.phase is not Phase.FINISHED:
            action: ur.UrAction = (
                ur.roll(state, rng)
                if state.phase is Phase.ROLL
                else ur_ai.choose_action(state, "hard", rng)
            )
            notations.append(ur.notation(state, action))
            state = ur.apply(state, action)
        started = time.perf_counter()
        analysis = analyse(notations, table)
        seconds.append(time.perf_counter() - started)
        moves.append(sum(1 for text in notations if not text.startswith("roll")))
        assert analysis.complete or not table.complete
    print(
        f"review        {statistics.fmean(moves):.0f} moves a game on average: "
        f"{1000 * statistics.median(seconds):.1f} ms median, {1000 * max(seconds):.1f} ms "
        f"slowest of {games} games (the first reads its table pages from disk)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pieces", type=int, default=7)
    parser.add_argument("--out", type=Path, default=Path("ur-table.bin"))
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--reuse", type=Path, help="measure the look-ups of this table only")
    args = parser.parse_args()
    path = args.reuse
    if path is None:
        seconds, peak_mb = build(args.pieces, args.out, args.threads)
        print(
            f"build         {seconds / 60:.1f} min, peak memory {peak_mb:,.0f} MB "
            f"({args.pieces} pieces, {args.threads} thread(s))"
        )
        path = args.out
    look_ups(path)
    review_time(path)


if __name__ == "__main__":
    main()
