"""Play notation: gnubg-style output, tolerant input, and exact round trips."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from bot.engines.backgammon import Position, format_play, legal_plays, parse_play
from bot.engines.common import IllegalMove, NotationError
from tests.engines.test_backgammon_helpers import (
    board,
    dice_rolls,
    late_positions,
    naive_after,
    playout_positions,
    positions,
)

START = Position.initial()


def _text_for(position: Position, dice: tuple[int, int], plain: str) -> str:
    """The engine's notation of the play whose result ``plain`` describes."""
    wanted = naive_after(position, plain)
    play = next(p for p in legal_plays(position, dice) if p.result == wanted)
    return format_play(position, dice, play)


@pytest.mark.parametrize(
    ("position", "dice", "plain", "expected"),
    [
        pytest.param(START, (3, 1), "8/5 6/5", "8/5 6/5", id="point on the 5"),
        pytest.param(START, (6, 5), "24/18 18/13", "24/13", id="run: one checker, two dice"),
        pytest.param(START, (3, 3), "8/5 8/5 6/3 6/3", "8/5(2) 6/3(2)", id="doubles counted"),
        pytest.param(START, (6, 6), "24/18 24/18 13/7 13/7", "24/18(2) 13/7(2)", id="66"),
        pytest.param(START, (2, 2), "13/11 11/9 9/7 7/5", "13/5", id="one checker four times"),
        pytest.param(board({13: 1}, {8: 1}), (5, 2), "13/8* 8/6", "13/8*/6", id="hit on the way"),
        pytest.param(board({13: 2}, {8: 1}), (5, 3), "13/8* 13/10", "13/10 13/8*", id="hit"),
        pytest.param(
            board({"bar": 1, 6: 5}, {22: 1}), (3, 1), "bar/22* 6/5", "bar/22* 6/5", id="bar"
        ),
        pytest.param(board({6: 1, 3: 1}), (6, 3), "6/off 3/off", "6/off 3/off", id="bear off"),
        pytest.param(board({6: 1, 3: 1}), (6, 3), "6/3 3/off", "6/off", id="off via the 3"),
    ],
)
def test_format(position: Position, dice: tuple[int, int], plain: str, expected: str) -> None:
    assert _text_for(position, dice, plain) == expected


@pytest.mark.parametrize(
    ("position", "dice", "text", "plain"),
    [
        pytest.param(START, (6, 5), "24/18 18/13", "24/13", id="plain steps"),
        pytest.param(START, (6, 5), "24/18/13", "24/13", id="chain with the midpoint"),
        pytest.param(START, (6, 5), " 24/13 ", "24/13", id="spaces"),
        pytest.param(START, (3, 1), "6/5, 8/5", "8/5 6/5", id="any order, commas"),
        pytest.param(START, (3, 3), "8/5 8/5 6/3(2)", "8/5(2) 6/3(2)", id="mixed counts"),
        pytest.param(START, (3, 3), "13/10(2) 10/7 10/7", "13/7(2)", id="two steps each"),
        pytest.param(
            board({"bar": 1, 6: 5}, {22: 1}), (3, 1), "25/22 6/5", "bar/22* 6/5", id="25 = bar"
        ),
        pytest.param(board({"bar": 1, 6: 5}, {}), (3, 1), "B/22 6/5", "bar/22 6/5", id="b"),
        pytest.param(board({6: 1, 3: 1}), (6, 3), "6/0 3/0", "6/off 3/off", id="0 = off"),
        pytest.param(board({4: 1, 2: 1}), (6, 5), "4/off 2/off", "4/off 2/off", id="overshoot"),
    ],
)
def test_parse(position: Position, dice: tuple[int, int], text: str, plain: str) -> None:
    assert parse_play(position, dice, text).result == naive_after(position, plain)


def test_hit_marks_choose_between_paths() -> None:
    # 24/13 with 6-5 can pass the empty 18 or hit the blot on 19.
    position = board({24: 1, 6: 5}, {19: 1})
    quiet = parse_play(position, (6, 5), "24/13")
    hitting = parse_play(position, (6, 5), "24/19*/13")
    assert quiet.result == naive_after(position, "24/18/13")
    assert hitting.result == naive_after(position, "24/19*/13")
    assert format_play(position, (6, 5), quiet) == "24/13"
    assert format_play(position, (6, 5), hitting) == "24/19*/13"


@pytest.mark.parametrize(
    ("position", "dice", "text", "error"),
    [
        pytest.param(START, (6, 1), "hello", NotationError, id="gibberish"),
        pytest.param(START, (6, 1), "7/13", NotationError, id="backwards"),
        pytest.param(START, (6, 1), "13/7 8/7 6/5 6/5 6/5", NotationError, id="five moves"),
        pytest.param(START, (6, 1), "13/7", IllegalMove, id="must use both dice"),
        pytest.param(START, (6, 1), "13/7 13/12", IllegalMove, id="12 is their midpoint"),
        pytest.param(START, (6, 1), "20/14 8/7", IllegalMove, id="no checker there"),
        pytest.param(board({24: 1}, {14: 2}), (6, 4), "24/20", IllegalMove, id="larger die"),
        pytest.param(board({"bar": 1, 13: 1}), (3, 1), "13/10 13/12", IllegalMove, id="bar first"),
    ],
)
def test_parse_errors(
    position: Position, dice: tuple[int, int], text: str, error: type[Exception]
) -> None:
    with pytest.raises(error) as raised:
        parse_play(position, dice, text)
    assert str(raised.value).endswith(".")


def test_error_messages_explain() -> None:
    with pytest.raises(IllegalMove, match="both"):
        parse_play(START, (6, 1), "13/7")
    with pytest.raises(IllegalMove, match="larger"):
        parse_play(board({24: 1}, {14: 2}), (6, 4), "24/20")


def _round_trip(position: Position, dice: tuple[int, int]) -> None:
    for play in legal_plays(position, dice):
        text = format_play(position, dice, play)
        assert parse_play(position, dice, text) == play, text
        plain = " ".join(f"{a}/{b}" for a, b in play.steps)
        assert parse_play(position, dice, plain) == play, plain


@settings(max_examples=200, deadline=None)
@given(positions() | late_positions(), dice_rolls)
def test_round_trip_random_positions(position: Position, dice: tuple[int, int]) -> None:
    _round_trip(position, dice)


def test_round_trip_playout_positions() -> None:
    for position, dice in playout_positions(21, 300):
        _round_trip(position, dice)
