"""Rules engine speed. Run on demand (not a test):

    python -m benchmarks.engines

Per game: legal-move generation per second over a fixed set of positions met in seeded
random games (the roll is part of each sample), and the median time of a whole random game
(random legal actions, including every roll). Ur is also compared with the pure-Python
``royalur`` package on the same positions (``pip install royalur`` first; it is never a
dependency of the bot).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from bot import games
from bot.engines import backgammon, ludo, ur
from bot.engines.common import Phase

GAMES = ("ur", "ludo", "backgammon")


def random_game(game: str, seed: int) -> list[Any]:
    """Play a random game; returns every MOVE-phase state met on the way."""
    rules = games.get(game).rules
    rng = random.Random(seed)
    state = rules.new_game({"cube": False} if game == "backgammon" else {})
    seen = []
    while state.phase != Phase.FINISHED:
        if state.phase == Phase.MOVE:
            seen.append(state)
            action = rng.choice(rules.legal_actions(state))
        else:
            action = rules.roll(state, rng)
        state = rules.apply(state, action)
    return seen


def samples(game: str, count: int) -> list[Any]:
    states: list[Any] = []
    seed = 0
    while len(states) < count * 4:
        states.extend(random_game(game, seed))
        seed += 1
    return random.Random(1).sample(states, count)


def generators(game: str) -> Callable[[Any], int]:
    """A function generating the legal moves of one sample, returning how many."""
    if game == "ur":
        return lambda s: len(ur.legal_moves(s.position, sum(s.dice)))
    if game == "ludo":
        return lambda s: sum(len(ludo.legal_moves(s.position, d)) for d in set(s.dice))
    return lambda s: len(backgammon.legal_plays(s.position, tuple(s.dice)))


def per_second(game: str, states: list[Any], repeats: int = 3) -> tuple[float, float]:
    generate = generators(game)
    best = float("inf")
    moves = 0
    for _ in range(repeats):
        started = time.perf_counter()
        moves = sum(generate(s) for s in states)
        best = min(best, time.perf_counter() - started)
    return len(states) / best, moves / best


def whole_game_ms(game: str, runs: int = 30) -> float:
    times = []
    for seed in range(1000, 1000 + runs):
        started = time.perf_counter()
        random_game(game, seed)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    print(f"{'game':<11} {'positions/s':>12} {'moves/s':>12} {'random game ms':>15}")
    for game in GAMES:
        states = samples(game, 2000)
        positions, moves = per_second(game, states)
        print(f"{game:<11} {positions:>12,.0f} {moves:>12,.0f} {whole_game_ms(game):>15.1f}")
    try:
        from benchmarks.ur_royalur import compare

        result = compare()
        print("ur vs royalur:", {k: v for k, v in result.items() if not isinstance(v, list)})
    except ImportError as error:
        print(f"ur vs royalur: skipped ({error})")


if __name__ == "__main__":
    main()
