"""Movement rules of the Ludo variant, one table row per rule or ruling (RULINGS.md)."""

from __future__ import annotations

import pytest

from bot.engines import ludo
from bot.engines.common import IllegalMove
from tests.engines.test_ludo_boards import board, step_on


@pytest.mark.parametrize(
    ("seat", "step", "square"),
    [
        ("orange", 1, 0),
        ("orange", 48, 47),
        ("blue", 1, 12),
        ("blue", 36, 47),
        ("blue", 37, 0),
        ("blue", 48, 11),
        ("green", 1, 24),
        ("green", 25, 0),
        ("green", 48, 23),
        ("yellow", 1, 36),
        ("yellow", 13, 0),
        ("yellow", 48, 35),
        ("orange", 0, None),
        ("blue", 49, None),
        ("yellow", 54, None),
    ],
)
def test_step_to_square(seat: str, step: int, square: int | None) -> None:
    assert ludo.square_of(ludo.SEATS.index(seat), step) == square


# (rule, board, seat to move, die, expected legal moves as (token 1-4, target step))
MOVE_RULES = [
    ("all in base, a 6 brings any token out", "", "orange", 6, {(1, 1), (2, 1), (3, 1), (4, 1)}),
    ("all in base, only a 6 leaves base", "", "orange", 5, set()),
    ("blue comes out onto step 1 too", "", "blue", 6, {(1, 1), (2, 1), (3, 1), (4, 1)}),
    ("a token on the loop moves exactly the die", "orange: 10", "orange", 4, {(1, 14)}),
    (
        "the 6 may move a token or bring one out",
        "orange: 10",
        "orange",
        6,
        {(1, 16), (2, 1), (3, 1), (4, 1)},
    ),
    ("two tokens on one step: one move each", "orange: 10 10", "orange", 2, {(1, 12), (2, 12)}),
    ("cannot land on a block", "orange: @10; blue: @13 @13", "orange", 3, set()),
    ("cannot pass a block", "orange: @10; blue: @13 @13", "orange", 5, set()),
    ("may stop short of a block", "orange: @10; blue: @13 @13", "orange", 2, {(1, 13)}),
    ("a block behind does not matter", "orange: @14; blue: @13 @13", "orange", 5, {(1, 20)}),
    ("leaving a block's square is fine", "orange: @13; blue: @13 @13", "orange", 2, {(1, 16)}),
    (
        "own tokens join their own block",
        "orange: @10 @13 @13",
        "orange",
        3,
        {(1, 14), (2, 17), (3, 17)},
    ),
    (
        "own tokens pass their own block",
        "orange: @10 @13 @13",
        "orange",
        5,
        {(1, 16), (2, 19), (3, 19)},
    ),
    ("a blocked start keeps tokens in base", "orange: @30; blue: @0 @0", "orange", 6, {(1, 37)}),
    (
        "one colour each of two is no block",
        "orange: @10; blue: @13; green: @13",
        "orange",
        5,
        {(1, 16)},
    ),
    ("and may be landed on", "orange: @10; blue: @13; green: @13", "orange", 3, {(1, 14)}),
    (
        "a resigned seat's tokens do not block",
        "orange: @10; blue: @13 @13",
        "orange!blue",
        5,
        {(1, 16)},
    ),
    (
        "a block on the last loop square bars the stretch",
        "orange: 45; blue: @47 @47",
        "orange",
        4,
        set(),
    ),
    (
        "the stretch itself is never blocked",
        "orange: 48",
        "orange",
        6,
        {(1, 54), (2, 1), (3, 1), (4, 1)},
    ),
    ("exact roll reaches home", "orange: 52 home home home", "orange", 2, {(1, 54)}),
    ("no overshoot past home", "orange: 52 home home home", "orange", 3, set()),
    ("one step left: only a 1", "orange: 53 home home home", "orange", 1, {(1, 54)}),
    ("a token at home never moves", "orange: home home home home", "orange", 1, set()),
]


@pytest.mark.parametrize(
    ("text", "mover", "die", "expected"),
    [row[1:] for row in MOVE_RULES],
    ids=[row[0] for row in MOVE_RULES],
)
def test_legal_moves(text: str, mover: str, die: int, expected: set[tuple[int, int]]) -> None:
    seat, _, resigned = mover.partition("!")
    position = board(text, seat, out=(resigned,) if resigned else ())
    moves = ludo.legal_moves(position, die)
    assert {(move.token + 1, move.target) for move in moves} == expected
    for move in moves:
        assert move.die == die
        assert move.source == position.steps(seat)[move.token]


# (rule, board before, seat to move, (token 1-4, die), board after)
CAPTURE_RULES = [
    (
        "landing on a lone opposing token captures",
        "orange: @10; blue: @13",
        "orange",
        (1, 3),
        "orange: @13",
    ),
    (
        "coming out captures on the start square",
        "blue: @0 10",
        "orange",
        (1, 6),
        "orange: @0; blue: base 10",
    ),
    (
        "two colours one each: no capture",
        "orange: @10; blue: @13; green: @13",
        "orange",
        (1, 3),
        "orange: @13; blue: @13; green: @13",
    ),
    (
        "exactly one opposing token even beside own tokens: capture",
        "orange: @10 @13; blue: @13",
        "orange",
        (1, 3),
        "orange: @13 @13",
    ),
    (
        "passing a lone token does not capture it",
        "orange: @10; blue: @13",
        "orange",
        (1, 5),
        "orange: @15; blue: @13",
    ),
    (
        "the home stretch is private: orange on step 49 is not on square 0",
        "orange: 49 1; blue: @46",
        "blue",
        (1, 2),
        "orange: 49 base; blue: @0",
    ),
    (
        "a resigned seat's token is not captured",
        "orange: @10; blue: @13",
        "orange!blue",
        (1, 3),
        "orange: @13; blue: @13",
    ),
]


@pytest.mark.parametrize(
    ("before", "mover", "play", "after"),
    [row[1:] for row in CAPTURE_RULES],
    ids=[row[0] for row in CAPTURE_RULES],
)
def test_captures(before: str, mover: str, play: tuple[int, int], after: str) -> None:
    seat, _, resigned = mover.partition("!")
    out = (resigned,) if resigned else ()
    position = board(before, seat, out)
    token, die = play
    (move,) = [m for m in ludo.legal_moves(position, die) if m.token == token - 1]
    assert ludo.apply_move(position, move) == board(after, seat, out)


def test_apply_move_rejects_an_illegal_move_with_a_sentence() -> None:
    position = board("orange: @10; blue: @13 @13", "orange")
    with pytest.raises(IllegalMove, match="square 13, blocked by the blue block"):
        ludo.apply_move(position, ludo.Move(5, 0, step_on("orange", 10), step_on("orange", 15)))


@pytest.mark.parametrize(
    ("text", "move", "message"),
    [
        ("orange: 10", ludo.Move(3, 1, 0, 3), "only a 6 brings it out"),
        ("orange: home", ludo.Move(1, 0, 54, 55), "already home"),
        ("orange: 52", ludo.Move(3, 0, 52, 55), "2 steps from home"),
        ("orange: 10", ludo.Move(3, 0, 9, 12), "on step 10, not step 9"),
        ("blue: @0 @0", ludo.Move(6, 0, 0, 1), "cannot come out"),
        ("orange: @10; blue: @13 @13", ludo.Move(3, 0, 11, 14), "it lands on square 13"),
        ("orange: 10", ludo.Move(3, 7, 10, 13), "no token 8"),
    ],
)
def test_illegal_move_messages(text: str, move: ludo.Move, message: str) -> None:
    with pytest.raises(IllegalMove, match=message):
        ludo.apply_move(board(text, "orange"), move)


def test_legal_moves_rejects_a_die_that_is_not_a_die() -> None:
    with pytest.raises(ValueError):
        ludo.legal_moves(board(), 7)
