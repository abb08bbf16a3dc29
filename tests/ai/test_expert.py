"""The expert level (bgsage): board conversion, legality, clear cube decisions, the worker
pool (respawn after a killed worker, timeouts) and the fallback to hard without bgsage."""

from __future__ import annotations

import importlib
import os
import random
import signal
import sys
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bot.ai
from bot.ai import backgammon as hard_ai
from bot.ai import backgammon_analysis, bgsage_engine
from bot.ai.bgsage_engine import CubeContext, ExpertUnavailable, cube_context, to_board
from bot.ai.pool import ExpertPool
from bot.engines import backgammon as bg
from bot.engines.backgammon import (
    BackgammonState,
    Double,
    Drop,
    Phase,
    Position,
    Take,
    legal_plays,
)
from bot.engines.common import Roll


def board(mine: dict[int | str, int], theirs: dict[int | str, int]) -> Position:
    """Both sides in MY point numbers (``"bar"`` = each side's own bar); I am on roll."""
    flipped: dict[int | str, int] = {
        ("bar" if key == "bar" else 25 - int(key)): count for key, count in theirs.items()
    }
    return Position.from_points(mine, flipped)


@pytest.fixture
def bgsage() -> None:
    pytest.importorskip("bgsage")


@pytest.fixture
def no_bgsage(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """bgsage as on a machine without a wheel: importing it fails."""
    monkeypatch.setitem(sys.modules, "bgsage", None)  # ``import bgsage`` raises ImportError
    bgsage_engine.available.cache_clear()
    yield
    monkeypatch.undo()
    bgsage_engine.available.cache_clear()


# ---------------------------------------------------------------------------------------------
# Board conversion and cube situations (pure)


def test_the_opening_board_is_bgsages_starting_board() -> None:
    assert to_board(Position.initial()) == [
        0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5,
        5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0,
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("mine", "theirs", "expected"),
    [
        # my bar is the last slot, theirs the first; their checkers negative on my points
        ({"bar": 2, 6: 13}, {3: 1}, {25: 2, 6: 13, 3: -1}),
        ({1: 15}, {"bar": 3, 24: 12}, {1: 15, 0: 3, 24: -12}),
        ({24: 1}, {1: 1}, {24: 1, 1: -1}),
    ],
)
def test_to_board_places_bars_and_signs(
    mine: dict[int | str, int], theirs: dict[int | str, int], expected: dict[int, int]
) -> None:
    want = [0] * 26
    for slot, count in expected.items():
        want[slot] = count
    assert to_board(board(mine, theirs)) == want


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 200))
def test_to_board_keeps_every_checker_and_mirrors_like_bgsage(seed: int, skip: int) -> None:
    positions = _positions(seed, 1)
    position = positions[skip % len(positions)][0]
    mine, theirs = to_board(position), to_board(position.swapped())
    assert mine[25] == position.mine[24] and mine[0] == position.theirs[24]
    assert sum(x for x in mine[1:25] if x > 0) + mine[25] == sum(position.mine)
    assert -sum(x for x in mine[1:25] if x < 0) + mine[0] == sum(position.theirs)
    # the other side's view is the same board turned round, signs swapped
    assert theirs == [mine[25]] + [-x for x in reversed(mine[1:25])] + [mine[0]]
    if bgsage_engine.available():
        assert bgsage_flip(mine) == theirs


def bgsage_flip(board: list[int]) -> list[int]:
    flipped: list[int] = importlib.import_module("bgsage").flip_board(board)
    return list(flipped)


def _state(**changes: Any) -> BackgammonState:
    return replace(bg.new_game({"match_length": 7}), **changes)


@pytest.mark.parametrize(
    ("state", "seat", "expected"),
    [
        (bg.new_game({"match_length": 0}), 0, CubeContext()),
        (bg.new_game({"match_length": 1}), 1, CubeContext()),  # a single game is money play
        (bg.new_game({"cube": False}), 0, CubeContext(enabled=False)),
        (_state(score=(4, 6), crawford=True), 0, CubeContext(1, "centered", 3, 1, True)),
        (_state(score=(4, 6), crawford=True), 1, CubeContext(1, "centered", 1, 3, True)),
        (_state(cube_value=2, cube_owner=1, score=(2, 0)), 0, CubeContext(2, "opponent", 5, 7)),
        (_state(cube_value=4, cube_owner=1), 1, CubeContext(4, "player", 7, 7)),
    ],
)
def test_cube_context(state: BackgammonState, seat: int, expected: CubeContext) -> None:
    assert cube_context(state, seat) == expected


# ---------------------------------------------------------------------------------------------
# Legality


def _positions(seed: int, games: int) -> list[tuple[Position, tuple[int, int]]]:
    """Positions and rolls from seeded random games: doubles, the bar and bear-offs all occur."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        position = Position.initial()
        for _ in range(400):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_plays(position, dice)
            if not plays:
                position = position.swapped()
                continue
            found.append((position, dice))
            play = rng.choice(plays)
            if not any(play.result.mine):
                break
            position = play.result.swapped()
    return found


FIXTURES = [
    # entering from the bar against a 5-point board: only the open point
    (board({"bar": 1, 13: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 6: 5}), (6, 1)),
    (board({"bar": 2, 13: 13}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 6: 5}), (1, 1)),
    # bearing off: a larger die from the highest point, and a die that must move inside
    (board({1: 2, 3: 1}, {24: 15}), (6, 2)),
    (board({5: 1, 2: 2}, {24: 15}), (4, 3)),
    (board({6: 2, 1: 1}, {24: 15}), (1, 1)),
    # either die alone but not both (the 15-point is blocked): the larger one, 24/18
    (board({24: 1, 1: 14}, {15: 2}), (6, 3)),
]


def test_every_legal_play_is_ranked_once(bgsage: None) -> None:
    eng = bgsage_engine.engine()
    for position, dice in _positions(1, 4)[::3] + FIXTURES:
        ranked = eng.rank_plays(position, dice, level="1ply")
        plays = legal_plays(position, dice)
        assert sorted(str(r.play.result) for r in ranked) == sorted(str(p.result) for p in plays)


def test_the_expert_only_returns_legal_plays(bgsage: None) -> None:
    eng = bgsage_engine.engine()
    positions = _positions(2, 12)[::3] + FIXTURES
    assert len(positions) > 300
    doubles = bar = bearoff = 0
    for number, (position, dice) in enumerate(positions):
        # The real level now and then, the quick one otherwise.
        level = bgsage_engine.PLAY_LEVEL if number % 50 == 0 else "1ply"
        play = bgsage_engine.choose_play(position, dice, level=level, eng=eng)
        assert play in legal_plays(position, dice)
        doubles += dice[0] == dice[1]
        bar += position.mine[24] > 0
        bearoff += sum(position.mine[6:]) == 0
    assert doubles and bar and bearoff
    for position, dice in FIXTURES:  # and at the real playing level
        assert bgsage_engine.choose_play(position, dice, eng=eng) in legal_plays(position, dice)


def test_the_expert_prefers_the_textbook_opening_play(bgsage: None) -> None:
    for dice, best in (((3, 1), "8/5 6/5"), ((6, 1), "13/7 8/7"), ((4, 2), "8/4 6/4")):
        play = bgsage_engine.choose_play(Position.initial(), dice)
        assert bg.format_play(Position.initial(), dice, play) == best


def test_choose_play_through_the_dispatcher(bgsage: None) -> None:
    position, dice = FIXTURES[0]
    assert bot.ai.expert_available()
    assert bot.ai.choose_play(position, dice, "expert") in legal_plays(position, dice)


# ---------------------------------------------------------------------------------------------
# Cube decisions in clear positions (money play)

# Both sides have four checkers on their 1-point. If I double now I win 86% (I lose only
# when I roll a non-double and they roll a double): a textbook double / pass.
LAST_ROLLS = board({1: 4}, {24: 4})


def test_double_and_pass_in_a_last_roll_race(bgsage: None) -> None:
    state = bg.BackgammonState(position=LAST_ROLLS, phase=Phase.ROLL, turn=0, match_length=0)
    assert bgsage_engine.choose_action(state) == Double()
    offered = bg.apply(state, Double())
    assert offered.phase is Phase.CUBE
    assert bgsage_engine.choose_action(offered) == Drop()


def test_no_double_at_the_start_and_a_take_if_doubled(bgsage: None) -> None:
    state = bg.BackgammonState(
        position=Position.initial(), phase=Phase.ROLL, turn=0, match_length=0
    )
    assert bgsage_engine.choose_action(state) is None
    assert bgsage_engine.choose_action(bg.apply(state, Double())) == Take()


def test_a_hopeless_position_is_dropped(bgsage: None) -> None:
    # The doubler bears off both checkers with any roll; the taker has one checker left.
    doubler = board({1: 1, 2: 1}, {6: 1})
    state = bg.BackgammonState(position=doubler.swapped(), phase=Phase.CUBE, turn=1)
    assert bgsage_engine.choose_action(state) == Drop()


def test_nobody_doubles_in_the_crawford_game(bgsage: None) -> None:
    state = bg.BackgammonState(
        position=LAST_ROLLS, phase=Phase.ROLL, turn=0, match_length=5, score=(4, 0), crawford=True
    )
    assert bgsage_engine.choose_action(state) is None


def test_hints_rank_plays_and_cube_actions(bgsage: None) -> None:
    state = bg.apply(bg.new_game({"match_length": 0}), Roll((3, 1)))
    lines = backgammon_analysis.hint(state, limit=3)
    assert lines[0].text == "8/5 6/5" and lines[0].loss == 0.0
    assert [line.loss for line in lines] == sorted(line.loss for line in lines)
    cube = backgammon_analysis.hint(
        bg.BackgammonState(position=LAST_ROLLS, phase=Phase.ROLL, turn=0)
    )
    assert cube[0].text == "double"


# ---------------------------------------------------------------------------------------------
# The worker pool


async def test_the_pool_answers_and_survives_a_killed_worker(bgsage: None) -> None:
    pool = ExpertPool(workers=1)
    pool.start()
    try:
        state = bg.apply(bg.new_game({"match_length": 0}), Roll((3, 1)))
        first = await pool.choose_action(state, timeout=60)
        assert first in legal_plays(state.position, (3, 1))
        (pid,) = pool.pids()
        os.kill(pid, signal.SIGKILL)
        again = await pool.choose_action(state, timeout=60)
        assert again == first  # the expert's answer, from a fresh worker
        assert pool.pids() != [pid]
        assert pool.stats.crashes == 1 and pool.stats.respawns == 1
        assert pool.stats.fallbacks == 0
    finally:
        pool.close()
    assert pool.pids() == []


async def test_a_timeout_falls_back_to_hard_and_replaces_the_worker(bgsage: None) -> None:
    pool = ExpertPool(workers=1)
    pool.start()
    try:
        state = bg.apply(bg.new_game({"match_length": 0}), Roll((6, 5)))
        await pool.choose_action(state, timeout=60)  # wait until the worker is ready
        rng = random.Random(3)
        quick = await pool.choose_action(state, timeout=0.001, rng=rng)
        assert quick == hard_ai.choose_action(state, "hard", random.Random(3))
        assert pool.stats.timeouts == 1 and pool.stats.fallbacks == 1
        analysis = await pool.review({"match_length": 0}, ["roll 6-5", "24/13"], timeout=60)
        assert [d.played for d in analysis.decisions] == ["24/13"]
        assert analysis.decisions[0].loss == 0.0
    finally:
        pool.close()


# ---------------------------------------------------------------------------------------------
# Without bgsage


async def test_without_bgsage_the_expert_plays_as_hard(no_bgsage: None) -> None:
    assert not bgsage_engine.available() and not bot.ai.expert_available()
    position, dice = FIXTURES[1]
    assert bot.ai.choose_play(position, dice, "expert") == hard_ai.choose_play(
        position, dice, "hard", random.Random(0)
    )
    pool = ExpertPool(workers=1)
    pool.start()
    assert not pool.available and pool.pids() == []  # nothing spawned
    state = bg.apply(bg.new_game({"match_length": 0}), Roll((4, 2)))
    action = await pool.choose_action(state, timeout=5, rng=random.Random(1))
    assert action in legal_plays(state.position, (4, 2))
    assert action == hard_ai.choose_action(state, "hard", random.Random(1))
    assert pool.stats.fallbacks == 1
    with pytest.raises(ExpertUnavailable):
        await pool.review({}, [])
    with pytest.raises(ExpertUnavailable):
        bgsage_engine.engine(threads=99).analyzer("1ply")
    pool.close()
