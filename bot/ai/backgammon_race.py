"""Race (no contact) estimates: Keith count, Kleinman's winning chances, gammon chances.

Once the two sides have passed each other the game is a pure race, and the standard formulas
estimate it well:

* the Keith count adjusts a pip count for bear-off wastage: +2 for each checker beyond the
  first on the 1-point, +1 for each beyond the first on the 2-point, +1 for each beyond the
  third on the 3-point, +1 for each empty 4-, 5- or 6-point;
* Kleinman's formula gives the chances of the side on roll from the two counts: with
  ``D = their - mine`` and ``S = their + mine``, ``P(win) = Phi((D + 4) / sqrt(2 (S - 4)))``
  (the +4 is half a roll: being on roll);
* the doubling cube in a race follows Keith's rule (see :mod:`bot.ai.backgammon_cube`).

Short races where both sides are nearly done are special: counts mislead when only a few
rolls are left, so :func:`rolls_distribution` computes the exact distribution of the number
of rolls a side with at most :data:`EXACT_CHECKERS` checkers, all home, needs to bear off
(a one-sided bear-off table, built lazily position by position and memoised).
"""

from __future__ import annotations

import functools
import math
from typing import Final

from bot.engines.backgammon_position import CHECKERS

Board = tuple[int, ...]

EXACT_CHECKERS: Final = 6
AVERAGE_ROLL: Final = 49 / 6  # pips of an average roll, doubles counted four times
_SQRT2: Final = math.sqrt(2.0)


def pips(side: Board) -> int:
    return sum(count * (index + 1) for index, count in enumerate(side) if count)


def keith_count(side: Board) -> int:
    """Pip count plus the Keith wastage adjustments for ``side`` (its own numbering)."""
    count = pips(side)
    count += 2 * max(0, side[0] - 1) + max(0, side[1] - 1) + max(0, side[2] - 3)
    count += (side[3] == 0) + (side[4] == 0) + (side[5] == 0)
    return count


def phi(z: float) -> float:
    return 0.5 * math.erfc(-z / _SQRT2)


def kleinman(mine: int, theirs: int) -> float:
    """Chances of the side on roll with (effective) count ``mine`` against ``theirs``."""
    total = mine + theirs
    if total <= 8:
        total = 8  # tiny counts: keep the spread positive
    return phi((theirs - mine + 4) / math.sqrt(2.0 * (total - 4)))


# ---------------------------------------------------------------------------------------------
# Exact one-sided bear-off for small positions


_ROLLS: Final = tuple((a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7))
_MAX_ROLLS: Final = 16


def _home(side: Board) -> tuple[int, ...] | None:
    """The six home points of ``side`` when every checker left is home and few enough."""
    if any(side[6:]) or sum(side[:6]) > EXACT_CHECKERS:
        return None
    return tuple(side[:6])


def _single_moves(home: tuple[int, ...], die: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    highest = 5
    while highest >= 0 and not home[highest]:
        highest -= 1
    for index in range(highest, -1, -1):
        if not home[index]:
            continue
        after = list(home)
        after[index] -= 1
        target = index - die
        if target >= 0:
            after[target] += 1
        elif target != -1 and index != highest:
            continue  # bearing off with a larger die only from the highest point
        out.append(tuple(after))
    return out


def _results(home: tuple[int, ...], dice: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Positions reachable by playing ``dice`` in order (as many as possible)."""
    frontier = {home}
    for die in dice:
        nxt: set[tuple[int, ...]] = set()
        for here in frontier:
            if not any(here):
                nxt.add(here)
                continue
            nxt.update(_single_moves(here, die))
        frontier = nxt
    return frontier


@functools.cache
def _expected_and_dist(home: tuple[int, ...]) -> tuple[float, tuple[float, ...]]:
    if not any(home):
        return 0.0, (1.0,)
    dist = [0.0] * (_MAX_ROLLS + 1)
    expected = 0.0
    for a, b, weight in _ROLLS:
        if a == b:
            finals = _results(home, (a, a, a, a))
        else:
            finals = _results(home, (a, b)) | _results(home, (b, a))
        best = min(finals, key=lambda h: _expected_and_dist(h)[0])
        best_expected, best_dist = _expected_and_dist(best)
        expected += weight / 36.0 * (1.0 + best_expected)
        for rolls, chance in enumerate(best_dist):
            if rolls + 1 <= _MAX_ROLLS:
                dist[rolls + 1] += weight / 36.0 * chance
    while len(dist) > 1 and dist[-1] == 0.0:
        dist.pop()
    return expected, tuple(dist)


def rolls_distribution(side: Board) -> tuple[float, ...] | None:
    """``dist[n]`` = chance that ``side`` needs exactly n rolls to bear off, or ``None``.

    Exact (minimising the expected number of rolls) when every checker of ``side`` is home
    and there are at most :data:`EXACT_CHECKERS` of them.
    """
    home = _home(side)
    if home is None:
        return None
    return _expected_and_dist(home)[1]


def exact_race(mine: Board, theirs: Board) -> float | None:
    """Exact chances of the side on roll when both bear-offs are small enough, else ``None``."""
    mine_dist = rolls_distribution(mine)
    if mine_dist is None:
        return None
    their_dist = rolls_distribution(theirs)
    if their_dist is None:
        return None
    # I win when I need no more rolls than they do: I roll first.
    their_tail = [0.0] * (len(their_dist) + 1)
    for n in range(len(their_dist) - 1, -1, -1):
        their_tail[n] = their_tail[n + 1] + their_dist[n]
    win = 0.0
    for n, chance in enumerate(mine_dist):
        if chance:
            win += chance * (their_tail[n] if n < len(their_tail) else 0.0)
    return win


def race_win_chance(mine: Board, theirs: Board) -> float:
    """Chances of the side on roll in a race (no contact)."""
    exact = exact_race(mine, theirs)
    if exact is not None:
        return exact
    return kleinman(keith_count(mine), keith_count(theirs))


def expected_rolls(side: Board) -> float:
    """Expected rolls ``side`` needs to bear off: exact when small, else Keith count / 8.17."""
    home = _home(side)
    if home is not None:
        return _expected_and_dist(home)[0]
    return keith_count(side) / AVERAGE_ROLL


def race_gammon_chance(mine: Board, theirs: Board, checkers: int = CHECKERS) -> float:
    """Rough chance that the side on roll wins a race with a gammon.

    They save the gammon by bearing off one checker: they need every checker home plus the
    pips of their lowest checker, which they race against our whole bear-off. ``checkers``:
    each side's checkers in the match (a side with one off is safe).
    """
    if sum(theirs) < checkers:
        return 0.0
    outside = sum(count * (index - 5) for index, count in enumerate(theirs) if index > 5)
    lowest = next((index + 1 for index in range(6) if theirs[index]), 6)
    needed = outside + max(lowest, 1)
    # We gammon when we finish no later than they get that one checker off: a race of our
    # whole count against theirs to save, with a little wastage for checkers crossing over.
    return kleinman(keith_count(mine), needed + 2)
