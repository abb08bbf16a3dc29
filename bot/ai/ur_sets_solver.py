"""Solving any of Ur's rule sets (:class:`bot.engines.ur_sets.RuleSet`) by value iteration.

Needs the optional ``solver`` extra (numpy and numba); the bot reads the result with
:mod:`bot.ai.ur_sets_table`. ``tabula ur-table build --game <kind>`` runs :func:`build`.
Finkel's own solver (:mod:`bot.ai.ur_solver`) is separate: its table format and speed tricks
are made for its board.

What is computed
    For every position with the side to move, ``V`` = the chance that the side to move wins
    when both play to maximise their own chance. With ``P(r)`` the rule set's dice::

        V(x) = P(0) * (1 - V(swap x)) + sum over r >= 1 of P(r) * best(x, r)
        best(x, r) = 1 - V(swap x)            if no move is legal with r (the turn passes)
                   = max over legal moves m of
                       1                      if m bears off the last piece
                       V(x after m)           if m grants another roll (a rosette, or a
                                              capture, as the rule set says)
                       1 - V(swap(x after m)) otherwise

    Captures make positions depend on each other in cycles, so the equations are iterated
    (Gauss-Seidel) until no value moves by more than ``tolerance``.

How it is made fast (the ideas of Finkel's solver, for any path)
    - Pieces borne off never come back, so positions fall into groups by how many each side
      has borne off, and a move leads to the same group pair or to one with more borne off.
      Group pairs are solved one at a time, from the end of the game backwards; the values of
      solved groups are copied in as constants.
    - A position and its swap (the other side to move) are solved together: a roll of 0 links
      them both ways, and the two linear equations are solved exactly.
    - Within a group pair, positions are visited from the most advanced (sum of all pieces'
      squares) to the least: every move but a capture leads to a position a sweep has already
      updated, so only captures wait for the next sweep.
    - A group pair's moves are generated once into compact arrays of successor slots.

Collisions are by cell (:func:`bot.ai.ur_sets_table.geometry`): the mover's square ``s`` meets
the opponent's square ``opposite[s]``, whatever its number.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from bot.ai import ur_sets_table
from bot.engines.ur_sets import RuleSet

__all__ = ["BuildResult", "Progress", "build", "solve", "start_chance"]

TOLERANCE: Final = 1e-13
MAX_SWEEPS: Final = 100_000
_WAIT_BITS: Final = 4

F = TypeVar("F", bound=Callable[..., Any])
Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
Tables = tuple[Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints]
Progress = Callable[[int, int, float], None]  # (positions solved, positions in all, seconds)


def _jit(function: F) -> F:
    # numba's decorator is untyped; the compiled function keeps the Python signature.
    return cast(F, numba.njit(cache=True, nogil=True)(function))


@dataclass(frozen=True, slots=True)
class BuildResult:
    path: Path
    game: str
    pieces: int
    positions: int
    start_chance: float
    seconds: float
    sweeps: int  # position-sweeps / positions: how often an average position was updated
    size_bytes: int


# ---------------------------------------------------------------------------------------------
# The index and the rules as arrays for the compiled code (the numbers of ur_sets_table.layout)


def _tables(rules: RuleSet, pieces: int) -> tuple[Tables, int]:
    """The arrays :func:`_index` and the move generator read, and the number of positions.

    A side's board is a mask, bit ``s - 1`` for its square ``s`` (its own numbering)."""
    lay = ur_sets_table.layout(rules, pieces)
    shape = lay.geometry
    length = shape.length
    masks = np.arange(1 << length, dtype=np.int64)
    lane_mine = np.zeros(1 << length, dtype=np.int64)
    lane_theirs = np.zeros(1 << length, dtype=np.int64)
    shared_pop = np.zeros(1 << length, dtype=np.int64)
    private = np.zeros(1 << length, dtype=np.int64)
    for square in range(1, length + 1):
        held = (masks >> (square - 1)) & 1
        place = lay.lane_place[square]
        if place:
            lane_mine += held * place
            lane_theirs += held * 2 * lay.lane_place[shape.opposite[square]]
            shared_pop += held
        else:
            private += held * lay.private_bit[square]
    private_masks = 1 << len(shape.private)
    rank = np.full((pieces + 1) * private_masks * (pieces + 1), -1, dtype=np.int64)
    for room, table in enumerate(lay.rank):
        for mask, row in enumerate(table):
            for waiting, value in enumerate(row):
                rank[(room * private_masks + mask) * (pieces + 1) + waiting] = value
    rules_row = np.array(
        [
            pieces,
            length,
            shape.dice,
            private_masks,
            int(shape.safe_rosettes),
            int(shape.rosettes_grant_roll),
            int(shape.captures_grant_roll),
        ],
        dtype=np.int64,
    )
    squares = np.zeros((2, length + 2), dtype=np.int64)  # [0]: opposite, [1]: rosette
    squares[0, : length + 1] = shape.opposite
    squares[1, :] = shape.rosette
    tables: Tables = (
        lane_mine,
        lane_theirs,
        shared_pop,
        private,
        rank,
        np.array(lay.count, dtype=np.int64),
        np.array(lay.offset, dtype=np.int64),
        rules_row,
        squares.reshape(-1),
    )
    return tables, lay.positions


@_jit
def _index(mine: int, theirs: int, my_wait: int, their_wait: int, t: Tables) -> int:
    lane_mine, lane_theirs, shared_pop, private, rank, count, offset, row, _ = t
    n = row[0]
    masks = row[3]
    my_room = n - shared_pop[mine]
    their_room = n - shared_pop[theirs]
    return int(
        offset[lane_mine[mine] + lane_theirs[theirs]]
        + rank[(my_room * masks + private[mine]) * (n + 1) + my_wait] * count[their_room]
        + rank[(their_room * masks + private[theirs]) * (n + 1) + their_wait]
    )


@_jit
def _unpack(key: int, length: int) -> tuple[int, int, int, int]:
    """(mine, theirs, my_wait, their_wait) of a key packed by :func:`_group_keys`."""
    full = (1 << length) - 1
    waits = key >> (2 * length)
    return key & full, (key >> length) & full, waits & 15, (waits >> _WAIT_BITS) & 15


@_jit
def _pop(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@_jit
def _boards(t: Tables) -> tuple[Ints, Ints, Ints]:
    """Every board of a side with at most N pieces, the shared cells it takes (as the
    opponent's squares, so a clash is ``cells & theirs``) and its sum of squares."""
    row = t[7]
    squares = t[8]
    n = row[0]
    length = row[1]
    boards = np.empty(1 << length, dtype=np.int64)
    cells = np.empty(1 << length, dtype=np.int64)
    sums = np.empty(1 << length, dtype=np.int64)
    found = 0
    for board in range(1 << length):
        if _pop(board) > n:
            continue
        taken = 0
        total = 0
        for square in range(1, length + 1):
            if board >> (square - 1) & 1:
                total += square
                if squares[square]:
                    taken |= 1 << (squares[square] - 1)
        boards[found] = board
        cells[found] = taken
        sums[found] = total
        found += 1
    return boards[:found], cells[:found], sums[:found]


@_jit
def _group_keys(off_a: int, off_b: int, canonical: bool, t: Tables) -> tuple[Ints, Ints]:
    """The positions with ``off_a`` of the mover's pieces borne off and ``off_b`` of the
    opponent's, packed ``mine | theirs << L | my_wait << 2L | their_wait << 2L + 4``, with
    their progress. ``canonical``: of a position and its swap, keep the lower index."""
    n = t[7][0]
    length = t[7][1]
    boards, cells, sums = _boards(t)
    # First count (nothing written), then fill arrays of that size.
    size = 0
    keys = np.empty(0, dtype=np.int64)
    progress = np.empty(0, dtype=np.int64)
    for fill in (False, True):
        if fill:
            keys = np.empty(size, dtype=np.int64)
            progress = np.empty(size, dtype=np.int64)
        used = 0
        for i in range(boards.shape[0]):
            mine = boards[i]
            my_wait = n - off_a - _pop(mine)
            if my_wait < 0:
                continue
            for j in range(boards.shape[0]):
                theirs = boards[j]
                their_wait = n - off_b - _pop(theirs)
                if their_wait < 0 or cells[i] & theirs:
                    continue
                if canonical:
                    ix = _index(mine, theirs, my_wait, their_wait, t)
                    iy = _index(theirs, mine, their_wait, my_wait, t)
                    if iy < ix:
                        continue
                if fill:
                    keys[used] = (
                        mine
                        | (theirs << length)
                        | (my_wait << (2 * length))
                        | (their_wait << (2 * length + _WAIT_BITS))
                    )
                    progress[used] = sums[i] + sums[j]
                used += 1
        size = used
    return keys, progress


@_jit
def _claim(
    keys: Ints, slots: Ints, local: npt.NDArray[np.int32], t: Tables
) -> npt.NDArray[np.bool_]:
    """Give pair k the local slots 2k (the position) and 2k + 1 (its swap): fill ``slots``
    (local -> index) and ``local`` (index -> local). Returns which pairs are their own swap."""
    length = t[7][1]
    alone = np.zeros(keys.shape[0], dtype=np.bool_)
    for k in range(keys.shape[0]):
        mine, theirs, my_wait, their_wait = _unpack(keys[k], length)
        ix = _index(mine, theirs, my_wait, their_wait, t)
        iy = _index(theirs, mine, their_wait, my_wait, t)
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
    row = t[7]
    squares = t[8]
    length = row[1]
    dice = row[2]
    safe = row[4] == 1
    rosette_again = row[5] == 1
    capture_again = row[6] == 1
    stride = length + 2
    off = length + 1
    for roll in range(1, dice + 1):
        moves = 0
        for source in range(0, length + 1):
            if source == 0:
                if my_wait == 0:
                    continue
            elif not (mine >> (source - 1)) & 1:
                continue
            target = source + roll
            if target > off:
                break
            if target < off and (mine >> (target - 1)) & 1:
                continue
            captured = False
            if target < off:
                opposite = squares[target]
                if opposite and (theirs >> (opposite - 1)) & 1:
                    if safe and squares[stride + target]:
                        continue
                    captured = True
            moves += 1
            if not fill:
                at += 1
                n_const += 1  # an upper bound while counting
                continue
            after = mine
            after_wait = my_wait
            if source > 0:
                after ^= 1 << (source - 1)
            else:
                after_wait -= 1
            opp = theirs
            opp_wait = their_wait
            again = False
            if target == off:
                if after == 0 and after_wait == 0:
                    constants[n_const] = 1.0
                    entries[at] = n_local + n_const
                    n_const += 1
                    at += 1
                    continue
            else:
                after |= 1 << (target - 1)
                if captured:
                    opp ^= 1 << (squares[target] - 1)
                    opp_wait += 1
                again = (rosette_again and squares[stride + target] == 1) or (
                    capture_again and captured
                )
            if again:
                slot = _index(after, opp, after_wait, opp_wait, t)
            else:
                slot = _index(opp, after, opp_wait, after_wait, t)
            mapped = local[slot]
            if mapped >= 0:
                entries[at] = mapped if again else ~mapped
            else:
                constants[n_const] = values[slot] if again else 1.0 - values[slot]
                entries[at] = n_local + n_const
                n_const += 1
            at += 1
        if fill:
            counts[dice * state + roll - 1] = moves
    return at, n_const


@_jit
def _each_position(
    keys: Ints,
    alone: npt.NDArray[np.bool_],
    local: npt.NDArray[np.int32],
    values: Floats,
    t: Tables,
    fill: bool,
    counts: npt.NDArray[np.uint8],
    entries: npt.NDArray[np.int32],
    constants: Floats,
    n_local: int,
) -> tuple[int, int]:
    """:func:`_successors` of every position of the group, each side to move (local row
    ``2k`` and ``2k + 1``, the second only where it is another position)."""
    length = t[7][1]
    at = 0
    n_const = 0
    for k in range(keys.shape[0]):
        mine, theirs, my_wait, their_wait = _unpack(keys[k], length)
        for side in range(1 if alone[k] else 2):
            at, n_const = _successors(
                theirs if side else mine,
                mine if side else theirs,
                their_wait if side else my_wait,
                my_wait if side else their_wait,
                fill,
                values,
                local,
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
    t: Tables,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int32], Floats]:
    """Counts per (position, roll), the successor entries, and the local values with the
    constants appended (locals start at 0.5)."""
    dice = t[7][2]
    n_local = 2 * keys.shape[0]
    total, _ = _each_position(
        keys,
        alone,
        local,
        values,
        t,
        False,
        np.zeros(1, dtype=np.uint8),
        np.zeros(1, dtype=np.int32),
        np.zeros(1, dtype=np.float64),
        n_local,
    )
    counts = np.zeros(dice * n_local, dtype=np.uint8)
    entries = np.empty(total, dtype=np.int32)
    constants = np.empty(total, dtype=np.float64)
    _, n_const = _each_position(
        keys, alone, local, values, t, True, counts, entries, constants, n_local
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
    dice = chances.shape[0] - 1
    moved = 0.0
    passing = chances[0]
    for roll in range(1, dice + 1):
        moves = counts[dice * state + roll - 1]
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
def _set_finished(keys: Ints, chance: float, values: Floats, t: Tables) -> None:
    length = t[7][1]
    for k in range(keys.shape[0]):
        mine, theirs, my_wait, their_wait = _unpack(keys[k], length)
        values[_index(mine, theirs, my_wait, their_wait, t)] = chance


# ---------------------------------------------------------------------------------------------
# Driver


def _rules(rules: RuleSet, pieces: int | None) -> RuleSet:
    """``rules`` with ``pieces`` a side (its own count by default)."""
    if pieces is None or pieces == rules.pieces:
        return rules
    if not 1 <= pieces <= rules.pieces:
        raise ValueError(f"{rules.name} has 1 to {rules.pieces} pieces a side, not {pieces}.")
    return replace(rules, pieces=pieces)


def solve(
    rules: RuleSet,
    pieces: int | None = None,
    *,
    tolerance: float = TOLERANCE,
    threads: int = 1,
    progress: Progress | None = None,
) -> tuple[Floats, float]:
    """The winning chance of every position of ``rules`` with ``pieces`` a side (float64, in
    :mod:`bot.ai.ur_sets_table` index order) and the average sweeps a position took.

    ``threads`` > 1 solves group pairs with as many pieces borne off in all side by side: a
    move never leads from one to another, so they share nothing but solved values.
    """
    n = _rules(rules, pieces).pieces
    tables, positions = _tables(rules, n)
    chances = np.array(rules.roll_probabilities(), dtype=np.float64)
    values = np.zeros(positions, dtype=np.float64)
    local = np.full(positions, -1, dtype=np.int32)
    finished = 0
    for other in range(n):
        # All borne off: the side that did it has won, whoever is to move.
        for won, lost, chance in ((n, other, 1.0), (other, n, 0.0)):
            keys, _ = _group_keys(won, lost, False, tables)
            _set_finished(keys, chance, values, tables)
            finished += len(keys)
    started = time.perf_counter()
    # The one slot with both sides borne off cannot occur in play; it keeps 0.0.
    done = [finished + 1, 0]  # positions solved, position-sweeps
    lock = threading.Lock()

    def solve_pair(pair: tuple[int, int]) -> None:
        size, sweeps = _solve_pair(pair, tables, values, local, chances, tolerance)
        with lock:
            done[0] += size
            done[1] += size * sweeps
            if progress is not None:
                progress(done[0], positions, time.perf_counter() - started)

    levels: dict[int, list[tuple[int, int]]] = {}
    for a in range(n):
        for b in range(a + 1):
            levels.setdefault(a + b, []).append((a, b))
    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        for level in sorted(levels, reverse=True):
            for future in [pool.submit(solve_pair, pair) for pair in levels[level]]:
                future.result()
    return values, done[1] / max(1, done[0] - finished - 1)


def _solve_pair(
    pair: tuple[int, int],
    tables: Tables,
    values: Floats,
    local: npt.NDArray[np.int32],
    chances: Floats,
    tolerance: float,
) -> tuple[int, int]:
    """Solve one group pair in place; returns (positions, sweeps)."""
    off_a, off_b = pair
    keys, progress_of = _group_keys(off_a, off_b, off_a == off_b, tables)
    if not len(keys):
        return 0, 0
    keys = keys[np.argsort(-progress_of, kind="stable")]
    del progress_of
    slots = np.empty(2 * len(keys), dtype=np.int64)
    alone = _claim(keys, slots, local, tables)
    counts, entries, local_values = _build_moves(keys, alone, values, local, tables)
    del keys
    sweeps = 0
    while _sweep(alone, counts, entries, local_values, chances) >= tolerance:
        sweeps += 1
        if sweeps > MAX_SWEEPS:  # pragma: no cover - value iteration converges
            raise RuntimeError(f"group pair {off_a},{off_b} did not converge")
    _store(slots, alone, local_values, values, local)
    return 2 * len(alone) - int(alone.sum()), sweeps + 1


def _chunks(values: Floats, size: int = 1 << 22) -> Iterator[bytes]:
    for first in range(0, len(values), size):
        part = np.rint(np.clip(values[first : first + size], 0.0, 1.0) * ur_sets_table.SCALE)
        yield part.astype("<u2").tobytes()


def start_chance(values: Floats, rules: RuleSet, pieces: int | None = None) -> float:
    """The first player's chance from the start (all pieces waiting, light to move)."""
    n = _rules(rules, pieces).pieces
    tables, _ = _tables(rules, n)
    return float(values[_index(0, 0, n, n, tables)])


def build(
    out: str | Path,
    rules: RuleSet,
    pieces: int | None = None,
    *,
    tolerance: float = TOLERANCE,
    threads: int = 1,
    progress: Progress | None = None,
) -> BuildResult:
    """Solve ``rules`` with ``pieces`` a side (its own count by default), write the table."""
    started = time.perf_counter()
    n = _rules(rules, pieces).pieces
    values, sweeps = solve(rules, n, tolerance=tolerance, threads=threads, progress=progress)
    first = start_chance(values, rules, n)
    path = ur_sets_table.write(out, rules, n, _chunks(values), first)
    return BuildResult(
        path=path,
        game=rules.game,
        pieces=n,
        positions=len(values),
        start_chance=first,
        seconds=time.perf_counter() - started,
        sweeps=round(sweeps),
        size_bytes=path.stat().st_size,
    )
