"""GNU Backgammon Position IDs and Match IDs against published vectors."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings

from bot.engines import backgammon as bg
from bot.engines.backgammon import Phase, Position, decode_match_id, match_id
from bot.engines.backgammon_ids import encode_match_id
from bot.engines.common import InvalidPosition
from tests.engines.test_backgammon_helpers import positions

# (Position ID, player on roll's checkers, opponent's checkers), each in its own numbering.
POSITION_VECTORS = [
    # gnubg manual, "A technical description of the Position ID": the starting position.
    ("4HPwATDgc/ABMA", {6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2}),
    # gnubg "show board" output (X on roll, resigning; O has one checker left on its 2).
    ("AgAAPBcAAAAAAA", {1: 4, 3: 3, 4: 1}, {2: 1}),
    # Board diagram in the docs of a Perl gnubg position module: X "At Roll", pips O 138, X 159.
    (
        "sOfgEwDg8+AIBg",
        {6: 5, 8: 4, 13: 3, 16: 1, 21: 2},
        {5: 2, 6: 4, 8: 3, 13: 5, 15: 1},
    ),
]


@pytest.mark.parametrize(("pid", "mine", "theirs"), POSITION_VECTORS)
def test_position_id_vectors(pid: str, mine: dict[int, int], theirs: dict[int, int]) -> None:
    position = Position.from_points(mine, theirs)
    assert position.position_id() == pid
    assert Position.from_position_id(pid) == position


def test_position_id_puts_the_player_not_on_roll_first() -> None:
    position = Position.from_position_id("sOfgEwDg8+AIBg")
    assert position.pip_counts() == (159, 138)
    assert position.swapped().position_id() != "sOfgEwDg8+AIBg"


@pytest.mark.parametrize(
    "pid",
    ["jGfkASjg8wcBMA", "zGbiIQgxH/AAWA", "zGbiIYCYD3gALA"],  # wildbg's test IDs
)
def test_position_id_round_trip_vectors(pid: str) -> None:
    assert Position.from_position_id(pid).position_id() == pid


def test_position_id_with_bar() -> None:
    position = Position.from_position_id("zGbiIQgxH/AAWA")
    assert position.mine[24] == 1  # wildbg labels this one "X (on roll) on the bar"


@pytest.mark.parametrize("bad", ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMA=", "!!!!!!!!!!!!!!"])
def test_bad_position_ids(bad: str) -> None:
    with pytest.raises(InvalidPosition):
        Position.from_position_id(bad)


def test_position_id_rejects_impossible_boards() -> None:
    # all 80 bits set: far more than 15 checkers
    with pytest.raises(InvalidPosition):
        Position.from_position_id("//////////////")


@settings(max_examples=300, deadline=None)
@given(positions())
def test_position_id_round_trip(position: Position) -> None:
    pid = position.position_id()
    assert len(pid) == 14
    assert Position.from_position_id(pid) == position


# ---------------------------------------------------------------------------------------------
# Match IDs

MATCH_VECTORS = [
    # gnubg manual: 2-4 in a 9-point match, player 0 holds a 2-cube, player 1 rolled 5-2.
    # (Written before gnubg stored "no Jacoby" in bit 66, hence jacoby=True.)
    (
        "QYkqASAAIAAA",
        dict(cube_value=2, cube_owner=0, on_roll=1, crawford=False, game_state=1, turn=1,
             double_offered=False, resignation=0, dice=(5, 2), match_length=9, score=(2, 4),
             jacoby=True),
    ),
    # gnubg manual, "Playing a game": money game, gnubg (player 0) opened with 3-1.
    (
        "MIEFAAAAAAAA",
        dict(cube_value=1, cube_owner=None, on_roll=0, crawford=False, game_state=1, turn=0,
             double_offered=False, resignation=0, dice=(3, 1), match_length=0, score=(0, 0),
             jacoby=True),
    ),
    # gnubg 1.x "show board" output: 5-point match 2-4, player 1 owns a 2-cube, is on roll
    # and offers to resign a single game, so player 0 must decide.
    (
        "USGgACAAIAAE",
        dict(cube_value=2, cube_owner=1, on_roll=1, crawford=False, game_state=1, turn=0,
             double_offered=False, resignation=1, dice=(), match_length=5, score=(2, 4),
             jacoby=False),
    ),
]  # fmt: skip


@pytest.mark.parametrize(("mid", "fields"), MATCH_VECTORS)
def test_match_id_vectors(mid: str, fields: dict[str, object]) -> None:
    assert decode_match_id(mid) == fields
    assert encode_match_id(**fields) == mid  # type: ignore[arg-type]


def test_match_id_of_the_manual_example_state() -> None:
    state = replace(
        bg.new_game({"match_length": 9}),
        phase=Phase.MOVE,
        turn=1,
        dice=(5, 2),
        cube_value=2,
        cube_owner=0,
        score=(2, 4),
    )
    # the manual's QYkqASAAIAAA plus gnubg 1.x's "no Jacoby" bit
    assert match_id(state) == "QYkqASAAIAAE"


def test_match_id_through_a_game() -> None:
    state = bg.new_game({"match_length": 5})
    opening = decode_match_id(match_id(state))
    assert opening["game_state"] == 0 and opening["match_length"] == 5
    assert opening["cube_owner"] is None and opening["dice"] == ()
    state = bg.apply(state, bg.Roll((2, 5)))  # black starts with 5-2
    moving = decode_match_id(match_id(state))
    assert (moving["on_roll"], moving["turn"], moving["dice"]) == (1, 1, (5, 2))
    assert moving["game_state"] == 1
    state = bg.apply(state, bg.legal_actions(state)[0])
    state = bg.apply(state, bg.Double())
    cube = decode_match_id(match_id(state))
    assert (cube["on_roll"], cube["turn"], cube["double_offered"]) == (0, 1, True)
    assert bg.gnubg_id(state).split(":")[0] == bg.state_board(state, 0).position_id()
    state = bg.apply(state, bg.Take())
    taken = decode_match_id(match_id(state))
    assert (taken["cube_value"], taken["cube_owner"], taken["double_offered"]) == (2, 1, False)
    assert (taken["on_roll"], taken["turn"]) == (0, 0)


def test_match_id_game_over_states() -> None:
    state = bg.new_game({"match_length": 3})
    state = bg.apply(state, bg.Roll((6, 1)))
    dropped = bg.apply(bg.apply(replace(state, phase=Phase.ROLL), bg.Double()), bg.Drop())
    assert dropped.phase is Phase.OPENING  # 1-0 in a 3-point match: play on
    resigned = bg.apply(state, bg.Resign(1))
    assert decode_match_id(match_id(resigned))["game_state"] == 3
    money = bg.new_game({"match_length": 0})
    money = bg.apply(replace(money, phase=Phase.ROLL), bg.Double())
    assert decode_match_id(match_id(bg.apply(money, bg.Drop())))["game_state"] == 4


@pytest.mark.parametrize("bad", ["", "QYkqASAAIAA", "QYkqASAAIAA*"])
def test_bad_match_ids(bad: str) -> None:
    with pytest.raises(InvalidPosition):
        decode_match_id(bad)
