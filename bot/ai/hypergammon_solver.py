"""Solving Hypergammon by value iteration: the table behind its ``perfect`` level.

Needs the optional ``solver`` extra (numpy and numba); the bot reads the result with
:mod:`bot.ai.hypergammon_table` (the layout of a position and of the file is described
there). ``tabula hyper-table build`` runs :func:`build`.

What is computed, for every position ``x`` with the side to move about to roll, with
``P(r)`` = 1/36 for a double and 2/36 for the other 15 rolls::

    E(x)   = sum_r P(r) * max over legal plays p of  -E(swap(x after p))
    ND_s(x) = sum_r P(r) * max over p of  -V_s'(swap(x after p))   s' = C, X, O for s = C, O, X
    V_C = max(ND_C, min(2 ND_X, 1))   V_O = max(ND_O, min(2 ND_X, 1))   V_X = ND_X

where a play that bears off the mover's last checker is worth +1, +2 or +3 (single, gammon,
backgammon) instead, a roll with no legal play hands the turn over as it stands, ``E`` is
cubeless and ``ND_s`` the cubeful equity (money play, cube normalised to 1) of not doubling
with the cube in state ``s`` (C centred, O the mover's, X the opponent's). Doubling hands the
opponent a cube of 2 (``2 ND_X``) unless they drop (``1``), whichever is worse for the
doubler. Choices: gammons and backgammons count with a centred cube (no Jacoby rule), no
beavers, no limit on the cube.

Hits make positions depend on each other in cycles, so the equations are iterated
(Gauss-Seidel) until no value moves by more than ``tolerance``. Positions are visited by
their total pip count, lowest first: every play that hits nothing lowers it, so only hits
wait for the next sweep. Three checkers a side make 7,953,353 positions with a game to play
and 886 million plays over their 21 rolls: the plays are generated once and kept (as the
index of the position each leaves, 3.5 GB), so that a sweep only reads values; generating
them in every sweep made one sweep about 70 s instead of 6-10 s. :func:`residual` then
measures how far the table is from the equations (the largest difference, over every
position and every value, between a value and its right-hand side, the plays generated
afresh), which :func:`build` reports and writes into the file.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from bot.ai import hypergammon_table as table

__all__ = ["BuildResult", "build", "residual", "solve"]

TOLERANCE: Final = 1e-11  # the residual then stays far below the 1e-9 asked of the table
MAX_SWEEPS: Final = 10_000
_INVALID: Final = -1
_TERMINAL: Final = 0
_LIVE: Final = 1

F = TypeVar("F", bound=Callable[..., Any])
Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


def _jit(function: F) -> F:
    # numba's decorator is untyped; the compiled function keeps the Python signature.
    return cast(F, numba.njit(cache=True, nogil=True)(function))


def _sides(checkers: int) -> tuple[Ints, Ints]:
    """Each side's sorted checkers by code, and the code of each sorted tuple as a number in
    base 26 (the look-up the sweep uses)."""
    tuples = table.side_tuples(checkers)
    values = np.array(tuples, dtype=np.int64).reshape(len(tuples), checkers)
    code_of = np.full(26**checkers, -1, dtype=np.int64)
    for code, side in enumerate(tuples):
        key = 0
        for v in side:
            key = key * 26 + v
        code_of[key] = code
    return values, code_of


@_jit
def _kind(loser: Ints) -> float:
    """What the winner scores against ``loser``'s checkers (the loser's own numbering)."""
    worst = 1.0
    for v in loser:
        if v == 0:
            return 1.0
        if v >= 19:
            worst = 3.0
    return 3.0 if worst == 3.0 else 2.0


@_jit
def _status(values: Ints, sides: int) -> npt.NDArray[np.int8]:
    """Each index: invalid (both sides on one point), terminal (a side is all off) or live."""
    k = values.shape[1]
    out = np.empty(sides * sides, dtype=np.int8)
    for a in range(sides):
        for b in range(sides):
            state = _LIVE
            for i in range(k):
                for j in range(k):
                    p = values[a, i]
                    if 1 <= p <= 24 and values[b, j] == 25 - p:
                        state = _INVALID
            if state == _LIVE:
                mine_off = True
                theirs_off = True
                for i in range(k):
                    mine_off = mine_off and values[a, i] == 0
                    theirs_off = theirs_off and values[b, i] == 0
                if mine_off and theirs_off:
                    state = _INVALID
                elif mine_off or theirs_off:
                    state = _TERMINAL
            out[a * sides + b] = state
    return out


@_jit
def _key(row: Ints, start: int, k: int) -> int:
    """The base-26 key of the ``k`` (at most 3) checkers from ``row[start:]``, sorted (by
    hand: an array here would be allocated for every play of every sweep)."""
    a = int(row[start])
    if k == 1:
        return a
    b = int(row[start + 1])
    if a > b:
        a, b = b, a
    if k == 2:
        return a * 26 + b
    c = int(row[start + 2])
    if b > c:
        b, c = c, b
        if a > b:
            a, b = b, a
    return (a * 26 + b) * 26 + c


@_jit
def _step(src: Ints, n: int, die: int, dst: Ints, kept: int) -> int:
    """Every single checker move with ``die`` from the ``n`` states in ``src``, added to the
    ``kept`` states already in ``dst``; the count after. A state is the mover's checkers
    (its numbering), the opponent's (theirs), then each side's sorted key (:func:`_key`).
    A state reached twice (the same checkers moved in another order) is kept once: the
    table is read once per distinct result, and doubles would otherwise repeat most."""
    k = (src.shape[1] - 2) // 2
    out = kept
    for s in range(n):
        on_bar = False
        home = True
        highest = 0
        for i in range(k):
            v = src[s, i]
            on_bar = on_bar or v == 25
            home = home and v <= 6
            highest = max(highest, v)
        for i in range(k):
            v = src[s, i]
            if v == 0 or (on_bar and v != 25):
                continue
            seen = False
            for j in range(i):
                seen = seen or src[s, j] == v
            if seen:
                continue
            target = v - die
            hit = -1
            if target >= 1:
                theirs_point = 25 - target
                count = 0
                for j in range(k):
                    if src[s, k + j] == theirs_point:
                        count += 1
                        hit = j
                if count >= 2:
                    continue
            else:
                if not home or (target < 0 and v != highest):
                    continue
                target = 0
            for j in range(2 * k):
                dst[out, j] = src[s, j]
            dst[out, i] = target
            if hit >= 0:
                dst[out, k + hit] = 25
            mine = _key(dst[out], 0, k)
            theirs = _key(dst[out], k, k)
            repeated = False
            for j in range(out):
                if dst[j, 2 * k] == mine and dst[j, 2 * k + 1] == theirs:
                    repeated = True
                    break
            if not repeated:
                dst[out, 2 * k] = mine
                dst[out, 2 * k + 1] = theirs
                out += 1
    return out


@_jit
def _roll_candidates(start: Ints, d1: int, d2: int, bufs: Ints) -> tuple[int, int]:
    """The legal plays of the roll ``d1``-``d2`` (``d1 >= d2``) from ``start`` (a state as
    :func:`_step` keeps them): ``(level, n)``, the plays being the first ``n`` states of
    ``bufs[level]`` (level 0: none is legal, the position as it stands)."""
    level = 0
    n = 1
    if d1 == d2:
        count = 1
        for depth in range(1, 5):
            count = _step(bufs[depth - 1], count, d1, bufs[depth], 0)
            if count == 0:
                break
            level = depth
            n = count
    else:
        # bufs: 1 = d1 first, 3 = d2 first; 2 = both dice, from either
        n1 = _step(start, 1, d1, bufs[1], 0)
        n3 = _step(start, 1, d2, bufs[3], 0)
        n2 = _step(bufs[1], n1, d2, bufs[2], 0)
        n2 = _step(bufs[3], n3, d1, bufs[2], n2)
        if n2 > 0:
            level = 2
            n = n2
        elif n1 > 0:  # only one die plays: the larger if it can
            level = 1
            n = n1
        elif n3 > 0:
            level = 3
            n = n3
    return level, n


@_jit
def _load(index: int, values: Ints, sides: int, bufs: Ints) -> None:
    """The position ``index`` into ``bufs[0][0]``, as :func:`_step` keeps states."""
    k = values.shape[1]
    a = index // sides
    b = index % sides
    start = bufs[0]
    for i in range(k):
        start[0, i] = values[a, i]
        start[0, k + i] = values[b, i]
    start[0, 2 * k] = _key(start[0], 0, k)
    start[0, 2 * k + 1] = _key(start[0], k, k)


@_jit
def _successor(cands: Ints, c: int, k: int, code_of: Ints, sides: int) -> int:
    """Play ``c`` of ``cands`` as the index of the position it leaves (the opponent to
    move), or minus what it wins when it bears off the mover's last checker."""
    for i in range(k):
        if cands[c, i] != 0:
            return int(code_of[cands[c, 2 * k + 1]] * sides + code_of[cands[c, 2 * k]])
    return -int(_kind(cands[c, k : 2 * k]))


@_jit
def _merge(successor: int, table_: Floats, best: Floats) -> None:
    """``best`` (E, ND_C, ND_O, ND_X over the plays seen) with the play to ``successor``."""
    if successor < 0:
        for f in range(4):
            best[f] = max(best[f], -successor)
        return
    e = table_[successor, 0]
    nd_c = table_[successor, 1]
    nd_o = table_[successor, 2]
    nd_x = table_[successor, 3]
    double = min(2.0 * nd_x, 1.0)
    best[0] = max(best[0], -e)
    best[1] = max(best[1], -max(nd_c, double))  # centred stays centred
    best[2] = max(best[2], -nd_x)  # mine -> the opponent's: it cannot double
    best[3] = max(best[3], -max(nd_o, double))  # theirs -> it owns it


@_jit
def _backup(
    index: int,
    values: Ints,
    code_of: Ints,
    sides: int,
    table_: Floats,
    bufs: Ints,
    out: Floats,
    best: Floats,
) -> None:
    """The right-hand side of the equations at a live ``index`` into ``out`` (E, ND_C,
    ND_O, ND_X), from the values now in ``table_``, generating the plays afresh."""
    k = values.shape[1]
    _load(index, values, sides, bufs)
    for f in range(4):
        out[f] = 0.0
    for d1 in range(1, 7):
        for d2 in range(1, d1 + 1):
            weight = 1.0 / 36.0 if d1 == d2 else 2.0 / 36.0
            level, n = _roll_candidates(bufs[0], d1, d2, bufs)
            for f in range(4):
                best[f] = -1e300
            for c in range(n):
                _merge(_successor(bufs[level], c, k, code_of, sides), table_, best)
            for f in range(4):
                out[f] += weight * best[f]


@_jit
def _count_successors(order: Ints, values: Ints, code_of: Ints, sides: int, bufs: Ints) -> Ints:
    """How many plays each position of ``order`` has over its 21 rolls."""
    counts = np.zeros(len(order), dtype=np.int64)
    for i in range(len(order)):
        _load(order[i], values, sides, bufs)
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                counts[i] += _roll_candidates(bufs[0], d1, d2, bufs)[1]
    return counts


@_jit
def _fill_successors(
    order: Ints,
    values: Ints,
    code_of: Ints,
    sides: int,
    bufs: Ints,
    starts: Ints,
    per_roll: npt.NDArray[np.uint8],
    successors: npt.NDArray[np.int32],
) -> None:
    """Each position's plays, roll by roll: ``per_roll[21 i + r]`` of them, from
    ``successors[starts[i]]`` on (see :func:`_successor`)."""
    k = values.shape[1]
    for i in range(len(order)):
        _load(order[i], values, sides, bufs)
        at = starts[i]
        r = 0
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                level, n = _roll_candidates(bufs[0], d1, d2, bufs)
                per_roll[21 * i + r] = n
                for c in range(n):
                    successors[at] = _successor(bufs[level], c, k, code_of, sides)
                    at += 1
                r += 1


@_jit
def _sweep_stored(
    order: Ints,
    starts: Ints,
    per_roll: npt.NDArray[np.uint8],
    successors: npt.NDArray[np.int32],
    table_: Floats,
) -> float:
    """One Gauss-Seidel sweep reading the stored plays; the largest change."""
    best = np.empty(4, dtype=np.float64)
    out = np.empty(4, dtype=np.float64)
    change = 0.0
    for i in range(len(order)):
        at = starts[i]
        for f in range(4):
            out[f] = 0.0
        r = 0
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                weight = 1.0 / 36.0 if d1 == d2 else 2.0 / 36.0
                for f in range(4):
                    best[f] = -1e300
                for _ in range(per_roll[21 * i + r]):
                    _merge(int(successors[at]), table_, best)
                    at += 1
                for f in range(4):
                    out[f] += weight * best[f]
                r += 1
        index = order[i]
        for f in range(4):
            change = max(change, abs(out[f] - table_[index, f]))
            table_[index, f] = out[f]
    return change


def _buffers(checkers: int) -> Ints:
    return np.zeros((5, 2 * 4**4 * checkers, 2 * checkers + 2), dtype=np.int64)


@_jit
def _sweep(
    order: Ints, values: Ints, code_of: Ints, sides: int, table_: Floats, bufs: Ints
) -> float:
    """One Gauss-Seidel sweep over the live positions in ``order``; the largest change."""
    out = np.empty(4, dtype=np.float64)
    best = np.empty(4, dtype=np.float64)
    change = 0.0
    for index in order:
        _backup(index, values, code_of, sides, table_, bufs, out, best)
        for f in range(4):
            change = max(change, abs(out[f] - table_[index, f]))
            table_[index, f] = out[f]
    return change


@_jit
def _residual(
    order: Ints, values: Ints, code_of: Ints, sides: int, table_: Floats, bufs: Ints
) -> float:
    out = np.empty(4, dtype=np.float64)
    best = np.empty(4, dtype=np.float64)
    worst = 0.0
    for index in order:
        _backup(index, values, code_of, sides, table_, bufs, out, best)
        for f in range(4):
            worst = max(worst, abs(out[f] - table_[index, f]))
    return worst


@_jit
def _terminals(status: npt.NDArray[np.int8], values: Ints, sides: int, table_: Floats) -> None:
    """The finished games' values: the side to move has lost (its opponent is all off)."""
    for index in range(sides * sides):
        if status[index] == _TERMINAL:
            a = index // sides
            b = index % sides
            theirs_off = True
            for v in values[b]:
                theirs_off = theirs_off and v == 0
            kind = _kind(values[a]) if theirs_off else -_kind(values[b])
            for f in range(4):
                table_[index, f] = -kind


@dataclass(frozen=True, slots=True)
class Solved:
    """A solved game: the values by index, and what the iteration took."""

    checkers: int
    values: Floats  # (sides * sides, 4)
    live: int  # positions with a game to play
    terminal: int  # positions where a side has borne everything off
    sweeps: int
    residual: float
    seconds: float


@dataclass(frozen=True, slots=True)
class _Problem:
    checkers: int
    sides: int
    values: Ints
    code_of: Ints
    status: npt.NDArray[np.int8]
    order: Ints


def _problem(checkers: int) -> _Problem:
    values, code_of = _sides(checkers)
    sides = len(values)
    status = _status(values, sides)
    pips = values.sum(axis=1)
    live = np.flatnonzero(status == _LIVE)
    mine, theirs = live // sides, live % sides
    # By total pips (see the module docstring), then by the opponent's checkers: most plays
    # of positions with the same opponent lead to one row of the table (the opponent to
    # move, the same checkers), which then stays in the processor's cache.
    order = live[np.lexsort((mine, theirs, pips[mine] + pips[theirs]))].astype(np.int64)
    return _Problem(checkers, sides, values, code_of, status, order)


def residual(checkers: int, values: Floats) -> float:
    """The largest difference between a value of the table and the right-hand side of its
    equation (over every live position and all four values)."""
    p = _problem(checkers)
    return float(_residual(p.order, p.values, p.code_of, p.sides, values, _buffers(checkers)))


Progress = Callable[[int, float, float], None]  # (sweep, largest change, seconds)


def solve(
    checkers: int = table.CHECKERS,
    *,
    tolerance: float = TOLERANCE,
    progress: Progress | None = None,
) -> Solved:
    """Solve Hypergammon with ``checkers`` checkers a side (3: the game; fewer for tests)."""
    began = time.monotonic()
    p = _problem(checkers)
    values = np.zeros((p.sides * p.sides, 4), dtype=np.float64)
    _terminals(p.status, p.values, p.sides, values)
    bufs = _buffers(checkers)
    # The plays of every position, generated once (a few bytes a play: 4.6 GB for three
    # checkers): the sweeps then only read values, several times faster.
    counts = _count_successors(p.order, p.values, p.code_of, p.sides, bufs)
    starts = np.zeros(len(p.order) + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    per_roll = np.zeros(21 * len(p.order), dtype=np.uint8)
    successors = np.empty(int(starts[-1]), dtype=np.int32)
    _fill_successors(p.order, p.values, p.code_of, p.sides, bufs, starts, per_roll, successors)
    sweeps = 0
    while sweeps < MAX_SWEEPS:
        sweeps += 1
        change = _sweep_stored(p.order, starts, per_roll, successors, values)
        if progress is not None:
            progress(sweeps, change, time.monotonic() - began)
        if change <= tolerance:
            break
    del successors, per_roll, starts
    worst = float(_residual(p.order, p.values, p.code_of, p.sides, values, bufs))
    return Solved(
        checkers,
        values,
        live=len(p.order),
        terminal=int(np.count_nonzero(p.status == _TERMINAL)),
        sweeps=sweeps,
        residual=worst,
        seconds=time.monotonic() - began,
    )


@dataclass(frozen=True, slots=True)
class BuildResult:
    """What ``tabula hyper-table build`` reports."""

    solved: Solved
    path: Path
    size: int


def write(solved: Solved, path: Path) -> int:
    """Write ``solved`` to ``path`` (through a temporary file beside it); its size."""
    data = np.ascontiguousarray(solved.values, dtype="<f8").tobytes()
    sides = len(table.side_tuples(solved.checkers))
    head = table.HEADER.pack(
        table.MAGIC,
        solved.checkers,
        sides,
        sides * sides,
        solved.residual,
        solved.sweeps,
        hashlib.sha256(data).digest(),
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".part")
    with partial.open("wb") as file:
        file.write(head)
        file.write(data)
    partial.replace(path)
    return len(head) + len(data)


def build(
    path: Path, checkers: int = table.CHECKERS, progress: Progress | None = None
) -> BuildResult:
    """Solve and write the table to ``path``."""
    solved = solve(checkers, progress=progress)
    return BuildResult(solved, path, write(solved, path))
