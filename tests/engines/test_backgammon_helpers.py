"""Shared helpers for the backgammon tests: readable boards, a naive reference move generator.

The reference is deliberately simple and independent of the engine's generator: it tries
every die order and every checker for every die, with the rules written out plainly, and
then applies "use as many dice as possible; with one die, the larger if possible".
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

from hypothesis import strategies as st

from bot.engines.backgammon import Position
from bot.engines.backgammon_position import PointCounts

Side = PointCounts


def board(mine: Side, theirs: Side | None = None) -> Position:
    """A position from the mover's eyes: BOTH sides' points in the mover's numbering.

    ``board({13: 1}, {7: 2})``: my checker on my 13-point, two of theirs on my 7-point
    (which blocks it). ``"bar"`` is each side's own bar; missing checkers are borne off.
    """
    flipped: dict[int | str, int] = {}
    for key, count in (theirs or {}).items():
        flipped["bar" if key == "bar" else 25 - int(key)] = count
    return Position.from_points(mine, flipped)


def naive_after(position: Position, text: str) -> Position:
    """Move checkers as ``text`` says (``24/18 13/8*``, ``24/18/13``, ``8/5(2)``); no checks."""
    mine = list(position.mine)
    theirs = list(position.theirs)
    words: list[str] = []
    for word in text.split():
        if word.endswith(")"):  # "8/5(2)" moves two checkers 8/5
            word, count = word[:-3], int(word[-2])
            words.extend([word] * count)
        else:
            words.append(word)
    for word in words:
        points = [
            25 if p == "bar" else 0 if p == "off" else int(p)
            for p in word.replace("*", "").split("/")
        ]
        for frm, to in itertools.pairwise(points):
            mine[frm - 1] -= 1
            if to:
                mine[to - 1] += 1
                if theirs[24 - to] == 1:
                    theirs[24 - to] = 0
                    theirs[24] += 1
    return Position(tuple(mine), tuple(theirs))


# ---------------------------------------------------------------------------------------------
# Reference generator


def _ref_step(mine: list[int], theirs: list[int], source: int, die: int) -> bool:
    """Apply one step in place if legal; False (and no change) if not."""
    if mine[source - 1] == 0:
        return False
    if mine[24] and source != 25:
        return False  # the bar first
    target = source - die
    if target >= 1:
        if theirs[24 - target] >= 2:
            return False
        mine[source - 1] -= 1
        mine[target - 1] += 1
        if theirs[24 - target] == 1:
            theirs[24 - target] = 0
            theirs[24] += 1
        return True
    if sum(mine[6:25]) > 0:
        return False  # bearing off needs every checker home
    if target < 0 and sum(mine[source:24]) > 0:
        return False  # a larger die bears off only from the highest point
    mine[source - 1] -= 1
    return True


def _ref_sequences(
    mine: list[int], theirs: list[int], dice: list[int], used: tuple[int, ...]
) -> Iterator[tuple[tuple[int, ...], Position]]:
    yield used, Position(tuple(mine), tuple(theirs))
    for die in set(dice):
        rest = list(dice)
        rest.remove(die)
        for source in range(1, 26):
            m, t = list(mine), list(theirs)
            if _ref_step(m, t, source, die):
                yield from _ref_sequences(m, t, rest, (*used, die))


def reference_results(position: Position, dice: tuple[int, int]) -> set[Position]:
    """The set of legal resulting positions, by brute force."""
    pool = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    found = list(_ref_sequences(list(position.mine), list(position.theirs), pool, ()))
    most = max(len(used) for used, _ in found)
    if most == 0:
        return set()
    best = [(used, result) for used, result in found if len(used) == most]
    if most == 1 and dice[0] != dice[1]:
        larger = [(used, result) for used, result in best if used[0] == max(dice)]
        best = larger or best
    return {result for _, result in best}


def ref_step_once(position: Position, step: tuple[int, int], dice: list[int]) -> Position | None:
    """Apply one ``(from, to)`` step with whichever of ``dice`` makes it legal, or None."""
    frm, to = step
    for die in sorted(set(dice)):
        if to and frm - die != to:
            continue
        if not to and frm - die > 0:
            continue
        m, t = list(position.mine), list(position.theirs)
        if _ref_step(m, t, frm, die):
            dice.remove(die)
            return Position(tuple(m), tuple(t))
    return None


# ---------------------------------------------------------------------------------------------
# Random positions


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any legal-looking position: up to 15 checkers a side, never both on one point."""
    mine = [0] * 25
    for slot in draw(st.lists(st.integers(0, 25), min_size=15, max_size=15)):
        if slot < 25:  # 25 stands for "borne off"
            mine[slot] += 1
    theirs = [0] * 25
    free = [i for i in range(24) if mine[23 - i] == 0] + [24]
    slots = draw(st.lists(st.sampled_from([*free, -1]), min_size=15, max_size=15))
    for slot in slots:
        if slot >= 0:
            theirs[slot] += 1
    return Position(tuple(mine), tuple(theirs)).checked()


@st.composite
def late_positions(draw: st.DrawFn) -> Position:
    """Positions with most checkers in or near the home board, so bearing off comes up."""
    mine = [0] * 25
    for slot in draw(st.lists(st.integers(0, 8), min_size=1, max_size=15)):
        mine[slot] += 1
    theirs = [0] * 25
    free = [i for i in range(24) if mine[23 - i] == 0] + [24]
    for slot in draw(st.lists(st.sampled_from(free), max_size=15)):
        theirs[slot] += 1
    return Position(tuple(mine), tuple(theirs)).checked()


dice_rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))


def playout_positions(seed: int, count: int) -> list[tuple[Position, tuple[int, int]]]:
    """``count`` (position, roll) pairs met in seeded random games (uses the engine to play)."""
    from bot.engines.backgammon import legal_plays

    rng = random.Random(seed)
    out: list[tuple[Position, tuple[int, int]]] = []
    while len(out) < count:
        position = Position.initial()
        while len(out) < count:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            out.append((position, dice))
            plays = legal_plays(position, dice)
            if plays:
                position = rng.choice(plays).result
                if not any(position.mine):
                    break
            position = position.swapped()
    return out
