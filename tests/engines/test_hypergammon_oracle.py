"""Hypergammon's move generation against GNU Backgammon, the oracle: 5,000 distinct
positions and rolls met in seeded random games from the Hypergammon start, and for each its
legal plays as the engine lists them and as the ``gnubg`` Python package's
``find_best_moves`` lists them (every legal move, one per resulting position), compared as
sets of resulting positions. gnubg's moves are applied by :func:`naive_after` (checkers moved
as written, a lone checker on the landing point hit, no rule checked), so neither side's
rules are read through the other's. gnubg's own 3-checker set-up is the engine's start.

The package writes a move as ``(from, to, from, to, ...)`` and stops at gnubg's first
"off" (-1 inside gnubg): a move that bears a checker off comes as its steps before that one
and the bear-off's from-point, the steps after it left out (11.7 % of these positions have
such a move). Such a move is compared on what it shows: the same number of plays on both
sides, every whole move one of the engine's plays, and each cut one matched to a different
remaining play of the engine's that agrees with it wherever the steps left out cannot reach
(all of them are inside the mover's home board once it bears off: the mover has at most as
many checkers left, and the opponent's checkers outside that board are the same).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bot.engines import backgammon as bg
from bot.engines import hypergammon
from bot.engines.backgammon import Phase, Position
from bot.engines.common import Roll

gnubg = pytest.importorskip("gnubg")

POSITIONS = 5000


def hypergammon_positions(seed: int, count: int) -> list[tuple[Position, tuple[int, int]]]:
    """``count`` distinct (position, roll) pairs with a play to make, met in seeded random
    single games (cube off) from the start: the board seen by the mover."""
    rng = random.Random(seed)
    found: dict[tuple[Position, tuple[int, int]], None] = {}
    while len(found) < count:
        state = hypergammon.new_game({"cube": False})
        while state.phase is not Phase.FINISHED and len(found) < count:
            if state.phase is Phase.MOVE:
                dice = (state.dice[0], state.dice[1])
                found[(state.position, dice)] = None
                state = bg.apply(state, rng.choice(bg.legal_plays_for(state)))
            else:
                state = bg.apply(state, bg.roll(state, rng))
    return list(found)


def naive_after(position: Position, move: Sequence[int]) -> Position:
    """``position`` after gnubg's move ``(from, to, from, to, ...)`` (25 the bar, 0 off) as
    written; a last from-point without its to-point bears that checker off."""
    mine, theirs = list(position.mine), list(position.theirs)
    steps = list(zip(move[0::2], move[1::2], strict=False))
    if len(move) % 2:
        steps.append((move[-1], 0))
    for source, target in steps:
        mine[source - 1] -= 1
        if target > 0:
            if theirs[24 - target] == 1:
                theirs[24 - target] = 0
                theirs[24] += 1
            mine[target - 1] += 1
    return Position(tuple(mine), tuple(theirs))


def _agrees(engine: Position, cut: Position) -> bool:
    """Whether the engine's result may be gnubg's cut move ``cut`` completed (see the module
    docstring)."""
    return sum(engine.mine) <= sum(cut.mine) and engine.theirs[:18] == cut.theirs[:18]


def mismatch(position: Position, dice: tuple[int, int]) -> str | None:
    """How the engine's plays and gnubg's differ (see the module docstring), or None."""
    ours = {play.result for play in bg.legal_plays(position, dice)}
    board = gnubg.position_from_id(position.position_id())
    moves = [
        m["move"] for m in gnubg.find_best_moves(board, gnubg.cubeinfo(), gnubg.evalcontext(), dice)
    ]
    if len(moves) != len(ours):
        return f"{len(ours)} plays, gnubg {len(moves)}"
    whole = {naive_after(position, m) for m in moves if len(m) % 2 == 0}
    if not whole <= ours:
        return f"{len(whole - ours)} of gnubg's moves are not the engine's"
    left = ours - whole
    for move in (m for m in moves if len(m) % 2):
        cut = naive_after(position, move)
        match = next((r for r in left if _agrees(r, cut)), None)
        if match is None:
            return f"gnubg's {move} matches none of the engine's plays"
        left.discard(match)
    return None


def test_gnubgs_three_checker_start_is_the_engines() -> None:
    board = gnubg.position_from_id(hypergammon.START_ID)
    assert board[0] == board[1] == hypergammon.START.mine
    assert {p + 1 for p, n in enumerate(hypergammon.START.mine) if n} == {22, 23, 24}


def test_the_positions_come_from_the_start_and_are_distinct() -> None:
    cases = hypergammon_positions(seed=41, count=200)
    first, dice = cases[0]
    opening = bg.apply(hypergammon.new_game(), Roll((max(dice), min(dice))))
    assert first == opening.position == hypergammon.START
    assert len(set(cases)) == len(cases)
    assert any(p.mine[24] for p, _ in cases) and any(sum(p.mine) < 3 for p, _ in cases)


@pytest.mark.slow
def test_legal_plays_agree_with_gnubg_on_5000_positions() -> None:
    cases = hypergammon_positions(seed=41, count=POSITIONS)
    mismatches = [
        f"{position.position_id()} {dice}: {why}"
        for position, dice in cases
        if (why := mismatch(position, dice)) is not None
    ]
    assert not mismatches, f"{len(mismatches)} of {len(cases)} differ:\n" + "\n".join(
        mismatches[:20]
    )
