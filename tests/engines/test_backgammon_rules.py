"""Checker-play rules: table-driven positions, a brute-force reference, and properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engines.backgammon import (
    Play,
    Position,
    legal_plays,
    legal_steps,
    play_for_steps,
    win_kind,
)
from bot.engines.common import InvalidPosition
from tests.engines.test_backgammon_helpers import (
    board,
    dice_rolls,
    late_positions,
    naive_after,
    playout_positions,
    positions,
    ref_step_once,
    reference_results,
)

# Each case: my checkers, theirs (in MY point numbers), the roll, and every legal play as
# text (chains like 13/12/6 move one checker twice). Plays with equal results count once.
CASES = [
    pytest.param({13: 1}, {7: 2}, (6, 1), {"13/12/6"}, id="blocked point: only via 12"),
    pytest.param({13: 1}, {8: 1}, (5, 2), {"13/8*/6", "13/11/6"}, id="hit a blot or not"),
    pytest.param(
        {"bar": 1, 13: 2},
        {},
        (3, 1),
        {"bar/22 22/21", "bar/22 13/12", "bar/24 13/10"},
        id="enter first, then any checker",
    ),
    pytest.param({"bar": 1, 13: 2}, {22: 2, 24: 2}, (3, 1), set(), id="entry blocked: no move"),
    pytest.param(
        {"bar": 2, 13: 1}, {22: 2}, (3, 1), {"bar/24"}, id="one enters, the rest stays stuck"
    ),
    pytest.param(
        {"bar": 1, 13: 1},
        {20: 1},
        (5, 5),
        {"bar/20*/5", "bar/20*/10 13/8", "bar/20*/15 13/3"},
        id="enter with a hit, doubles",
    ),
    pytest.param({13: 1}, {}, (2, 2), {"13/5"}, id="doubles move four times"),
    pytest.param({13: 2}, {9: 2}, (2, 2), {"13/11 13/11"}, id="doubles: as many as possible"),
    pytest.param({13: 1}, {5: 2}, (2, 2), {"13/7"}, id="doubles: three of four"),
    pytest.param({10: 1}, {4: 2}, (6, 1), {"10/9/3"}, id="must use both: one order fails"),
    pytest.param({24: 1}, {14: 2}, (6, 4), {"24/18"}, id="only one die: the larger"),
    pytest.param({24: 1}, {18: 2, 14: 2}, (6, 4), {"24/20"}, id="only the smaller can move"),
    pytest.param({24: 1}, {18: 2, 23: 2}, (6, 1), set(), id="neither die can move"),
    pytest.param({6: 1, 3: 1}, {}, (6, 3), {"6/off 3/off", "6/3 3/off"}, id="bear off exact"),
    pytest.param({4: 1, 2: 1}, {}, (6, 5), {"4/off 2/off"}, id="larger die from highest point"),
    pytest.param({7: 1, 2: 1}, {1: 2}, (6, 2), {"7/5/off"}, id="no bear-off with a checker out"),
    pytest.param({8: 1, 2: 1}, {}, (6, 2), {"8/2 2/off"}, id="bring home, then bear off"),
    pytest.param(
        {6: 1, 3: 1},
        {},
        (5, 4),
        {"6/1 3/off", "6/2 3/off"},
        id="higher point occupied: move inside",
    ),
    pytest.param(
        {1: 4, 2: 1},
        {},
        (1, 1),
        {"2/1 1/off 1/off 1/off", "1/off 1/off 1/off 1/off"},
        id="doubles bear-off",
    ),
    pytest.param({1: 1}, {}, (6, 6), {"1/off"}, id="last checker off, dice left over"),
    pytest.param(
        {5: 2},
        {"bar": 1},
        (6, 4),
        {"5/off 5/1"},
        id="bear off: 6 from the 5, the 4 moves inside",
    ),
]


@pytest.mark.parametrize(("mine", "theirs", "dice", "expected"), CASES)
def test_legal_plays_table(
    mine: dict[int | str, int],
    theirs: dict[int | str, int],
    dice: tuple[int, int],
    expected: set[str],
) -> None:
    position = board(mine, theirs)
    results = {play.result for play in legal_plays(position, dice)}
    assert results == {naive_after(position, text) for text in expected}
    assert results == reference_results(position, dice)


def test_opening_6_1_makes_the_bar_point() -> None:
    start = Position.initial()
    results = {play.result for play in legal_plays(start, (6, 1))}
    assert naive_after(start, "13/7 8/7") in results
    assert len(results) == len(legal_plays(start, (6, 1)))
    # 10 distinct results: 13/12 and 24/17 land on the opponent's 13- and 8-points.
    assert len(results) == 10


@pytest.mark.parametrize(
    ("mine", "theirs", "expected"),
    [
        pytest.param({}, {6: 14}, (1, "single"), id="loser bore off one"),
        pytest.param({}, {6: 15}, (2, "gammon"), id="loser bore off none"),
        pytest.param({}, {6: 14, "bar": 1}, (3, "backgammon"), id="loser on the bar"),
        pytest.param({}, {6: 14, 24: 1}, (3, "backgammon"), id="loser in winner's home"),
        pytest.param({}, {7: 14, 18: 1}, (2, "gammon"), id="loser's 18 is not winner's home"),
    ],
)
def test_win_kind(
    mine: dict[int | str, int], theirs: dict[int | str, int], expected: tuple[int, str]
) -> None:
    # ``theirs`` here in THEIR numbering: their 24-point is my 1-point (my home board).
    assert win_kind(Position.from_points(mine, theirs)) == expected


def test_position_checks() -> None:
    with pytest.raises(InvalidPosition):
        Position.from_points({6: 16}, {})
    with pytest.raises(InvalidPosition):
        board({6: 1}, {6: 1})
    with pytest.raises(InvalidPosition):
        Position.from_points({26: 1}, {})


def test_swapped_and_pips() -> None:
    start = Position.initial()
    assert start.pip_counts() == (167, 167)
    position = board({"bar": 1, 6: 2}, {1: 1})
    assert position.pip_counts() == (25 + 12, 24)
    assert position.swapped().pip_counts() == (24, 37)
    assert position.swapped().swapped() == position
    assert position.borne_off() == (12, 14)


# ---------------------------------------------------------------------------------------------
# Against the brute-force reference


@pytest.mark.parametrize("seed", range(3))
def test_matches_reference_on_playout_positions(seed: int) -> None:
    for position, dice in playout_positions(seed, 700):
        assert {p.result for p in legal_plays(position, dice)} == reference_results(
            position, dice
        ), (position.position_id(), dice)


@settings(max_examples=300, deadline=None)
@given(positions(), dice_rolls)
def test_matches_reference_on_random_positions(position: Position, dice: tuple[int, int]) -> None:
    assert {p.result for p in legal_plays(position, dice)} == reference_results(position, dice)


@settings(max_examples=300, deadline=None)
@given(late_positions(), dice_rolls)
def test_matches_reference_in_bear_offs(position: Position, dice: tuple[int, int]) -> None:
    assert {p.result for p in legal_plays(position, dice)} == reference_results(position, dice)


# ---------------------------------------------------------------------------------------------
# Properties of every play


def _check_plays(position: Position, dice: tuple[int, int]) -> list[Play]:
    plays = legal_plays(position, dice)
    results = [play.result for play in plays]
    assert len(set(results)) == len(results), "duplicate results"
    lengths = {len(play.steps) for play in plays}
    assert len(lengths) <= 1, "all plays use the same number of dice"
    for play in plays:
        mine, theirs = play.result.mine, play.result.theirs
        borne_off_now = sum(1 for _, to in play.steps if to == 0)
        assert sum(mine) == sum(position.mine) - borne_off_now, "checkers conserved"
        assert sum(theirs) == sum(position.theirs), "hit checkers go to the bar, not off"
        assert all(not (mine[i] and theirs[23 - i]) for i in range(24))
        replayed: Position | None = position
        pool = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
        for step in play.steps:
            assert replayed is not None
            replayed = ref_step_once(replayed, step, pool)
        assert replayed == play.result, f"steps {play.steps} do not give the result"
    return plays


@settings(max_examples=300, deadline=None)
@given(positions(), dice_rolls)
def test_play_properties(position: Position, dice: tuple[int, int]) -> None:
    _check_plays(position, dice)


def test_play_properties_on_playout_positions() -> None:
    for position, dice in playout_positions(11, 500):
        _check_plays(position, dice)


def test_canonical_steps_are_deterministic() -> None:
    start = Position.initial()
    first = legal_plays(start, (3, 1))
    assert legal_plays(start, (1, 3)) == first
    play = next(p for p in first if p.result == naive_after(start, "8/5 6/5"))
    assert play.steps == ((8, 5), (6, 5))


# ---------------------------------------------------------------------------------------------
# Step-by-step input


def test_legal_steps_opening_6_1() -> None:
    start = Position.initial()
    first = legal_steps(start, (6, 1))
    assert (13, 7) in first and (8, 7) in first and (24, 23) in first
    assert (24, 18) in first and (6, 5) in first
    assert legal_steps(start, (6, 1), ((13, 7),)) == [(24, 23), (8, 7), (7, 6), (6, 5)]
    play = play_for_steps(start, (6, 1), ((8, 7), (13, 7)))
    assert play is not None and play.result == naive_after(start, "13/7 8/7")
    assert play_for_steps(start, (6, 1), ((13, 7),)) is None


def test_legal_steps_avoid_dead_ends() -> None:
    # 10/4 is blocked and 10/9 must come first; 10/9 is the only first step.
    position = board({10: 1}, {4: 2})
    assert legal_steps(position, (6, 1)) == [(10, 9)]
    # Only the larger die may be played alone: 24/20 is not offered.
    position = board({24: 1}, {14: 2})
    assert legal_steps(position, (6, 4)) == [(24, 18)]


def test_bear_off_step_uses_the_smallest_die() -> None:
    position = board({4: 1, 2: 1})
    assert legal_steps(position, (6, 4)) == [(4, 0)]
    # 4/off took the 4 (the smallest die that bears it off), so the 6 takes the 2 off.
    after = legal_steps(position, (6, 4), ((4, 0),))
    assert after == [(2, 0)]
    play = play_for_steps(position, (6, 4), ((4, 0), (2, 0)))
    assert play is not None and not any(play.result.mine)


@settings(max_examples=200, deadline=None)
@given(positions() | late_positions(), dice_rolls, st.randoms(use_true_random=False))
def test_legal_steps_never_dead_end(
    position: Position, dice: tuple[int, int], rnd: random.Random
) -> None:
    plays = legal_plays(position, dice)
    taken: tuple[tuple[int, int], ...] = ()
    while True:
        options = legal_steps(position, dice, taken)
        if not options:
            break
        taken = (*taken, rnd.choice(options))
    if not plays:
        assert taken == ()
        return
    play = play_for_steps(position, dice, taken)
    assert play is not None and play in plays
    # and every play's own steps walk through legal_steps
    for play in plays:
        for depth, step in enumerate(play.steps):
            assert step in legal_steps(position, dice, play.steps[:depth])
        assert play_for_steps(position, dice, play.steps) == play
