"""The Ur solver against a brute-force solver written here, and against published values.

The brute force shares nothing with the solver but the engine's rules: its own list of
positions (a dict, no index), moves from ``bot.engines.ur`` and plain Jacobi value iteration.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from bot.ai import ur_solver, ur_table  # noqa: E402
from bot.engines.ur import ROLL_PROBABILITIES, Position, apply_move, legal_moves  # noqa: E402
from tests.ai.ur_positions import Key, positions  # noqa: E402


def brute_force(pieces: int, tolerance: float = 1e-13) -> dict[Key, float]:
    """The side to move's winning chance in every unfinished position, by Jacobi iteration."""
    keys = [k for k in positions(pieces) if not _finished(k, pieces)]
    ids = {_packed(*k): i for i, k in enumerate(keys)}
    n = len(keys)
    win = 2 * n  # the slot of a won game in the extended value array below
    # The mover's moves depend on the opponent only through the shared rosette (blocked) and
    # captures, so they are generated once per (mover, rosette held) with the engine.
    moves_of: dict[tuple[int, int, bool, int], list[tuple[int, int, int, bool]]] = {}
    entries: list[int] = []  # slots of (value) or (n + slot: one minus value) or win
    starts: list[int] = []
    owner: list[int] = []
    chance: list[float] = []
    passing = [ROLL_PROBABILITIES[0]] * n
    for i, (mine, theirs, mw, tw) in enumerate(keys):
        held = bool(theirs >> 8 & 1)
        for roll in range(1, 5):
            cached = moves_of.get((mine, mw, held, roll))
            if cached is None:
                here = Position(mine, 1 << 8 if held else 0, mw, 0, "light")
                cached = []
                for move in legal_moves(here, roll):
                    after, again = apply_move(here, move)
                    cached.append((after.light, after.light_waiting, move.target, again))
                moves_of[(mine, mw, held, roll)] = cached
            if not cached:
                passing[i] += ROLL_PROBABILITIES[roll]
                continue
            starts.append(len(entries))
            owner.append(i)
            chance.append(ROLL_PROBABILITIES[roll])
            for after, after_wait, target, again in cached:
                opp, opp_wait = theirs, tw
                if 5 <= target <= 12 and theirs >> target & 1:  # captured: back to waiting
                    opp, opp_wait = theirs ^ 1 << target, tw + 1
                if after == 0 and after_wait == 0:
                    entries.append(win)
                elif again:
                    entries.append(ids[_packed(after, opp, after_wait, opp_wait)])
                else:
                    entries.append(n + ids[_packed(opp, after, opp_wait, after_wait)])
    swap = np.array([ids[_packed(t, m, tw, mw)] for m, t, mw, tw in keys])
    entry = np.array(entries)
    first = np.array(starts)
    owners = np.array(owner)
    chances = np.array(chance)
    passes = np.array(passing)
    values = np.full(n, 0.5)
    for _ in range(100_000):
        extended = np.concatenate((values, 1.0 - values, [1.0]))
        best = np.maximum.reduceat(extended[entry], first)
        new = passes * (1.0 - values[swap]) + np.bincount(owners, chances * best, minlength=n)
        change = float(np.max(np.abs(new - values)))
        values = new
        if change < tolerance:
            break
    return {k: float(v) for k, v in zip(keys, values, strict=True)}


def _packed(mine: int, theirs: int, mw: int, tw: int) -> int:
    return mine | theirs << 15 | mw << 30 | tw << 33


def _finished(key: Key, pieces: int) -> bool:
    mine, theirs, mw, tw = key
    return (mine == 0 and mw == 0) or (theirs == 0 and tw == 0)


def solver_chance(values: np.ndarray, pieces: int, key: Key) -> float:
    mine, theirs, mw, tw = key
    return float(values[ur_table.layout(pieces).index(mine, theirs, mw, tw)])


@pytest.mark.parametrize("pieces", [1, 2, pytest.param(3, marks=pytest.mark.slow)])
def test_the_solver_agrees_with_brute_force(pieces: int) -> None:
    values, _ = ur_solver.solve(pieces)
    expected = brute_force(pieces)
    worst = max(abs(solver_chance(values, pieces, k) - v) for k, v in expected.items())
    assert worst < 1e-9, worst


def test_finished_positions_count_for_the_side_that_finished() -> None:
    values, _ = ur_solver.solve(1)
    assert solver_chance(values, 1, (0, 1 << 14, 0, 0)) == 1.0  # the mover is off
    assert solver_chance(values, 1, (1 << 14, 0, 0, 0)) == 0.0  # the opponent is off


def test_one_piece_each_matches_hand_solved_positions() -> None:
    """Joseph Heled's worked examples (jheled.github.io/royalur/solve.html): both pieces on
    square 14: 4/7; the mover on 13 against 14: 116/161, the other side to move 74/161."""
    values, _ = ur_solver.solve(1)
    on = {13: 1 << 13, 14: 1 << 14}
    assert solver_chance(values, 1, (on[14], on[14], 0, 0)) == pytest.approx(4 / 7, abs=1e-12)
    mover = solver_chance(values, 1, (on[13], on[14], 0, 0))
    other = solver_chance(values, 1, (on[14], on[13], 0, 0))
    assert Fraction(mover).limit_denominator(1000) == Fraction(116, 161)
    assert Fraction(other).limit_denominator(1000) == Fraction(74, 161)


def test_the_two_piece_start_matches_royalur_s_table() -> None:
    """RoyalUr-Python's test table finkel2p.rgu (an independent solver, 16-bit values)
    stores 33985 / 65535 for the start of the two-piece Finkel game."""
    values, _ = ur_solver.solve(2)
    assert ur_table.encode(ur_solver.start_chance(values, 2)) == 33985


def test_more_threads_give_the_same_values() -> None:
    one, _ = ur_solver.solve(3, threads=1)
    two, _ = ur_solver.solve(3, threads=2)
    assert np.array_equal(one, two)


def test_progress_reaches_every_position() -> None:
    seen: list[tuple[int, int]] = []
    _values, sweeps = ur_solver.solve(
        2, progress=lambda done, total, _s: seen.append((done, total))
    )
    total = ur_table.layout(2).positions
    assert seen and seen[-1][1] == total
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    finished = sum(1 for k in positions(2) if _finished(k, 2))
    assert seen[0][0] > finished  # the finished positions count as solved from the start
    assert seen[-1][0] == total
    assert sweeps > 1
