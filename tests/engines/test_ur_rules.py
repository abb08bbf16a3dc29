"""Ur rules, one table row per rule or ruling (shared/rules/RULINGS.md, Finkel ruleset).

Boards are drawn as in ``test_ur_boards.diagram``: lanes read 4 3 2 1 | | 14 13, the shared
lane 5..12; L / D are pieces, * an empty rosette. Pieces not listed wait on square 0.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass

import pytest

from bot.engines import ur
from bot.engines.common import IllegalMove, InvalidPosition, Outcome, Phase, Roll
from tests.engines.test_ur_boards import OFF, board


@dataclass(frozen=True)
class Case:
    rule: str
    position: ur.Position
    roll: int
    moves: set[str]  # the legal moves, in notation


MOVE_CASES = [
    # Entering with roll r lands on square r (RULINGS: "for the price of one dot").
    # light  * . . . | | * .   waiting 7
    Case("enter with 1", board(), 1, {"0-1"}),
    Case("enter with 2", board(), 2, {"0-2"}),
    Case("enter with 3", board(), 3, {"0-3"}),
    Case("enter with 4 lands on the rosette", board(), 4, {"0-4"}),
    # Several waiting pieces make one move, not seven.
    # light  * . . . | | * .   waiting 7   (roll 2: one move 0-2)
    # Exact bear-off: s + r == 15.
    # light  * . . . | | * L   waiting 0, off 6
    Case("13 bears off with exactly 2", board([13] + [OFF] * 6), 2, {"13-off"}),
    Case("13 cannot bear off with 3", board([13] + [OFF] * 6), 3, set()),
    Case("13 cannot bear off with 4", board([13] + [OFF] * 6), 4, set()),
    Case("13 moves 1 to the rosette 14", board([13] + [OFF] * 6), 1, {"13-14"}),
    Case("14 bears off with 1", board([14] + [OFF] * 6), 1, {"14-off"}),
    Case("11 bears off with 4", board([11] + [OFF] * 6), 4, {"11-off"}),
    # Own pieces block: no landing on your own piece.
    # light  * L . L | | * .   waiting 5   (roll 2: 1-3 blocked)
    Case("own piece blocks", board([1, 3]), 2, {"0-2", "3-5"}),
    # light  * . . L | | * .   waiting 6   (roll 1: entering onto 1 is blocked)
    Case("own piece blocks entering", board([1]), 1, {"1-2"}),
    # shared . L . * L . . .   off 5 (roll 3: 6-9 is blocked by the piece on 9)
    Case("own piece blocks in the shared lane", board([6, 9] + [OFF] * 5), 3, {"9-12"}),
    # Capture in the shared lane.
    # light  * L . . | | * .
    # shared . D . * . . . .   (roll 3: 3-6 captures; entering onto 3 is blocked)
    Case("capture on a shared square", board([3], [6]), 3, {"3-6"}),
    # No capture in the private lanes: light's 3 and dark's 3 are different squares.
    # light  * . . L | | * .
    # dark   * D . . | | * .   (roll 2: 1-3 is a plain move, dark stays)
    Case("private lanes do not interact", board([1], [3]), 2, {"0-2", "1-3"}),
    # light  * . . . | | * .
    # shared . . . * . . . L
    # dark   * . . . | | D .   (roll 1: 12-13 goes into light's own lane, dark's 13 is elsewhere)
    Case("private end lanes do not interact", board([12], [13]), 1, {"0-1", "12-13"}),
    # The shared rosette 8 is safe: a move onto an occupied 8 is illegal.
    # light  * . . . | | * .
    # shared L . . D . . . .   (roll 3: 5-8 blocked by dark)
    Case("shared rosette held by the opponent", board([5], [8]), 3, {"0-3"}),
    # shared L . . L . . . .   (roll 3: 5-8 blocked by light's own piece)
    Case("shared rosette held by yourself", board([5, 8]), 3, {"0-3", "8-11"}),
    # Rosettes 4 and 14 are private: the opponent on its own 4 does not block.
    # light  L . . . | | * .
    # dark   D . . . | | D .   (roll 4 for dark: enters onto its own 4 though light is on its 4)
    Case("private rosette 4 is per side", board([4], [4, 14], "dark"), 4, {"4-8"}),
    Case("roll 0 has no move", board([3], [6]), 0, set()),
    # Everything blocked.
    # light  * . . . | | * .
    # shared L . . D . . . .   waiting 0, off 6   (roll 3: the only piece is blocked)
    Case("all pieces blocked", board([5] + [OFF] * 6, [8]), 3, set()),
]


@pytest.mark.parametrize("case", MOVE_CASES, ids=lambda case: case.rule)
def test_legal_moves(case: Case) -> None:
    moves = ur.legal_moves(case.position, case.roll)
    assert {move.notation() for move in moves} == case.moves
    assert len(moves) == len(case.moves), "moves must be distinct"


@dataclass(frozen=True)
class Step:
    rule: str
    before: ur.Position
    move: ur.Move
    after: ur.Position
    again: bool


STEP_CASES = [
    # light  * . . L | | * .
    # shared . D . * . . . .   3-6 captures: dark's piece goes back to 0
    Step(
        "capture sends the piece home",
        board([3], [6]),
        ur.Move(3, 6),
        board([6], [], "dark"),
        False,
    ),
    # dark   * . . L(dark on 1) and light on its own 3: no capture in private lanes
    Step(
        "no capture in private lanes",
        board([3], [1], "dark"),
        ur.Move(1, 3),
        board([3], [3], "light"),
        False,
    ),
    Step("entering onto rosette 4 rolls again", board(), ur.Move(0, 4), board([4]), True),
    Step("landing on the shared rosette rolls again", board([5]), ur.Move(5, 8), board([8]), True),
    Step("landing on rosette 14 rolls again", board([12]), ur.Move(12, 14), board([14]), True),
    Step(
        "dark's rosette rolls again for dark",
        board([], [6], "dark"),
        ur.Move(6, 8),
        board([], [8], "dark"),
        True,
    ),
    Step("a plain move passes the turn", board([5]), ur.Move(5, 7), board([7], [], "dark"), False),
    Step(
        "bearing off from 14 gives no extra roll",
        board([14]),
        ur.Move(14, OFF),
        board([OFF], [], "dark"),
        False,
    ),
    Step(
        "a capture gives no extra roll",
        board([5], [7]),
        ur.Move(5, 7),
        board([7], [], "dark"),
        False,
    ),
]


@pytest.mark.parametrize("case", STEP_CASES, ids=lambda case: case.rule)
def test_apply_move(case: Step) -> None:
    assert ur.apply_move(case.before, case.move) == (case.after, case.again)


ILLEGAL_CASES = [
    # shared L . . D . . . .
    (board([5], [8]), ur.Move(5, 8), "square 8 is a rosette held by your opponent"),
    (board([1, 3]), ur.Move(1, 3), "square 3 holds one of your own pieces"),
    (board([13] + [OFF] * 6), ur.Move(13, 16), "squares run from 0 to 15"),
    (board([2]), ur.Move(3, 5), "no piece on square 3"),
    (board([1] * 1 + [OFF] * 6), ur.Move(0, 2), "no pieces left to enter"),
    (board([2]), ur.Move(2, 7), "a roll is at most 4"),
]


@pytest.mark.parametrize(("position", "move", "reason"), ILLEGAL_CASES)
def test_illegal_moves_explain_themselves(
    position: ur.Position, move: ur.Move, reason: str
) -> None:
    with pytest.raises(IllegalMove, match=reason):
        ur.apply_move(position, move)


def test_wrong_distance_for_the_roll_is_explained() -> None:
    # light  * . . . | | * L   off 6: with a 3, 13 would need exactly 2
    state = _state_with(board([13] + [OFF] * 6), (1, 1, 1, 0), moves_possible=False)
    assert state.passed
    state = _state_with(board([5, 13] + [OFF] * 5), (1, 1, 1, 0))
    with pytest.raises(IllegalMove, match="needs exactly 2 to bear off"):
        ur.apply(state, ur.Move(13, OFF))
    with pytest.raises(IllegalMove, match="You rolled 3: the piece on square 5 goes to square 8"):
        ur.apply(state, ur.Move(5, 7))


def _state_with(
    position: ur.Position, dice: tuple[int, ...], moves_possible: bool = True
) -> ur.UrState:
    state = ur.UrState(position, Phase.ROLL, position.seat)
    after = ur.apply(state, Roll(dice))
    assert (after.phase is Phase.MOVE) == moves_possible
    return after


PASS_CASES = [
    ("roll 0 passes", board([3]), (0, 0, 0, 0)),
    # shared L . . D . . . .   off 6: a 3 is blocked by the safe rosette
    ("blocked roll passes", board([5] + [OFF] * 6, [8]), (1, 1, 0, 1)),
    # light  * . . . | | * L   off 6: a 4 overshoots
    ("overshooting roll passes", board([13] + [OFF] * 6), (1, 1, 1, 1)),
]


@pytest.mark.parametrize(("rule", "position", "dice"), PASS_CASES, ids=[c[0] for c in PASS_CASES])
def test_rolls_without_a_move_pass_the_turn(
    rule: str, position: ur.Position, dice: tuple[int, ...]
) -> None:
    state = ur.UrState(position, Phase.ROLL, 0)
    after = ur.apply(state, Roll(dice))
    assert after.passed
    assert after.phase is Phase.ROLL
    assert after.turn == 1
    assert after.position == position._replace(to_move="dark")
    assert after.last_roll == dice
    assert after.dice == ()


def test_rosette_keeps_the_turn_in_the_game_layer() -> None:
    state = ur.apply(ur.new_game(), Roll((1, 1, 1, 1)))
    after = ur.apply(state, ur.Move(0, 4))
    assert (after.phase, after.turn, after.extra_roll) == (Phase.ROLL, 0, True)
    assert after.last_move == ur.LastMove(0, 0, 4, captured=False)


def test_capture_is_recorded_for_the_renderer() -> None:
    # shared L . D * . . . .   light rolls 2: 5-7 captures
    state = _state_with(board([5], [7]), (1, 1, 0, 0))
    after = ur.apply(state, ur.Move(5, 7))
    assert after.last_move == ur.LastMove(0, 5, 7, captured=True)
    assert after.position.squares("dark") == (0,) * 7
    assert (after.turn, after.extra_roll) == (1, False)


def test_bearing_off_the_seventh_piece_wins() -> None:
    # light  * . . . | | L .   waiting 0, off 6; dark to lose
    state = _state_with(board([14] + [OFF] * 6, [6, 9]), (0, 0, 1, 0))
    after = ur.apply(state, ur.Move(14, OFF))
    assert after.phase is Phase.FINISHED
    assert after.outcome == Outcome(0, ((0,), (1,)))
    assert ur.outcome(after) == after.outcome
    assert ur.legal_actions(after) == []


def test_dark_can_win_too() -> None:
    position = board([3], [13] + [OFF] * 6, "dark")
    state = ur.UrState(position, Phase.ROLL, 1)
    after = ur.apply(ur.apply(state, Roll((1, 0, 1, 0))), ur.Move(13, OFF))
    assert after.outcome == Outcome(1, ((1,), (0,)))


def test_six_off_is_not_a_win() -> None:
    state = _state_with(board([13, 14] + [OFF] * 5), (0, 0, 1, 0))
    after = ur.apply(state, ur.Move(14, OFF))
    assert after.outcome is None
    assert after.phase is Phase.ROLL


POSITION_ERRORS = [
    ([0] * 6, [0] * 7, "light", "needs 7 pieces"),
    ([0] * 7, [0] * 8, "light", "needs 7 pieces"),
    ([16] + [0] * 6, [0] * 7, "light", "not in 0..15"),
    ([-1] + [0] * 6, [0] * 7, "light", "not in 0..15"),
    ([3, 3] + [0] * 5, [0] * 7, "light", "two pieces on square 3"),
    ([0] * 7, [9, 9] + [0] * 5, "light", "two pieces on square 9"),
    ([6] + [0] * 6, [6] + [0] * 6, "light", "both have a piece on shared square 6"),
    ([0] * 7, [0] * 7, "white", "Unknown side"),
]


@pytest.mark.parametrize(("light", "dark", "to_move", "reason"), POSITION_ERRORS)
def test_invalid_positions_are_rejected(
    light: list[int], dark: list[int], to_move: str, reason: str
) -> None:
    with pytest.raises(InvalidPosition, match=reason):
        ur.Position.from_squares(light, dark, to_move)


def test_valid_positions_allow_stacks_off_board_and_private_overlaps() -> None:
    # Any number on 0 and on 15; light's 3 and dark's 3, light's 13 and dark's 13 coexist.
    position = ur.Position.from_squares([0, 0, 3, 13, 15, 15, 15], [3, 13, 0, 0, 0, 15, 15], "dark")
    assert position.squares("light") == (0, 0, 3, 13, 15, 15, 15)
    assert position.squares("dark") == (0, 0, 0, 3, 13, 15, 15)
    assert position.to_move == "dark"
    assert position.seat == 1
    # Order does not matter: the same pieces listed differently give an equal, equal-hashing
    # position.
    same = ur.Position.from_squares([15, 13, 15, 3, 0, 15, 0], [15, 0, 13, 0, 3, 15, 0], "dark")
    assert same == position
    assert hash(same) == hash(position)


def test_dice_follow_the_binomial_distribution() -> None:
    rng = random.Random(2024)
    state = ur.new_game()
    rolls = 16_000
    counts = Counter(sum(ur.roll(state, rng).dice) for _ in range(rolls))
    expected = [rolls * p for p in ur.ROLL_PROBABILITIES]
    chi_square = sum((counts[value] - expected[value]) ** 2 / expected[value] for value in range(5))
    # 4 degrees of freedom: P(chi2 > 18.47) = 0.001.
    assert chi_square < 18.47, (counts, expected)
    assert math.isclose(sum(ur.ROLL_PROBABILITIES), 1.0)


def test_roll_draws_four_binary_dice_from_the_given_rng() -> None:
    first = ur.roll(ur.new_game(), random.Random(7))
    again = ur.roll(ur.new_game(), random.Random(7))
    assert first == again
    assert len(first.dice) == 4
    assert set(first.dice) <= {0, 1}
