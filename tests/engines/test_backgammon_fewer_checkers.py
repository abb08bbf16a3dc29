"""Backgammon's engine, texts and board with fewer than 15 checkers a side (a variant's
``start`` with fewer): borne-off counts, gammons and backgammons, resignations and the
board all count the match's own checkers."""

from __future__ import annotations

import random

import pytest

from bot.engines import backgammon as bg
from bot.engines.backgammon import Phase, Position
from bot.engines.common import Resign, Roll
from renderers import backgammon as renderer
from renderers.view import make_view

THREE = Position.from_points({24: 1, 23: 1, 22: 1}, {24: 1, 23: 1, 22: 1})


def three_checker_game(**options: object) -> bg.BackgammonState:
    return bg.new_game({**options, "start": THREE.position_id()})


def test_the_start_option_takes_any_equal_sides_on_the_board() -> None:
    state = three_checker_game()
    assert state.checkers == 3
    assert bg.new_game().checkers == bg.CHECKERS
    with pytest.raises(ValueError, match="same 15 checkers or fewer"):
        bg.new_game({"start": Position.from_points({24: 3}, {24: 2}).position_id()})
    with pytest.raises(ValueError, match="same 15 checkers or fewer"):
        bg.new_game({"start": Position.from_points({"bar": 1}, {"bar": 1}).position_id()})


def test_borne_off_and_win_kinds_count_the_sides_checkers() -> None:
    position = Position.from_points({}, {1: 1, 2: 1, 3: 1})
    assert position.borne_off(3) == (3, 0)
    assert bg.win_kind(position, 3) == (2, "gammon")
    assert bg.win_kind(position) == (1, "single")  # 15 a side: 12 would be off
    assert bg.win_kind(Position.from_points({}, {1: 1, 20: 1}), 3) == (1, "single")
    assert bg.win_kind(Position.from_points({}, {1: 2, 19: 1}), 3) == (3, "backgammon")
    assert bg.win_kind(Position.from_points({}, {"bar": 1, 1: 2}), 3) == (3, "backgammon")


def _bear_off_race(state: bg.BackgammonState, position: Position) -> bg.BackgammonState:
    return bg.BackgammonState(
        position=position,
        phase=Phase.ROLL,
        turn=0,
        match_length=0,
        start=state.start,
    )


def test_bearing_off_the_last_checker_scores_a_gammon_of_three() -> None:
    start = three_checker_game(match_length=0)
    state = _bear_off_race(start, Position.from_points({1: 1}, {6: 3}))
    state = bg.apply(state, Roll((6, 5)))
    (play,) = bg.legal_plays_for(state)
    done = bg.apply(state, play)
    assert done.phase is Phase.FINISHED
    assert done.games[-1].kind == "gammon" and done.games[-1].points == 2


def test_resigning_with_a_gammon_locked_in_counts_three_checkers() -> None:
    start = three_checker_game(match_length=0)
    state = _bear_off_race(start, Position.from_points({1: 1}, {20: 1, 21: 1, 22: 1}))
    done = bg.apply(state, Resign(1))
    assert done.games[-1].kind == "backgammon"
    state = _bear_off_race(start, Position.from_points({1: 1, 2: 1}, {2: 1, 3: 1}))
    assert bg.apply(state, Resign(1)).games[-1].kind == "single"


def test_the_board_draws_three_checkers_a_side_with_those_borne_off() -> None:
    rng = random.Random(3)
    state = three_checker_game()
    for _ in range(40):
        if state.phase is Phase.FINISHED:
            break
        actions = bg.legal_actions(state)
        state = bg.apply(state, bg.roll(state, rng) if not actions else rng.choice(actions))
        drawn = renderer.draw(state, make_view(bg.SEATS, perspective=0), indexed=False)
        assert drawn.image.size[0] > 0
    moved, trail = renderer.apply_steps(Position.from_points({1: 1}, {}), [(1, 0)], 3)
    assert trail == [(1, 0, 0, 2, False)]  # the third checker off, on the third slot
    assert sum(moved.mine) == 0
