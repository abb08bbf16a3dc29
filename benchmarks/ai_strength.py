"""How strong and how fast the AI levels are. Run on demand (not a test):

    python -m benchmarks.ai_strength                 # 2,000 games per match-up, all games
    python -m benchmarks.ai_strength --games 200 --only ur
    python -m benchmarks.ai_strength --only ludo --ludo-level expert --versus medium
    python -m benchmarks.ai_strength --only ludo --ludo-level expert --ludo-work 3000 --games 600
    python -m benchmarks.ai_strength --only ludo --ludo-level expert --ludo-budget rounds=6

For each game, ``hard`` (Ludo: the level ``--ludo-level`` names) plays ``easy`` and ``medium``
(or those ``--versus`` names) over seeded games, changing seats every game (Ludo: one tested
seat against three of the other level, so 25 % is parity). Prints win rates with Wilson 95 %
intervals, backgammon points per game, and the time per decision of the tested level (p50,
p95). Games run in worker processes, one per core. Ludo also times the review
of whole games (``--ludo-reviews N``, every seat judged: CPU seconds per game). With
``--ur-table PATH`` (a table from ``tabula ur-table build``) Ur's ``perfect`` also plays
``hard``, seats changing every game.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from benchmarks.playout import play
from bot.ai import ludo as ludo_ai
from bot.ai import ur_table
from bot.ai.levels import Level
from bot.ai.ludo_review import analyse
from bot.engines import ludo
from bot.engines.common import Phase, Roll

GAMES = ("ur", "ludo", "backgammon")
SEATS = {"ur": 2, "ludo": 4, "backgammon": 2}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def one_game(args: tuple[str, str, int, str]) -> tuple[float, int, list[float]]:
    """(the tested level's win: 1 / 0 / tie share, its points, its decision times)."""
    game, other, seed, tested = args
    seats = SEATS[game]
    hard_seat = seed % seats
    levels = [other] * seats
    levels[hard_seat] = tested
    # The AIs are told every seat's level, as the bot tells them (unless --ludo-blind: then
    # every seat looks like a person to them).
    played = play(game, levels, seed, seats=[None] * seats if BLIND else None)
    outcome = played.outcome
    top = outcome.ranking[0]
    win = (1.0 / len(top)) if hard_seat in top else 0.0
    points = outcome.points if outcome.winner == hard_seat else -outcome.points
    return win, points, played.decisions[hard_seat]


def perfect_game(args: tuple[str, int]) -> tuple[float, list[float]]:
    """Ur, ``perfect`` (from the solved table at the path given) against ``hard``, changing
    seats every game: (perfect's win, its decision times)."""
    table_path, seed = args
    if ur_table.installed() is None:  # once per worker process
        ur_table.install(table_path)
    seat = seed % 2
    levels = ["hard", "hard"]
    levels[seat] = "perfect"
    played = play("ur", levels, seed)
    return (1.0 if played.outcome.winner == seat else 0.0), played.decisions[seat]


def perfect_match_up(table_path: str, n: int, workers: int) -> dict[str, Any]:
    started = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        args = [(table_path, seed) for seed in range(n)]
        rows = list(pool.map(perfect_game, args, chunksize=8))
    wins = sum(r[0] for r in rows)
    times = sorted(t for r in rows for t in r[1])
    low, high = wilson(wins, n)
    return {
        "win_rate": wins / n,
        "interval": (low, high),
        "p50_ms": 1000 * times[len(times) // 2] if times else 0.0,
        "p95_ms": 1000 * times[int(len(times) * 0.95)] if times else 0.0,
        "seconds": time.perf_counter() - started,
    }


def ludo_review_seconds(seed: int) -> float:
    """Seconds (CPU) to judge every move of one seeded Ludo game, all four seats."""
    levels: list[Level] = ["medium", "easy", "hard", "medium"]
    dice, brains = random.Random(seed), random.Random(seed * 7919 + 1)
    state = ludo.new_game()
    notations: list[str] = []
    while state.phase != Phase.FINISHED:
        if state.phase == Phase.ROLL:
            action: ludo.Move | Roll = ludo.roll(state, dice)
        else:
            action = ludo_ai.choose_action(state, levels[state.turn], brains)
        notations.append(ludo.notation(state, action))
        state = ludo.apply(state, action)
    started = time.process_time()
    analyse(notations)
    return time.process_time() - started


BLIND = False  # Ludo's AI is not told the seats' levels (--ludo-blind)


def set_expert_work(
    work: int | None, blind: bool = False, budget: dict[str, Any] | None = None
) -> None:
    """Give Ludo's expert search ``work`` simulated rolls a decision (default: the bot's) and
    the other :class:`bot.ai.ludo_search.Budget` fields in ``budget``; ``blind``: do not tell
    it the seats' levels."""
    global BLIND
    BLIND = blind
    fields = dict(budget or {}) if work is None else {**(budget or {}), "work": work}
    if fields:
        ludo_ai.EXPERT_BUDGET = dataclasses.replace(ludo_ai.EXPERT_BUDGET, **fields)


def budget_fields(text: str | None) -> dict[str, Any]:
    """``"rounds=6,candidates=8"`` as Budget fields, each converted to its default's type."""
    fields: dict[str, Any] = {}
    for item in (text or "").split(","):
        if item.strip():
            name, _, raw = (part.strip() for part in item.partition("="))
            default = getattr(ludo_ai.EXPERT_BUDGET, name)
            if isinstance(default, bool):
                fields[name] = raw in ("1", "true", "True")
            else:
                fields[name] = type(default)(raw)
    return fields


def match_up(
    game: str,
    other: str,
    n: int,
    workers: int,
    tested: str = "hard",
    work: int | None = None,
    blind: bool = False,
    budget: dict[str, Any] | None = None,
) -> dict[str, Any]:
    started = time.perf_counter()
    with ProcessPoolExecutor(
        workers, initializer=set_expert_work, initargs=(work, blind, budget)
    ) as pool:
        args = [(game, other, seed, tested) for seed in range(n)]
        rows = list(pool.map(one_game, args, chunksize=8))
    wins = sum(r[0] for r in rows)
    times = sorted(t for r in rows for t in r[2])
    points = [r[1] for r in rows]
    low, high = wilson(wins, n)
    mean_points = statistics.fmean(points)
    spread = 1.96 * statistics.stdev(points) / math.sqrt(n) if n > 1 else 0.0
    return {
        "game": game,
        "level": tested,
        "versus": other,
        "games": n,
        "win_rate": wins / n,
        "interval": (low, high),
        "points_per_game": (mean_points, spread),
        "p50_ms": 1000 * times[len(times) // 2] if times else 0.0,
        "p95_ms": 1000 * times[int(len(times) * 0.95)] if times else 0.0,
        "seconds": time.perf_counter() - started,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--only", choices=GAMES, action="append")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--ludo-level", default="hard", choices=("hard", "expert"), help="Ludo's tested level"
    )
    parser.add_argument(
        "--versus", choices=("easy", "medium"), action="append", help="default: both"
    )
    parser.add_argument(
        "--ludo-work", type=int, help="simulated rolls per Ludo expert decision (bot's default)"
    )
    parser.add_argument(
        "--ludo-budget",
        help="other fields of the Ludo expert's search budget, e.g. rounds=6,candidates=8",
    )
    parser.add_argument(
        "--ludo-blind",
        action="store_true",
        help="do not tell Ludo's AI the seats' levels (the expert then models all as medium)",
    )
    parser.add_argument("--ludo-reviews", type=int, default=40, help="Ludo games to review")
    parser.add_argument(
        "--ur-table", help="a solved Ur table (tabula ur-table build): also Ur perfect vs hard"
    )
    args = parser.parse_args()
    print(
        f"{'game':<11} {'level':<6} {'vs':<7} {'games':>5} {'win rate':>9} {'95% interval':>16} "
        f"{'pts/game':>14} {'p50 ms':>7} {'p95 ms':>7} {'wall s':>7}"
    )
    for game in args.only or GAMES:
        tested = args.ludo_level if game == "ludo" else "hard"
        for other in args.versus or ("easy", "medium"):
            r = match_up(
                game,
                other,
                args.games,
                args.workers,
                tested,
                args.ludo_work,
                args.ludo_blind,
                budget_fields(args.ludo_budget),
            )
            low, high = r["interval"]
            mean, spread = r["points_per_game"]
            print(
                f"{game:<11} {tested:<6} {other:<7} {r['games']:>5} {r['win_rate']:>9.3f} "
                f"{f'[{low:.3f}, {high:.3f}]':>16} {f'{mean:+.2f}±{spread:.2f}':>14} "
                f"{r['p50_ms']:>7.2f} {r['p95_ms']:>7.2f} {r['seconds']:>7.0f}",
                flush=True,
            )
    if "ludo" in (args.only or GAMES) and args.ludo_reviews:
        with ProcessPoolExecutor(args.workers) as pool:
            seconds = sorted(pool.map(ludo_review_seconds, range(args.ludo_reviews)))
        print(
            f"ludo review of a whole game ({args.ludo_reviews} games, every seat judged): "
            f"p50 {seconds[len(seconds) // 2]:.2f} s, max {seconds[-1]:.2f} s CPU",
            flush=True,
        )
    if args.ur_table:
        r = perfect_match_up(args.ur_table, args.games, args.workers)
        low, high = r["interval"]
        print(
            f"{'ur':<11} {'perfect vs hard':<15} {args.games:>5} {r['win_rate']:>9.3f} "
            f"{f'[{low:.3f}, {high:.3f}]':>16} {'':>14} {r['p50_ms']:>7.2f} "
            f"{r['p95_ms']:>7.2f} {r['seconds']:>7.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
