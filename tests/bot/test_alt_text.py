"""The board image's alt text says the position in words: read back, the words give the
position again, for random positions of each game (states along seeded random playouts)."""

from __future__ import annotations

import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot import games
from bot.engines import backgammon
from bot.engines.common import Phase, Roll
from bot.service.models import Game, SeatInfo
from bot.ui.board_view import describe
from renderers import gallery

NAMES = ("Alice", "Bob", "Carol", "Dave")
UR_SIDE = re.compile(r"(\w+) \(\w+\): (\d+) waiting, on squares ([\d, ]+|none), (\d+) borne off\.")
LUDO_SEAT = re.compile(r"(\w+) \(\w+\): (\d+) in the yard, on steps ([\d, ]+|none), (\d+) home\.")
BG_SIDE = re.compile(
    r"(\w+) \(\w+\): (?:on points ((?:\d+ \(\d+\)(?:, )?)+)|no checker left on the points), "
    r"(\d+) on the bar, "
    r"(\d+) borne off, (\d+) pips\."
)
BG_HEADER = re.compile(r"numbered 1 to 24 from (\w+)'s side")
TO_MOVE = re.compile(r"(\w+) \(\w+\) to move with ([\d-]+)\.")


def some_state(kind: str, seed: int, fraction: float) -> tuple[Game, Any]:
    spec = games.get(kind)
    states = list(gallery.playout(spec.rules, spec.rules.new_game(None), random.Random(seed)))
    state = states[min(len(states) - 1, int(fraction * len(states)))]
    seats = tuple(SeatInfo(i, i + 1, NAMES[i]) for i in range(len(spec.seats)))
    return Game("0badc0de", kind, 1, 2, None, {"locale": "en"}, state, 9, 0, seats), state


def numbers(text: str) -> list[int]:
    return [] if text == "none" else [int(n) for n in text.split(", ")]


def check_dice(words: str, game: Game, state: Any, dice: str) -> None:
    if state.outcome is None and state.phase == Phase.MOVE:
        found = TO_MOVE.search(words)
        assert found is not None, words
        assert found[2] == dice


SEEDS = st.integers(0, 2**32 - 1)
FRACTIONS = st.floats(0.0, 1.0)


@settings(max_examples=25, deadline=None)
@given(SEEDS, FRACTIONS)
def test_ur_positions_read_back_from_the_alt_text(seed: int, fraction: float) -> None:
    game, state = some_state("ur", seed, fraction)
    words = describe(game)
    assert len(words) <= 1024
    sides = UR_SIDE.findall(words)
    assert [s[0] for s in sides] == ["Alice", "Bob"], words
    for (_, waiting, squares, off), side in zip(sides, ("light", "dark"), strict=True):
        read = [0] * int(waiting) + numbers(squares) + [15] * int(off)
        assert tuple(read) == state.position.squares(side), words
    check_dice(words, game, state, str(sum(state.dice)))


@settings(max_examples=25, deadline=None)
@given(SEEDS, FRACTIONS)
def test_ludo_positions_read_back_from_the_alt_text(seed: int, fraction: float) -> None:
    game, state = some_state("ludo", seed, fraction)
    words = describe(game)
    assert len(words) <= 1024
    seats = LUDO_SEAT.findall(words)
    assert [s[0] for s in seats] == list(NAMES), words
    for seat, (_, yard, steps, home) in enumerate(seats):
        read = [0] * int(yard) + numbers(steps) + [54] * int(home)
        assert read == sorted(state.position.steps(seat)), words
    check_dice(words, game, state, "-".join(map(str, state.dice)))


@settings(max_examples=25, deadline=None)
@given(SEEDS, FRACTIONS)
def test_backgammon_positions_read_back_from_the_alt_text(seed: int, fraction: float) -> None:
    game, state = some_state("backgammon", seed, fraction)
    words = describe(game)
    assert len(words) <= 1024
    header = BG_HEADER.search(words)
    assert header is not None and header[1] == NAMES[state.turn], words
    sides = BG_SIDE.findall(words)
    assert [s[0] for s in sides] == [NAMES[state.turn], NAMES[1 - state.turn]], words
    boards = []
    for side, (_, points, bar, off, pips) in enumerate(sides):
        board = [0] * 25
        for point, count in re.findall(r"(\d+) \((\d+)\)", points):
            # The second side's points are counted from the first side's: p is its 25 - p.
            index = int(point) - 1 if side == 0 else 24 - int(point)
            board[index] = int(count)
        board[24] = int(bar)
        boards.append(tuple(board))
        assert int(off) == 15 - sum(board)
        assert int(pips) == state.position.pip_counts()[side]
    assert boards == [state.position.mine, state.position.theirs], words
    if state.cube_enabled:
        assert f"Cube at {state.cube_value}," in words
    # As the status line and the move lines say the roll: the higher die first ("2-1").
    check_dice(words, game, state, "-".join(map(str, sorted(state.dice, reverse=True))))


def test_the_alt_text_is_in_the_boards_language() -> None:
    for kind, word in (("ur", "wartend"), ("ludo", "Startfeld"), ("backgammon", "Punkten")):
        game, _ = some_state(kind, 7, 0.5)
        german = Game(game.id, kind, 1, 2, None, {"locale": "de"}, game.state, 9, 0, game.seats)
        assert word in describe(german), describe(german)


def test_a_finished_backgammon_board_says_its_result_as_its_banner_does() -> None:
    """A game of a match that ends on a dropped double: the picture's banner says who won it
    and the match score, and so does its description; a side with every checker borne off
    is said in words, not "on points none"."""
    start = backgammon.new_game({"match_length": 3})
    opened = backgammon.apply(start, Roll((6, 1)))
    played = backgammon.apply(opened, backgammon.legal_plays_for(opened)[0])
    offered = backgammon.apply(played, backgammon.Double())
    ended = backgammon.finished_game(offered, backgammon.Drop())
    assert ended is not None
    seats = (SeatInfo(0, 1, "Alice"), SeatInfo(1, 2, "Bob"))
    game = Game("0badc0de", "backgammon", 1, 2, None, {"locale": "en"}, start, 9, 0, seats)
    words = describe(game, ended)
    assert words.endswith(
        "Game 1: Alice dropped the double: Bob wins 1 point · Match score Alice 0 – Bob 1 (to 3)."
    ), words
    assert "none" not in words
    # A whole game played out: the winner's side has no checker left, and the game's result
    # closes the description, as it closes the message under the board.
    game, state = some_state("backgammon", 1, 1.0)  # seed 1: borne off, a single game
    assert state.phase == Phase.FINISHED and state.outcome.reason == "normal"
    words = describe(game)
    assert "no checker left on the points" in words and "none" not in words, words
    assert re.search(r"Alice \(white\) wins a single game [^.]*points\.$", words), words
