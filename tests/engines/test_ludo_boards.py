"""Readable Ludo board fixtures, shared by the Ludo test modules, and the tests of the helper.

``board("orange: 10 @20; blue: @13 @13", to_move="orange")`` is a position where orange has a token
on step 10 and one on loop square 20, blue has two tokens on loop square 13 (a block), and
every other token is in base. A token is written as a step (``10``), a loop square (``@13``),
``base`` or ``home``; seats not mentioned have all four tokens in base.
"""

from __future__ import annotations

import pytest

from bot.engines import ludo
from bot.engines.common import InvalidPosition


def step_on(seat: str, square: int) -> int:
    """The step of ``seat``'s token standing on loop ``square``."""
    return (square - ludo.START[ludo.SEATS.index(seat)]) % ludo.LOOP + 1


def _token(seat: str, word: str) -> int:
    if word == "base":
        return 0
    if word == "home":
        return ludo.HOME
    if word.startswith("@"):
        return step_on(seat, int(word[1:]))
    return int(word)


def board(text: str = "", to_move: str = "orange", out: tuple[str, ...] = ()) -> ludo.Position:
    steps: dict[str, list[int]] = {seat: [] for seat in ludo.SEATS}
    for part in filter(None, (chunk.strip() for chunk in text.split(";"))):
        seat, _, words = part.partition(":")
        steps[seat.strip()] = [_token(seat.strip(), word) for word in words.split()]
    for tokens in steps.values():
        tokens.extend([0] * (ludo.TOKENS - len(tokens)))
    position = ludo.Position.from_steps(steps, to_move)
    if out:
        position = ludo.Position(
            position.tokens, position.to_move, frozenset(ludo.SEATS.index(s) for s in out)
        )
    return position


def game(text: str = "", to_move: str = "orange") -> ludo.LudoState:
    """A game in the roll phase with the tokens as ``board`` reads them."""
    return ludo.LudoState(position=board(text, to_move))


def test_board_reads_steps_squares_base_and_home() -> None:
    position = board("orange: 10 @20 home; blue: @13 base 50", to_move="blue")
    assert position.steps("orange") == (10, 21, 54, 0)
    assert position.steps("blue") == (2, 0, 50, 0)
    assert position.steps("green") == (0, 0, 0, 0)
    assert position.to_move == 1


@pytest.mark.parametrize(
    ("steps", "problem"),
    [
        ({"orange": [0, 0, 0]}, "three tokens"),
        ({"orange": [0, 0, 0, 55]}, "step past home"),
        ({"orange": [0, 0, 0, -1]}, "negative step"),
        ({"purple": [0, 0, 0, 0]}, "unknown seat"),
    ],
)
def test_from_steps_rejects_broken_positions(steps: dict[str, list[int]], problem: str) -> None:
    full = {seat: [0, 0, 0, 0] for seat in ludo.SEATS}
    full.update(steps)
    with pytest.raises(InvalidPosition):
        ludo.Position.from_steps(full, "orange")


def test_from_steps_rejects_missing_seat_and_unknown_mover() -> None:
    with pytest.raises(InvalidPosition):
        ludo.Position.from_steps({"orange": [0] * 4}, "orange")
    with pytest.raises(InvalidPosition):
        ludo.Position.from_steps({seat: [0] * 4 for seat in ludo.SEATS}, "purple")
