"""Positions pasted as GNU Backgammon IDs or XGIDs: read, and written back unchanged."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engines import backgammon as bg
from bot.engines.backgammon import BackgammonState, Phase, Position
from bot.engines.backgammon_ids import encode_match_id
from bot.engines.backgammon_setup import ids_of, parse_position
from bot.engines.backgammon_xgid import BadId, XgId, parse_xgid
from tests.engines.test_backgammon_helpers import positions

START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def test_the_starting_xgid() -> None:
    state = parse_position(START_XGID)
    assert state.position == Position.initial()
    assert (state.phase, state.turn, state.match_length) == (Phase.ROLL, 0, 0)
    assert ids_of(state).xgid == START_XGID
    assert ids_of(state).position_id == "4HPwATDgc/ABMA"


def test_an_xgid_with_dice_a_cube_and_a_match() -> None:
    # top player (seat 1) on roll with 5-2, owning a 2-cube, 7-point match at 3-1, Crawford
    state = parse_position("XGID=-b----E-C---eE---c-e----B-:1:-1:-1:52:3:1:1:7:10")
    assert (state.phase, state.turn, state.dice) == (Phase.MOVE, 1, (5, 2))
    assert (state.cube_value, state.cube_owner) == (2, 1)
    assert (state.match_length, state.score, state.crawford) == (7, (3, 1), True)


def test_a_double_offered_is_the_takers_decision() -> None:
    state = parse_position("XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:0:10")
    assert (state.phase, state.turn, state.on_roll) == (Phase.CUBE, 1, 0)


def test_gnubg_ids_as_gnubg_prints_them() -> None:
    mid = encode_match_id(
        cube_value=2, cube_owner=1, on_roll=1, crawford=False, game_state=1, turn=1,
        double_offered=False, resignation=0, dice=(5, 2), match_length=5, score=(2, 1),
    )  # fmt: skip
    pasted = f"GNU Backgammon  Position ID: 4HPwATDgc/ABMA\n Match ID   : {mid}"
    state = parse_position(pasted)
    assert state.position == Position.initial()
    assert (state.phase, state.turn, state.dice, state.score) == (Phase.MOVE, 1, (5, 2), (2, 1))
    assert bg.decode_match_id(mid)["dice"] == (5, 2)
    assert parse_position("4HPwATDgc/ABMA").phase is Phase.ROLL


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("", "analyze.why.empty"),
        ("hello", "analyze.why.position_id"),
        ("4HPwATDgc/ABMA:cAkAAAAAAAA", "analyze.why.match_id"),
        ("4HPwATDgc/ABMA:x:y", "analyze.why.format"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0", "analyze.why.xgid_count"),
        ("XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10", "analyze.why.xgid_board"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10", "analyze.why.xgid_field"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10", "analyze.why.xgid_field"),
        ("XGID=-b----E-C---eE---c-e----B*:0:0:1:00:0:0:0:0:10", "analyze.why.xgid_char"),
        ("XGID=-b----P-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "analyze.why.xgid_char"),
        ("XGID=-b----O-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "analyze.why.too_many"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:0:0:10", "analyze.why.beaver"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:7:0:0:7:10", "analyze.why.score"),
        ("XGID=--------------------------:0:0:1:00:0:0:0:0:10", "analyze.why.game_over"),
    ],
)
def test_bad_ids_say_what_is_wrong(text: str, key: str) -> None:
    with pytest.raises(BadId) as caught:
        parse_position(text)
    assert caught.value.key == key


counts = st.integers(0, 15)


@st.composite
def xgids(draw: st.DrawFn) -> XgId:
    position = draw(positions())
    length = draw(st.sampled_from([0, 1, 3, 7, 25]))
    return XgId(
        bottom=position.mine,
        top=position.theirs,
        cube_log=draw(st.integers(0, 6)),
        cube_position=draw(st.sampled_from([-1, 0, 1])),
        turn=draw(st.sampled_from([-1, 1])),
        dice=draw(st.sampled_from(["00", "D", "B", "R", "11", "52", "25", "66", "31"])),
        score_bottom=draw(st.integers(0, max(0, length - 1))),
        score_top=draw(st.integers(0, max(0, length - 1))),
        rules=draw(st.integers(0, 1 if length else 3)),
        match_length=length,
        max_cube=draw(st.sampled_from([None, 10, 6])),
    )


@settings(max_examples=300, deadline=None)
@given(xgids())
def test_xgid_round_trip(xg: XgId) -> None:
    assert parse_xgid(xg.text()) == xg
    assert parse_xgid(xg.text().removeprefix("XGID=")) == xg


@st.composite
def states(draw: st.DrawFn) -> BackgammonState:
    """Positions with every phase a pasted ID can hold, any cube and match score the rules
    can reach (a double only below 64, by the cube's owner or from the centre, never in the
    Crawford game; a 1-point match without the cube, a single game with it)."""
    board = draw(positions().filter(lambda p: any(p.mine) and any(p.theirs)))
    on_roll = draw(st.integers(0, 1))
    length = draw(st.sampled_from([0, 1, 5, 11]))
    cube_enabled = length != 1 or draw(st.booleans())
    phase = draw(st.sampled_from([Phase.ROLL, Phase.MOVE, Phase.CUBE][: 3 if cube_enabled else 2]))
    dice: tuple[int, ...] = ()
    if phase is Phase.MOVE:
        dice = draw(st.tuples(st.integers(1, 6), st.integers(1, 6)))
        dice = (max(dice), min(dice))  # gnubg writes the larger die first
    score = (
        draw(st.integers(0, max(0, length - 1))) if length > 1 else 0,
        draw(st.integers(0, max(0, length - 1))) if length > 1 else 0,
    )
    crawford = length > 1 and phase is not Phase.CUBE and draw(st.booleans())
    turn = 1 - on_roll if phase is Phase.CUBE else on_roll
    cube_log, owner = 0, None
    if cube_enabled:
        cube_log = draw(st.integers(0, 5 if phase is Phase.CUBE else 6))
        owners = [None, on_roll] if phase is Phase.CUBE else [None, 0, 1]
        owner = draw(st.sampled_from(owners))
    return BackgammonState(
        position=board.swapped() if turn != on_roll else board,
        phase=phase,
        turn=turn,
        dice=dice,
        cube_value=1 << cube_log,
        cube_owner=owner,
        match_length=length,
        score=score,
        crawford=crawford,
        post_crawford=length > 1 and not crawford and length - 1 in score,
        cube_enabled=cube_enabled,
    )


def same(a: BackgammonState, b: BackgammonState) -> bool:
    """Equal as gnubg and XG see them: a single game with the cube is their money game."""
    if b.match_length == 1 and b.cube_enabled:
        b = replace(b, match_length=0)
    fields = ("position", "phase", "turn", "dice", "cube_value", "cube_owner", "cube_enabled")
    more = ("match_length", "score", "crawford", "post_crawford")
    return all(getattr(a, f) == getattr(b, f) for f in (*fields, *more))


@settings(max_examples=300, deadline=None)
@given(states())
def test_gnubg_and_xgid_round_trip_for_random_positions(state: BackgammonState) -> None:
    shared = ids_of(state)
    from_gnubg = parse_position(shared.gnubg)
    from_xgid = parse_position(shared.xgid)
    assert same(from_gnubg, state), shared.gnubg
    assert same(from_xgid, state), shared.xgid
    assert ids_of(from_gnubg) == shared
    assert ids_of(from_xgid) == shared


def _xgid(**changes: object) -> str:
    start = parse_xgid(START_XGID)
    return replace(start, **changes).text()  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (_xgid(cube_log=6, cube_position=0, dice="D"), "analyze.why.double_max"),
        (_xgid(cube_log=6, cube_position=1, dice="D"), "analyze.why.double_max"),
        (_xgid(cube_log=1, cube_position=-1, turn=1, dice="D"), "analyze.why.double_owner"),
        (_xgid(cube_log=1, cube_position=1, turn=-1, dice="D"), "analyze.why.double_owner"),
        (
            _xgid(dice="D", match_length=5, score_bottom=4, score_top=2, rules=1),
            "analyze.why.double_crawford",
        ),
        (_xgid(match_length=1, score_bottom=5, score_top=9), "analyze.why.score"),
        (_xgid(match_length=1, cube_log=1, cube_position=1), "analyze.why.one_point_cube"),
        (_xgid(match_length=1, dice="D"), "analyze.why.one_point_cube"),
    ],
    ids=[
        "double-at-64",
        "owner-doubles-at-64",
        "double-by-the-other-side",
        "double-by-the-other-side-top",
        "double-in-crawford",
        "one-point-match-at-5-9",
        "one-point-match-with-a-turned-cube",
        "one-point-match-with-a-double",
    ],
)
def test_positions_the_rules_cannot_reach_are_refused(text: str, key: str) -> None:
    with pytest.raises(BadId) as caught:
        parse_position(text)
    assert caught.value.key == key


def test_a_match_id_of_a_one_point_match_is_not_a_money_game() -> None:
    pid = parse_position(START_XGID).position
    match_id = encode_match_id(
        cube_value=1, cube_owner=None, on_roll=0, crawford=False, game_state=1, turn=0,
        double_offered=False, resignation=0, dice=(), match_length=1, score=(5, 9),
    )  # fmt: skip
    with pytest.raises(BadId) as caught:
        parse_position(f"{pid.position_id()}:{match_id}")
    assert caught.value.key == "analyze.why.score"
    one_point = encode_match_id(
        cube_value=1, cube_owner=None, on_roll=0, crawford=False, game_state=1, turn=0,
        double_offered=False, resignation=0, dice=(), match_length=1, score=(0, 0),
    )  # fmt: skip
    state = parse_position(f"{pid.position_id()}:{one_point}")
    assert (state.match_length, state.cube_enabled) == (1, False)
    assert not bg.can_double(state)
