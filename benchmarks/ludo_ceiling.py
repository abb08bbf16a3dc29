"""Where the Ludo AI's strength is bounded: what decides its games. Run on demand:

    python -m benchmarks.ludo_ceiling --versus easy --games 2000
    python -m benchmarks.ludo_ceiling --versus medium --games 2000 --players hard clairvoyant

Whole games in the fast simulator (:mod:`bot.ai.ludo_sim`, checked against the engine by the
tests): one seat (changing every game) against three ``medium`` (their rules of thumb) or three
``easy`` (a random legal move), all with the same seeded dice, the opponents told apart as the
bot tells the AI. The hero plays one of:

``hard``
    the ``hard`` level: the end of the turn that :func:`bot.ai.ludo_eval.chance` (the mover's
    caution and the seats' menaces included) rates best.
``invulnerable``
    ``hard``, but its tokens are never sent home (the opponents play as usual): how much of
    the game the captures the hero suffers decide.
``clairvoyant``
    ``hard``'s judgement one round later: for each end of its turn it sees the real dice (and
    an ``easy`` seat's real draws) of the rest of the round, plays them out, and judges the
    position at its next roll. No real player can do this; it measures how much of the result
    is the next round's dice.
``sampled``
    the honest twin of ``clairvoyant``: the same look one round ahead, averaged over
    ``--samples`` random rounds (the same for every end).

Prints the hero's win rate (95 % interval), the captures it makes and suffers per game.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Sequence

from bot.ai import ludo_sim as sim
from bot.ai.ludo_eval import chance, menaces
from bot.engines.ludo import all_home, fast_blocked, fast_targets, next_seat

EMPTY: frozenset[int] = frozenset()
PLAYERS = ("hard", "invulnerable", "clairvoyant", "sampled")
# (tokens, hero, dice, the game's dice rng) -> the end of the hero's turn, or None
Hero = Callable[[list[int], int, tuple[int, int], random.Random], tuple[int, ...] | None]


def ends_of(tok: Sequence[int], seat: int, dice: tuple[int, int]) -> list[tuple[int, ...]]:
    """Every position ``seat``'s turn can end in with ``dice`` (empty: nothing moves)."""
    blocked = fast_blocked(tok, seat, EMPTY)
    ends: dict[tuple[int, ...], None] = {}
    for die in dict.fromkeys(dice):
        for token, target in fast_targets(tok, seat, die, blocked):
            for end in sim.turn_ends(tok, seat, EMPTY, dice, (die, token, target), blocked):
                ends[end] = None
    return list(ends)


def opponent_turn(tok: list[int], seat: int, dice: random.Random, versus: str) -> tuple[bool, bool]:
    """An opponent's roll, drawn from ``dice`` as the game loop draws it: (won, rolls again)."""
    first, second = dice.randint(1, 6), dice.randint(1, 6)
    picks = (dice.random(), dice.random()) if versus == "easy" else None
    return sim.play_turn(tok, seat, first, second, EMPTY, picks), 6 in (first, second)


def round_ahead(
    end: Sequence[int],
    hero: int,
    following: int,
    dice: random.Random,
    versus: str,
    menace: tuple[float, ...],
) -> float:
    """The hero's chance by the model at its next roll, the rest of the round played with
    ``dice`` (consumed)."""
    if following == hero:
        return chance(end, hero, EMPTY, hero, hero, menace)
    tok = list(end)
    seat = following
    while seat != hero:
        won, again = opponent_turn(tok, seat, dice, versus)
        if won:
            return 0.0
        if not again:
            seat = next_seat(seat, EMPTY)
    return chance(tok, hero, EMPTY, hero, hero, menace)


def hero_player(name: str, versus: str, samples: int) -> Hero:
    def play(
        tok: list[int], hero: int, rolled: tuple[int, int], dice: random.Random
    ) -> tuple[int, ...] | None:
        ends = ends_of(tok, hero, rolled)
        if not ends:
            return None
        # As the bot tells the AI: the hero's own seat in full, an easy seat's threats at
        # RANDOM_HUNTER.
        menace = menaces([None if seat == hero else versus for seat in range(4)])
        following = hero if 6 in rolled else next_seat(hero, EMPTY)
        if name == "clairvoyant" and len(ends) > 1:
            state = dice.getstate()
            peek = random.Random()

            def seen(end: tuple[int, ...]) -> float:
                peek.setstate(state)
                return round_ahead(end, hero, following, peek, versus, menace)

            return max(ends, key=seen)
        if name == "sampled" and len(ends) > 1 and following != hero:
            seeds = [dice.random() for _ in range(samples)]  # shared by every end

            def mean(end: tuple[int, ...]) -> float:
                return sum(
                    round_ahead(end, hero, following, random.Random(seed), versus, menace)
                    for seed in seeds
                )

            return max(ends, key=mean)
        return max(ends, key=lambda end: chance(end, following, EMPTY, hero, hero, menace))

    return play


def game(name: str, versus: str, seed: int, samples: int) -> tuple[bool, int, int]:
    """(the hero won, captures it made, captures it suffered)."""
    dice = random.Random(seed)
    hero = seed % 4
    player = hero_player(name, versus, samples)
    own = random.Random(seed * 7919 + 1)  # sampled's draws must not shift the game's dice
    tok = [0] * 16
    seat = 0
    made = suffered = 0
    mine = range(hero * 4, hero * 4 + 4)
    while True:
        if seat == hero:
            first, second = dice.randint(1, 6), dice.randint(1, 6)
            end = player(tok, hero, (first, second), own if name == "sampled" else dice)
            again = 6 in (first, second)
            if end is not None:
                made += sum(1 for i in range(16) if i not in mine and tok[i] and not end[i])
                tok[:] = end
                if all_home(tok, hero):
                    return True, made, suffered
        else:
            before = [tok[i] for i in mine]
            won, again = opponent_turn(tok, seat, dice, versus)
            for k, i in enumerate(mine):
                if before[k] and not tok[i]:
                    suffered += 1
                    if name == "invulnerable":
                        tok[i] = before[k]
            if won:
                return False, made, suffered
        if not again:
            seat = next_seat(seat, EMPTY)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--versus", choices=("easy", "medium"), default="easy")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", nargs="+", choices=PLAYERS, default=list(PLAYERS))
    parser.add_argument("--samples", type=int, default=32, help="rounds averaged by sampled")
    args = parser.parse_args()
    for name in args.players:
        started = time.perf_counter()
        wins = made = suffered = 0
        for seed in range(args.games):
            won, m, s = game(name, args.versus, seed, args.samples)
            wins += won
            made += m
            suffered += s
        n = args.games
        p = wins / n
        half = 1.96 * math.sqrt(p * (1 - p) / n)
        print(
            f"{name:<12} vs 3 {args.versus:<6} {n:>5} games: win {p:.3f} ± {half:.3f}, "
            f"captures made {made / n:.1f}, suffered {suffered / n:.1f} per game "
            f"({time.perf_counter() - started:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
