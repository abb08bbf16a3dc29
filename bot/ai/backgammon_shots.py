"""Exact shot counting: which of the 36 rolls let one side hit the other side's blots.

Rolls are bits of a 36-bit mask, one per ordered roll ``(a, b)`` at bit ``(a - 1) * 6 + b - 1``,
so a mixed roll owns two bits and a double one: ``mask.bit_count()`` is a count out of 36.

Coordinates are the attacker's: points 1-24 counted from the attacker's home, 25 = its bar.
A checker on ``s`` hits a blot on ``t < s`` at distance ``d = s - t`` with one die showing
``d``, with both dice of a mixed roll adding up to ``d`` when at least one of the two landing
points on the way is open, or with 2-4 steps of a double when every landing point on the way
is open. A point is closed when the defender holds it with two or more checkers.

Checkers on the attacker's bar restrict this (standard rules: the bar is emptied first):
with one on the bar, the entering checker hits with any combination from the bar, and any
other checker only with the die that was not needed to enter (or, on doubles, with the steps
left after entering); with two or more on the bar only the entering checkers can hit, straight
from the bar onto their entry point or, on doubles, moving on with the steps left.
"""

from __future__ import annotations

from typing import Final

Board = tuple[int, ...]


def roll_bit(first: int, second: int) -> int:
    return 1 << ((first - 1) * 6 + second - 1)


def _roll_mask(first: int, second: int) -> int:
    return roll_bit(first, second) | roll_bit(second, first)


def _direct(distance: int) -> int:
    mask = 0
    for first in range(1, 7):
        for second in range(1, 7):
            if distance in (first, second):
                mask |= roll_bit(first, second)
    return mask


# Paths of at least two steps, per distance: (rolls, alternatives); each alternative is the
# tuple of intermediate landing offsets (from the source) that must all be open. For a mixed
# roll either order will do, so there are two one-point alternatives.
Path = tuple[int, tuple[tuple[int, ...], ...]]


def _combined(distance: int, max_double_steps: int) -> tuple[Path, ...]:
    out: list[Path] = []
    for first in range(1, 7):
        for second in range(first + 1, 7):
            if first + second == distance:
                out.append((_roll_mask(first, second), ((first,), (second,))))
    for die in range(1, 7):
        for steps in range(2, max_double_steps + 1):
            if die * steps == distance:
                out.append((roll_bit(die, die), (tuple(die * k for k in range(1, steps)),)))
    return tuple(out)


DIRECT: Final = tuple(_direct(d) if 1 <= d <= 6 else 0 for d in range(26))
COMBINED: Final = tuple(_combined(d, 4) for d in range(26))
ALL_ROLLS: Final = (1 << 36) - 1
DOUBLES: Final = tuple(roll_bit(d, d) for d in range(7)[1:])


def _needs(distance: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(rolls, alternative bit masks of landing points to find open) for one distance.

    Bits are counted from the target: bit ``k`` is the point ``k`` pips before the blot.
    """
    return tuple(
        (rolls, tuple(sum(1 << (distance - offset) for offset in needed) for needed in alts))
        for rolls, alts in COMBINED[distance]
    )


NEEDS: Final = tuple(_needs(distance) for distance in range(26))


def closed_points(defender: Board) -> int:
    """Bit p set for each attacker point p (1-24) the defender holds with two or more."""
    closed = 0
    for index in range(24):
        if defender[index] >= 2:
            closed |= 1 << (24 - index)
    return closed


def _reach(sources: int, closed: int) -> int:
    """Rolls that hit a blot from ``sources`` (bit d: a checker d pips behind it), ``closed``
    holding the blocked points on the way (same bits)."""
    mask = 0
    while sources:
        low = sources & -sources
        sources ^= low
        distance = low.bit_length() - 1
        if distance <= 6:
            mask |= DIRECT[distance]
        for rolls, alternatives in NEEDS[distance]:
            if not mask & rolls:
                for needed in alternatives:
                    if not closed & needed:
                        mask |= rolls
                        break
    return mask


# Seen from the blot, the same few patterns of checkers behind it and points blocked in
# between come back over and over within a search: memoise them (bounded).
_REACH: dict[tuple[int, int], int] = {}
_REACH_MAX: Final = 200_000


def blot_targets(defender: Board) -> tuple[int, ...]:
    """The defender's blots as attacker points (lowest first)."""
    return tuple(24 - i for i in range(23, -1, -1) if defender[i] == 1)


def hit_masks(attacker: Board, defender: Board) -> list[tuple[int, int]]:
    """``(defender point, rolls that hit it)`` for every defender blot the attacker can hit.

    Points are in the defender's own numbering (1-24); blots the attacker cannot reach with
    any roll are left out.
    """
    return hit_masks_from(
        attacker[24], source_bits(attacker), blot_targets(defender), closed_points(defender)
    )


def source_bits(attacker: Board) -> int:
    """Bit p set for each point p (1-24) where the attacker has a checker."""
    bits = 0
    for index in range(24):
        if attacker[index]:
            bits |= 2 << index
    return bits


def hit_masks_from(
    on_bar: int,
    sources: int,
    blots: tuple[int, ...],
    closed: int,
) -> list[tuple[int, int]]:
    """:func:`hit_masks` from precomputed parts: the attacker's bar count and
    :func:`source_bits`, the defender's :func:`blot_targets` and :func:`closed_points`."""
    out: list[tuple[int, int]] = []
    if not blots:
        return out
    if not on_bar:
        for target in blots:
            behind = sources >> target
            if not behind:
                break  # blots come lowest first: nothing behind this one, nor the rest
            between = (closed >> target) & ((1 << behind.bit_length()) - 1)
            key = (behind, between)
            mask = _REACH.get(key)
            if mask is None:
                if len(_REACH) >= _REACH_MAX:
                    _REACH.clear()
                mask = _REACH[key] = _reach(behind, between)
            if mask:
                out.append((25 - target, mask))
        return out
    for target in blots:
        bar_key = (on_bar, sources, target, closed)
        mask = _FROM_BAR.get(bar_key)
        if mask is None:
            if len(_FROM_BAR) >= _REACH_MAX:
                _FROM_BAR.clear()
            mask = _FROM_BAR[bar_key] = _reach_from_bar(on_bar, sources, target, closed)
        if mask:
            out.append((25 - target, mask))
    return out


_FROM_BAR: dict[tuple[int, int, int, int], int] = {}


def _reach_from_bar(on_bar: int, sources: int, target: int, closed: int) -> int:
    """Rolls that hit the blot on ``target`` while the attacker has checkers on the bar."""
    # Entering: a die x enters on point 25 - x unless it is closed.
    enter = [False] + [not closed >> (25 - x) & 1 for x in range(1, 7)]
    mask = 0
    distance = 25 - target
    if distance <= 6 and enter[distance]:
        mask |= DIRECT[distance]
    for rolls, alternatives in COMBINED[distance]:
        # From the bar the first landing is the entry point, already among the offsets.
        is_double = rolls in DOUBLES
        for needed in alternatives:
            if is_double and on_bar > 1 and len(needed) + 1 > 4 - (on_bar - 1):
                continue  # the other bar checkers eat the steps this path needs
            if not is_double and on_bar > 1:
                continue  # both dice go to entering
            if all(not closed >> (25 - offset) & 1 for offset in needed):
                mask |= rolls
                break
    # Other checkers: with one on the bar, the die not needed to enter; on doubles, the
    # steps left once every bar checker has entered.
    free_steps = 4 - on_bar
    for source in range(target + 1, 25):
        if not sources >> source & 1:
            continue
        distance = source - target
        if distance <= 6 and on_bar == 1:
            for other in range(1, 7):
                if enter[other] and other != distance:
                    mask |= _roll_mask(other, distance)
        for die in range(1, 7):
            if not enter[die]:
                continue
            for steps in range(1, free_steps + 1):
                if die * steps == distance and all(
                    not closed >> (source - die * k) & 1 for k in range(1, steps)
                ):
                    mask |= DOUBLES[die - 1]
    return mask


def shot_count(attacker: Board, defender: Board) -> int:
    """How many of the 36 rolls let the attacker hit at least one defender blot."""
    mask = 0
    for _, rolls in hit_masks(attacker, defender):
        mask |= rolls
    return mask.bit_count()
