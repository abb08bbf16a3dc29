"""Solving the Royal Game of Ur (Finkel rules) by value iteration: the table behind ``perfect``.

Needs the optional ``solver`` extra (``pip install .[solver]``: numpy and numba); the bot
itself only reads the result with :mod:`bot.ai.ur_table`. ``tabula ur-table build`` runs
:func:`build`.

What is computed
    For every position with the side to move, ``V`` = the chance that the side to move wins
    when both sides play to maximise their own chance. With ``P(r)`` the chance of rolling r
    (1, 4, 6, 4, 1 in 16)::

        V(x) = P(0) * (1 - V(swap x)) + sum over r = 1..4 of P(r) * best(x, r)
        best(x, r) = 1 - V(swap x)            if no move is legal with r (the turn passes)
                   = max over legal moves m of
                       1                      if m bears off the last piece
                       V(x after m)           if m ends on a rosette (the same side rolls again)
                       1 - V(swap(x after m)) otherwise

    ``swap`` hands the turn over. Captures make the positions depend on each other in
    cycles, so the equations are solved by iterating them until no value moves by more than
    ``tolerance`` (Gauss-Seidel value iteration).

How it is made fast (7 pieces: 137,913,936 positions)
    - Pieces on squares 13, 14 and off can never be captured and never move back, so the
      positions fall into groups by what each side has there, and a move only ever leads to
      the same group pair or to one with more pieces there. Group pairs are solved one at a
      time, from the end of the game backwards; each is a few million positions whose values
      fit in the processor's cache.
    - A position and the same position with the other side to move (``swap``) are solved
      together: a roll of 0 links them both ways, and the two linear equations are solved
      exactly instead of iterated.
    - Within a group pair, positions are visited from the most advanced (sum of the squares
      of all pieces) to the least. Every move except a capture leads to a more advanced
      position, which a sweep has already updated; only captures wait for the next sweep.
    - The moves of a group pair are generated once into compact arrays of successor slots;
      the sweeps then only read values. Values from groups already solved are copied in as
      constants.

Memory for 7 pieces: the values as float64 (1.1 GB), a map from index to local slot
(0.55 GB) and the arrays of the largest group pair (a few hundred MB).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from bot.ai import ur_table
from bot.engines.ur import PIECES, ROLL_PROBABILITIES

__all__ = ["BuildResult", "Progress", "build", "solve"]

TOLERANCE: Final = 1e-13
MAX_SWEEPS: Final = 100_000
_WAIT_STRIDE: Final = 8  # waiting counts 0..7 in the flattened rank table
_WIN: Final = 1.0
_CHANCES: Final = np.array(ROLL_PROBABILITIES, dtype=np.float64)

F = TypeVar("F", bound=Callable[..., Any])
Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
Tables = tuple[Ints, Ints, Ints, Ints, Ints]  # digits, pop, rank, count, offset


def _jit(function: F) -> F:
    # numba's decorator is untyped; the compiled function keeps the Python signature.
    return cast(F, numba.njit(cache=True, nogil=True)(function))


Progress = Callable[[int, int, float], None]  # (positions solved, positions in all, seconds)


@dataclass(frozen=True, slots=True)
class BuildResult:
    path: Path
    pieces: int
    positions: int
    start_chance: float
    seconds: float
    sweeps: int  # position-sweeps / positions: how often an average position was updated
    size_bytes: int


# ---------------------------------------------------------------------------------------------
# The index, as numpy arrays for the compiled code (the same numbers as ur_table.layout)


@dataclass(frozen=True, slots=True)
class _Arrays:
    pieces: int
    digits: Ints  # [lane mask] -> base-3 number
    pop: Ints  # [byte] -> bits set
    rank: Ints  # [(room * 64 + mask) * 8 + waiting] -> rank
    count: Ints  # [room]
    offset: Ints  # [lane]
    positions: int

    @property
    def tables(self) -> Tables:
        return (self.digits, self.pop, self.rank, self.count, self.offset)


def _arrays(pieces: int) -> _Arrays:
    layout = ur_table.layout(pieces)
    rank = np.full((PIECES + 1) * 64 * _WAIT_STRIDE, -1, dtype=np.int64)
    for room, table in enumerate(layout.rank):
        for mask, row in enumerate(table):
            for waiting, value in enumerate(row):
                rank[(room * 64 + mask) * _WAIT_STRIDE + waiting] = value
    count = np.zeros(PIECES + 1, dtype=np.int64)
    count[: pieces + 1] = layout.count
    return _Arrays(
        pieces=pieces,
        digits=np.array(layout.lane_digits, dtype=np.int64),
        pop=np.array([bin(b).count("1") for b in range(256)], dtype=np.int64),
        rank=rank,
        count=count,
        offset=np.array(layout.offset, dtype=np.int64),
        positions=layout.positions,
    )


@_jit
def _index(
    mine: int,
    theirs: int,
    my_wait: int,
    their_wait: int,
    n: int,
    t: Tables,
) -> int:
    digits, pop, rank, count, offset = t
    my_lane = (mine >> 5) & 255
    their_lane = (theirs >> 5) & 255
    my_room = n - pop[my_lane]
    their_room = n - pop[their_lane]
    my_mask = ((mine >> 1) & 15) | ((mine >> 9) & 48)
    their_mask = ((theirs >> 1) & 15) | ((theirs >> 9) & 48)
    return int(
        offset[digits[my_lane] + 2 * digits[their_lane]]
        + rank[(my_room * 64 + my_mask) * 8 + my_wait] * count[their_room]
        + rank[(their_room * 64 + their_mask) * 8 + their_wait]
    )


# ---------------------------------------------------------------------------------------------
# Groups: what each side has on 13, 14 and off, packed as b13 | b14 << 1 | off << 2


def _safe_sum(config: int) -> int:
    return 13 * (config & 1) + 14 * (config >> 1 & 1) + 15 * (config >> 2)


def _configs(pieces: int, *, finished: bool = False) -> list[int]:
    offs = range(pieces + 1) if finished else range(pieces)
    return [
        b13 | b14 << 1 | off << 2
        for off in offs
        for b13 in (0, 1)
        for b14 in (0, 1)
        if off + b13 + b14 <= pieces
    ]


def _group_pairs(pieces: int) -> list[tuple[int, int]]:
    """Unordered pairs of unfinished group configs, most advanced first (a valid order: a
    move that leaves a group pair adds to the sum)."""
    configs = _configs(pieces)
    pairs = {(max(a, b), min(a, b)) for a in configs for b in configs}
    return sorted(pairs, key=lambda p: (-(_safe_sum(p[0]) + _safe_sum(p[1])), p))


@_jit
def _unpack(key: int) -> tuple[int, int, int, int]:
    """(mine, theirs, my_wait, their_wait) of a key packed by :func:`_group_keys`."""
    return key & 0x7FFF, (key >> 15) & 0x7FFF, (key >> 30) & 7, (key >> 33) & 7


@_jit
def _group_keys(
    config_a: int,
    config_b: int,
    canonical: bool,
    n: int,
    t: Tables,
) -> tuple[Ints, Ints]:
    """The positions with the mover in group ``config_a`` and the opponent in ``config_b``,
    packed ``mine | theirs << 15 | my_wait << 30 | their_wait << 33``, with their progress.
    ``canonical``: of a position and its swap (both in this group), keep the lower index."""
    pop = t[1]
    a13 = config_a & 1
    a14 = (config_a >> 1) & 1
    a_off = config_a >> 2
    b13 = config_b & 1
    b14 = (config_b >> 1) & 1
    b_off = config_b >> 2
    size = 0
    for lane in range(6561):
        my_lane = 0
        their_lane = 0
        x = lane
        for i in range(8):
            digit = x % 3
            x //= 3
            if digit == 1:
                my_lane |= 1 << i
            elif digit == 2:
                their_lane |= 1 << i
        my_room = n - a_off - a13 - a14 - pop[my_lane]
        their_room = n - b_off - b13 - b14 - pop[their_lane]
        if my_room >= 0 and their_room >= 0:
            mine_fits = 0
            for q in range(16):
                if pop[q] <= my_room:
                    mine_fits += 1
            theirs_fits = 0
            for q in range(16):
                if pop[q] <= their_room:
                    theirs_fits += 1
            size += mine_fits * theirs_fits
    keys = np.empty(size, dtype=np.int64)
    progress = np.empty(size, dtype=np.int64)
    used = 0
    for lane in range(6561):
        my_lane = 0
        their_lane = 0
        x = lane
        lane_progress = 0
        for i in range(8):
            digit = x % 3
            x //= 3
            if digit == 1:
                my_lane |= 1 << i
                lane_progress += 5 + i
            elif digit == 2:
                their_lane |= 1 << i
                lane_progress += 5 + i
        my_room = n - a_off - a13 - a14 - pop[my_lane]
        their_room = n - b_off - b13 - b14 - pop[their_lane]
        if my_room < 0 or their_room < 0:
            continue
        for qa in range(16):
            my_wait = my_room - pop[qa]
            if my_wait < 0:
                continue
            mine = (qa << 1) | (my_lane << 5) | (a13 << 13) | (a14 << 14)
            qa_progress = (qa & 1) + 2 * ((qa >> 1) & 1) + 3 * ((qa >> 2) & 1) + 4 * (qa >> 3)
            for qb in range(16):
                their_wait = their_room - pop[qb]
                if their_wait < 0:
                    continue
                theirs = (qb << 1) | (their_lane << 5) | (b13 << 13) | (b14 << 14)
                if canonical:
                    ix = _index(mine, theirs, my_wait, their_wait, n, t)
                    iy = _index(theirs, mine, their_wait, my_wait, n, t)
                    if iy < ix:
                        continue
                qb_progress = (qb & 1) + 2 * ((qb >> 1) & 1) + 3 * ((qb >> 2) & 1) + 4 * (qb >> 3)
                keys[used] = mine | (theirs << 15) | (my_wait << 30) | (their_wait << 33)
                progress[used] = lane_progress + qa_progress + qb_progress
                used += 1
    return keys[:used], progress[:used]


@_jit
def _claim(
    keys: Ints,
    slots: Ints,
    local: npt.NDArray[np.int32],
    n: int,
    t: Tables,
) -> npt.NDArray[np.bool_]:
    """Give pair k the local slots 2k (the position) and 2k + 1 (its swap): fill ``slots``
    (local -> index) and ``local`` (index -> local). Returns which pairs are their own swap."""
    alone = np.zeros(keys.shape[0], dtype=np.bool_)
    for k in range(keys.shape[0]):
        mine, theirs, my_wait, their_wait = _unpack(keys[k])
        ix = _index(mine, theirs, my_wait, their_wait, n, t)
        iy = _index(theirs, mine, their_wait, my_wait, n, t)
        slots[2 * k] = ix
        slots[2 * k + 1] = iy
        local[ix] = 2 * k
        if iy == ix:
            alone[k] = True
        else:
            local[iy] = 2 * k + 1
    return alone


@_jit
def _successors(
    mine: int,
    theirs: int,
    my_wait: int,
    their_wait: int,
    fill: bool,
    values: Floats,
    local: npt.NDArray[np.int32],
    n: int,
    t: Tables,
    counts: npt.NDArray[np.uint8],
    state: int,
    entries: npt.NDArray[np.int32],
    at: int,
    constants: Floats,
    n_const: int,
    n_local: int,
) -> tuple[int, int]:
    """Count (``fill`` False) or write the successor entries of one position.

    An entry ``e >= 0`` reads slot ``e`` of the local values, ``e < 0`` reads ``1 - slot
    ~e``; slots from ``n_local`` on are constants (values of solved groups, wins).
    Returns the new write position and number of constants.
    """
    sources = mine | 1 if my_wait > 0 else mine
    blocked = mine | (theirs & 256)
    for roll in range(1, 5):
        reach = sources << roll
        targets = (reach & ~blocked & 0x7FFE) | (reach & 0x8000)
        moves = 0
        while targets:
            low = targets & -targets
            targets ^= low
            target = 0
            bit = low
            while bit > 1:
                bit >>= 1
                target += 1
            moves += 1
            if not fill:
                at += 1
                n_const += 1  # an upper bound while counting
                continue
            source = target - roll
            after = mine
            after_wait = my_wait
            if source > 0:
                after ^= 1 << source
            else:
                after_wait -= 1
            if target == 15:
                if after == 0 and after_wait == 0:
                    constants[n_const] = _WIN
                    entries[at] = n_local + n_const
                    n_const += 1
                    at += 1
                    continue
                slot = _index(theirs, after, their_wait, after_wait, n, t)
                flip = True
            else:
                after |= low
                opp = theirs
                opp_wait = their_wait
                if theirs & low & 0x1FE0:  # a capture in the shared lane
                    opp ^= low
                    opp_wait += 1
                if low & 0x4110:  # a rosette: the same side rolls again
                    slot = _index(after, opp, after_wait, opp_wait, n, t)
                    flip = False
                else:
                    slot = _index(opp, after, opp_wait, after_wait, n, t)
                    flip = True
            mapped = local[slot]
            if mapped >= 0:
                entries[at] = ~mapped if flip else mapped
            else:
                constants[n_const] = 1.0 - values[slot] if flip else values[slot]
                entries[at] = n_local + n_const
                n_const += 1
            at += 1
        if fill:
            counts[4 * state + roll - 1] = moves
    return at, n_const


@_jit
def _each_position(
    keys: Ints,
    alone: npt.NDArray[np.bool_],
    local: npt.NDArray[np.int32],
    values: Floats,
    n: int,
    t: Tables,
    fill: bool,
    counts: npt.NDArray[np.uint8],
    entries: npt.NDArray[np.int32],
    constants: Floats,
    n_local: int,
) -> tuple[int, int]:
    """:func:`_successors` of every position of the group, each side to move (local row
    ``2k`` and ``2k + 1``, the second only where it is another position): counted, or
    written. Returns the entries and constants counted or written."""
    at = 0
    n_const = 0
    for k in range(keys.shape[0]):
        mine, theirs, my_wait, their_wait = _unpack(keys[k])
        for side in range(1 if alone[k] else 2):
            at, n_const = _successors(
                theirs if side else mine,
                mine if side else theirs,
                their_wait if side else my_wait,
                my_wait if side else their_wait,
                fill,
                values,
                local,
                n,
                t,
                counts,
                2 * k + side,
                entries,
                at,
                constants,
                n_const,
                n_local,
            )
    return at, n_const


@_jit
def _build_moves(
    keys: Ints,
    alone: npt.NDArray[np.bool_],
    values: Floats,
    local: npt.NDArray[np.int32],
    n: int,
    t: Tables,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int32], Floats]:
    """Counts per (position, roll), the successor entries, and the local values with the
    constants appended (locals start at 0.5)."""
    n_local = 2 * keys.shape[0]
    # First count the entries (nothing is written), then fill arrays of that size.
    total, _ = _each_position(
        keys,
        alone,
        local,
        values,
        n,
        t,
        False,
        np.zeros(1, dtype=np.uint8),
        np.zeros(1, dtype=np.int32),
        np.zeros(1, dtype=np.float64),
        n_local,
    )
    counts = np.zeros(4 * n_local, dtype=np.uint8)
    entries = np.empty(total, dtype=np.int32)
    constants = np.empty(total, dtype=np.float64)
    _, n_const = _each_position(
        keys, alone, local, values, n, t, True, counts, entries, constants, n_local
    )
    merged = np.empty(n_local + n_const, dtype=np.float64)
    merged[:n_local] = 0.5
    merged[n_local:] = constants[:n_const]
    return counts, entries, merged


@_jit
def _expectation(
    state: int,
    counts: npt.NDArray[np.uint8],
    entries: npt.NDArray[np.int32],
    at: int,
    local: Floats,
    chances: Floats,
) -> tuple[float, float, int]:
    """(sum over rolls with a move of P(r) * best value, chance of passing, next entry)."""
    moved = 0.0
    passing = chances[0]
    for roll in range(1, 5):
        moves = counts[4 * state + roll - 1]
        if moves == 0:
            passing += chances[roll]
            continue
        best = 0.0
        for _ in range(moves):
            e = entries[at]
            at += 1
            value = local[e] if e >= 0 else 1.0 - local[~e]
            if value > best:
                best = value
        moved += chances[roll] * best
    return moved, passing, at


@_jit
def _sweep(
    alone: npt.NDArray[np.bool_],
    counts: npt.NDArray[np.uint8],
    entries: npt.NDArray[np.int32],
    local: Floats,
    chances: Floats,
) -> float:
    """One Gauss-Seidel sweep over a group pair; returns the largest change."""
    at = 0
    largest = 0.0
    for k in range(alone.shape[0]):
        x = 2 * k
        moved_x, pass_x, at = _expectation(x, counts, entries, at, local, chances)
        if alone[k]:
            # V = c + q (1 - V): the position is its own swap.
            value_x = (moved_x + pass_x) / (1.0 + pass_x)
            value_y = value_x
        else:
            moved_y, pass_y, at = _expectation(x + 1, counts, entries, at, local, chances)
            # V(x) = c_x + q_x (1 - V(y)) and V(y) = c_y + q_y (1 - V(x)), solved exactly.
            value_x = (moved_x + pass_x * (1.0 - moved_y - pass_y)) / (1.0 - pass_x * pass_y)
            value_y = moved_y + pass_y * (1.0 - value_x)
        change = max(abs(value_x - local[x]), abs(value_y - local[x + 1]))
        if change > largest:
            largest = change
        local[x] = value_x
        local[x + 1] = value_y
    return largest


@_jit
def _store(
    slots: Ints,
    alone: npt.NDArray[np.bool_],
    local_values: Floats,
    values: Floats,
    local: npt.NDArray[np.int32],
) -> None:
    for k in range(alone.shape[0]):
        for j in (2 * k, 2 * k + 1):
            if j == 2 * k + 1 and alone[k]:
                continue
            values[slots[j]] = local_values[j]
            local[slots[j]] = -1


@_jit
def _set_finished(keys: Ints, chance: float, values: Floats, n: int, t: Tables) -> None:
    for k in range(keys.shape[0]):
        mine, theirs, my_wait, their_wait = _unpack(keys[k])
        slot = _index(mine, theirs, my_wait, their_wait, n, t)
        values[slot] = chance


# ---------------------------------------------------------------------------------------------
# Driver


def solve(
    pieces: int = PIECES,
    *,
    tolerance: float = TOLERANCE,
    threads: int = 1,
    progress: Progress | None = None,
) -> tuple[Floats, float]:
    """The winning chance of every position (float64, in :mod:`bot.ai.ur_table` index order)
    and the average number of sweeps a position took.

    ``threads`` > 1 solves group pairs of one level side by side: a move never leads from
    one group pair to another of the same level, so they share nothing but solved values.
    """
    a = _arrays(pieces)
    tables = a.tables
    values = np.full(a.positions, 0.5, dtype=np.float64)
    local = np.full(a.positions, -1, dtype=np.int32)
    finished = pieces << 2
    for config in _configs(pieces, finished=True):
        for won, lost in ((finished, config), (config, finished)):
            keys, _ = _group_keys(won, lost, False, pieces, tables)
            _set_finished(keys, 1.0 if won == finished else 0.0, values, pieces, tables)
    # A position where both sides are finished cannot occur; its slot keeps the 0.0 above.
    started = time.perf_counter()
    finished_count = int(np.count_nonzero(values != 0.5))
    done = [finished_count, 0]  # positions solved, position-sweeps
    lock = threading.Lock()

    def solve_pair(pair: tuple[int, int]) -> None:
        size, sweeps = _solve_pair(pair, pieces, tables, values, local, tolerance)
        with lock:
            done[0] += size
            done[1] += size * sweeps
            if progress is not None:
                progress(done[0], a.positions, time.perf_counter() - started)

    levels: dict[int, list[tuple[int, int]]] = {}
    for pair in _group_pairs(pieces):
        levels.setdefault(_safe_sum(pair[0]) + _safe_sum(pair[1]), []).append(pair)
    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        for level in sorted(levels, reverse=True):
            # Largest first, so the last one to finish is a small one.
            for future in [pool.submit(solve_pair, pair) for pair in levels[level]]:
                future.result()
    return values, done[1] / max(1, done[0] - finished_count)


def _solve_pair(
    pair: tuple[int, int],
    pieces: int,
    tables: Tables,
    values: Floats,
    local: npt.NDArray[np.int32],
    tolerance: float,
) -> tuple[int, int]:
    """Solve one group pair in place; returns (positions, sweeps)."""
    config_a, config_b = pair
    keys, progress_of = _group_keys(config_a, config_b, config_a == config_b, pieces, tables)
    if not len(keys):
        return 0, 0
    keys = keys[np.argsort(-progress_of, kind="stable")]
    slots = np.empty(2 * len(keys), dtype=np.int64)
    alone = _claim(keys, slots, local, pieces, tables)
    counts, entries, local_values = _build_moves(keys, alone, values, local, pieces, tables)
    sweeps = 0
    while _sweep(alone, counts, entries, local_values, _CHANCES) >= tolerance:
        sweeps += 1
        if sweeps > MAX_SWEEPS:  # pragma: no cover - value iteration converges
            raise RuntimeError(f"group pair {config_a},{config_b} did not converge")
    _store(slots, alone, local_values, values, local)
    return 2 * len(keys) - int(alone.sum()), sweeps + 1


def _chunks(values: Floats, size: int = 1 << 22) -> Iterator[bytes]:
    for first in range(0, len(values), size):
        part = np.rint(np.clip(values[first : first + size], 0.0, 1.0) * ur_table.SCALE)
        yield part.astype("<u2").tobytes()


def start_chance(values: Floats, pieces: int) -> float:
    """The first player's chance from the empty start (all pieces waiting, light to move)."""
    a = _arrays(pieces)
    return float(values[_index(0, 0, pieces, pieces, pieces, a.tables)])


def build(
    out: str | Path,
    pieces: int = PIECES,
    *,
    tolerance: float = TOLERANCE,
    threads: int = 1,
    progress: Progress | None = None,
) -> BuildResult:
    """Solve the game with ``pieces`` a side and write the table to ``out``."""
    started = time.perf_counter()
    values, sweeps = solve(pieces, tolerance=tolerance, threads=threads, progress=progress)
    first = start_chance(values, pieces)
    path = ur_table.write(out, pieces, _chunks(values), first)
    return BuildResult(
        path=path,
        pieces=pieces,
        positions=len(values),
        start_chance=first,
        seconds=time.perf_counter() - started,
        sweeps=round(sweeps),
        size_bytes=path.stat().st_size,
    )
