"""The game layer: opening, turns, passes, the cube, scoring, matches, Crawford, resigning."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engines import backgammon as bg
from bot.engines.backgammon import (
    BackgammonState,
    Double,
    Drop,
    GameResult,
    Phase,
    Position,
    Take,
)
from bot.engines.backgammon_position import PointCounts
from bot.engines.common import (
    Abandon,
    EndReason,
    IllegalMove,
    InvalidPosition,
    Resign,
    Roll,
    WrongPhase,
    replay,
)
from tests.engines.test_backgammon_helpers import board, naive_after


def started(
    options: dict[str, object] | None = None, dice: tuple[int, int] = (3, 1)
) -> BackgammonState:
    """A new game (or match) after the opening roll ``dice`` (white's die first)."""
    return bg.apply(bg.new_game(options), Roll(dice))


def on_roll(state: BackgammonState, seat: int, position: Position | None = None) -> BackgammonState:
    """``state`` with ``seat`` to roll (or double) on ``position`` (seen by ``seat``)."""
    return replace(state, phase=Phase.ROLL, turn=seat, dice=(), position=position or state.position)


def bear_off_last(state: BackgammonState, seat: int, loser: PointCounts) -> BackgammonState:
    """``seat`` bears off its last checker; ``loser`` is the other side in ITS own numbering."""
    ready = on_roll(state, seat, Position.from_points({1: 1}, loser))
    rolled = bg.apply(ready, Roll((2, 1)))
    (play,) = bg.legal_actions(rolled)
    return bg.apply(rolled, play)


SINGLE_LOSS = {6: 14}  # the loser has borne one checker off


# ---------------------------------------------------------------------------------------------
# Setup and the opening roll


def test_new_game_defaults() -> None:
    state = bg.new_game()
    assert (state.phase, state.turn, state.dice) == (Phase.OPENING, 0, ())
    assert (state.cube_value, state.cube_owner, state.cube_enabled) == (1, None, True)
    assert (state.match_length, state.score, state.game_number) == (1, (0, 0), 1)
    assert state.position == Position.initial()
    assert bg.legal_actions(state) == []
    assert bg.GAME == "backgammon" and bg.SEATS == ("white", "black")


@pytest.mark.parametrize(
    "options",
    [{"cube": "yes"}, {"match_length": -1}, {"match_length": 2.5}, {"colour": "red"}],
)
def test_bad_options(options: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        bg.new_game(options)


def test_opening_tie_rolls_again() -> None:
    state = bg.apply(bg.new_game(), Roll((4, 4)))
    assert (state.phase, state.last_roll, state.dice) == (Phase.OPENING, (4, 4), ())
    state = bg.apply(state, Roll((2, 5)))
    assert (state.phase, state.turn, state.dice) == (Phase.MOVE, 1, (2, 5))
    # black plays both opening numbers
    assert any(p.steps == ((13, 8), (13, 11)) for p in bg.legal_plays_for(state))


def test_opening_higher_white_die_starts() -> None:
    state = started(dice=(6, 1))
    assert (state.phase, state.turn, state.dice) == (Phase.MOVE, 0, (6, 1))


def test_roll_draws_from_the_rng_only_when_rolling_is_allowed() -> None:
    state = bg.new_game()
    assert bg.roll(state, random.Random(7)) == bg.roll(state, random.Random(7))
    assert len(bg.roll(state, random.Random(7)).dice) == 2
    with pytest.raises(WrongPhase):
        bg.roll(started(), random.Random(7))


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), (3,), (1, 2, 3)])
def test_bad_dice(dice: tuple[int, ...]) -> None:
    with pytest.raises(IllegalMove):
        bg.apply(bg.new_game(), Roll(dice))


# ---------------------------------------------------------------------------------------------
# Turns


def test_a_play_passes_the_turn_and_flips_the_board() -> None:
    state = started(dice=(3, 1))
    play = bg.parse(state, "8/5 6/5")
    after = bg.apply(state, play)
    assert (after.phase, after.turn, after.dice) == (Phase.ROLL, 1, ())
    assert after.position == naive_after(Position.initial(), "8/5 6/5").swapped()
    assert bg.state_board(after, 0) == naive_after(Position.initial(), "8/5 6/5")
    assert after.last_play == bg.LastPlay(0, ((8, 5), (6, 5)), (False, False))


def test_last_play_records_hits() -> None:
    state = replace(started(), position=board({13: 2, 6: 13}, {8: 1, 19: 14}))
    state = replace(state, dice=(5, 3))
    after = bg.apply(state, bg.parse(state, "13/8* 13/10"))
    assert after.last_play is not None
    assert dict(zip(after.last_play.steps, after.last_play.hits, strict=True)) == {
        (13, 8): True,
        (13, 10): False,
    }
    assert after.position.mine[24] == 1  # black is on the bar now


@pytest.mark.parametrize(
    ("phase", "action", "error"),
    [
        (Phase.ROLL, "play", WrongPhase),
        (Phase.MOVE, Roll((1, 2)), WrongPhase),
        (Phase.ROLL, Take(), WrongPhase),
        (Phase.MOVE, Double(), WrongPhase),
        (Phase.MOVE, Drop(), WrongPhase),
    ],
)
def test_wrong_phase(phase: Phase, action: object, error: type[Exception]) -> None:
    state = started()
    legal = bg.legal_actions(state)[0]
    state = replace(state, phase=phase)
    with pytest.raises(error):
        bg.apply(state, legal if action == "play" else action)  # type: ignore[arg-type]


def test_illegal_play_object() -> None:
    state = started(dice=(3, 1))
    other = bg.legal_actions(started(dice=(6, 5)))[0]
    with pytest.raises(IllegalMove, match="3-1"):
        bg.apply(state, other)


def test_roll_without_a_move_passes() -> None:
    closed = {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}  # in MY numbering: my 19-24
    position = board({"bar": 1, 6: 14}, closed)
    state = on_roll(started(), 0, position)
    after = bg.apply(state, Roll((6, 5)))
    assert (after.phase, after.turn, after.passed, after.last_roll) == (
        Phase.ROLL,
        1,
        True,
        (6, 5),
    )
    assert after.position == position.swapped()
    again = bg.apply(after, Roll((3, 1)))
    assert not again.passed


# ---------------------------------------------------------------------------------------------
# The cube


def test_double_take() -> None:
    state = on_roll(started(), 1)
    assert bg.legal_actions(state) == [Double()]
    offered = bg.apply(state, Double())
    assert (offered.phase, offered.turn, offered.on_roll) == (Phase.CUBE, 0, 1)
    assert offered.position == state.position.swapped()  # seen by the seat deciding
    assert bg.legal_actions(offered) == [Take(), Drop()]
    taken = bg.apply(offered, Take())
    assert (taken.phase, taken.turn, taken.cube_value, taken.cube_owner) == (
        Phase.ROLL,
        1,
        2,
        0,
    )
    assert taken.position == state.position
    assert bg.legal_actions(taken) == []  # the taker owns the cube now
    with pytest.raises(IllegalMove, match="owns the cube"):
        bg.apply(taken, Double())
    # the owner may redouble on their own turn
    redouble = bg.apply(on_roll(taken, 0), Double())
    assert bg.apply(redouble, Take()).cube_value == 4


def test_double_drop_ends_the_game_at_the_old_value() -> None:
    state = replace(on_roll(started(), 0), cube_value=4, cube_owner=0)
    dropped = bg.apply(bg.apply(state, Double()), Drop())
    assert dropped.phase is Phase.FINISHED
    assert dropped.outcome is not None
    assert (dropped.outcome.winner, dropped.outcome.points, dropped.outcome.reason) == (
        0,
        4,
        EndReason.DROP,
    )
    assert dropped.games == (GameResult(0, 4, "single", 4, EndReason.DROP),)


@pytest.mark.parametrize(
    ("changes", "allowed"),
    [
        ({}, True),
        ({"cube_value": 32, "cube_owner": 0}, True),
        ({"cube_value": 64, "cube_owner": 0}, False),
        ({"cube_value": 2, "cube_owner": 1}, False),
        ({"cube_enabled": False}, False),
        ({"crawford": True}, False),
    ],
)
def test_when_doubling_is_allowed(changes: dict[str, object], allowed: bool) -> None:
    state = replace(on_roll(started(), 0), **changes)  # type: ignore[arg-type]
    assert bg.can_double(state) is allowed
    assert (bg.legal_actions(state) == [Double()]) is allowed
    if not allowed:
        with pytest.raises(IllegalMove):
            bg.apply(state, Double())


def test_cube_option_off() -> None:
    state = on_roll(started({"cube": False}), 0)
    assert bg.legal_actions(state) == []


# ---------------------------------------------------------------------------------------------
# Scoring


@pytest.mark.parametrize(
    ("loser", "cube", "points", "kind"),
    [
        pytest.param(SINGLE_LOSS, 1, 1, "single", id="single"),
        pytest.param({6: 15}, 1, 2, "gammon", id="gammon"),
        pytest.param({6: 14, "bar": 1}, 1, 3, "backgammon", id="backgammon: bar"),
        pytest.param({6: 14, 20: 1}, 1, 3, "backgammon", id="backgammon: in the home board"),
        pytest.param({6: 15}, 4, 8, "gammon", id="gammon times the cube"),
    ],
)
def test_game_values(loser: dict[int | str, int], cube: int, points: int, kind: str) -> None:
    state = replace(started(), cube_value=cube, cube_owner=None if cube == 1 else 1)
    done = bear_off_last(state, 1, loser)
    assert done.phase is Phase.FINISHED and done.outcome is not None
    assert (done.outcome.winner, done.outcome.points, done.outcome.kind) == (1, points, kind)
    assert done.outcome.ranking == ((1,), (0,))
    assert done.score == (0, points)
    assert done.games == (GameResult(1, points, kind, cube),)


def test_money_game_counts_gammons() -> None:
    state = replace(started({"match_length": 0}), cube_value=2, cube_owner=0)
    done = bear_off_last(state, 0, {6: 15})
    assert done.outcome is not None and done.outcome.points == 4


@pytest.mark.parametrize(
    ("resigner", "opponent", "cube", "points", "kind"),
    [
        pytest.param({6: 15}, {6: 15}, 1, 1, "single", id="nobody off: single"),
        pytest.param({6: 14}, {6: 10}, 2, 2, "single", id="resigner has one off"),
        pytest.param({6: 15}, {6: 10}, 1, 2, "gammon", id="gammon locked in"),
        pytest.param({6: 14, "bar": 1}, {6: 10}, 2, 6, "backgammon", id="backgammon: bar"),
        pytest.param({6: 14, 20: 1}, {6: 10}, 1, 3, "backgammon", id="backgammon: home"),
    ],
)
def test_resign_scoring(
    resigner: dict[int | str, int],
    opponent: dict[int | str, int],
    cube: int,
    points: int,
    kind: str,
) -> None:
    # Sides in their own numbering; black resigns while white is on roll.
    position = Position.from_points(opponent, resigner)
    state = replace(on_roll(started(), 0, position), cube_value=cube)
    done = bg.apply(state, Resign(1))
    assert done.outcome is not None
    assert (done.outcome.winner, done.outcome.points, done.outcome.kind) == (0, points, kind)
    assert done.outcome.reason is EndReason.RESIGN


def test_resign_gives_up_the_whole_match() -> None:
    state = bg.apply(started({"match_length": 7}), Resign(0))
    assert state.phase is Phase.FINISHED and state.outcome is not None
    assert (state.outcome.winner, state.score) == (1, (0, 1))
    with pytest.raises(WrongPhase):
        bg.apply(state, Roll((1, 2)))
    assert bg.legal_actions(state) == []


def test_resign_in_the_opening_and_bad_seat() -> None:
    done = bg.apply(bg.new_game(), Resign(1))
    assert done.outcome is not None and (done.outcome.winner, done.outcome.points) == (0, 1)
    with pytest.raises(IllegalMove):
        bg.apply(bg.new_game(), Resign(2))


def test_abandon() -> None:
    done = bg.apply(started(), Abandon())
    assert done.phase is Phase.FINISHED and done.outcome is not None
    assert done.outcome.winner is None and done.outcome.reason is EndReason.ABANDON
    assert (done.outcome.points, done.outcome.kind) == (0, "abandon")


# ---------------------------------------------------------------------------------------------
# Matches and the Crawford rule


def _drop(state: BackgammonState, doubler: int) -> BackgammonState:
    return bg.apply(bg.apply(on_roll(state, doubler), Double()), Drop())


def test_match_to_three_with_crawford() -> None:
    state = started({"match_length": 3})
    state = _drop(state, 0)  # white 1-0
    assert (state.phase, state.score, state.game_number) == (Phase.OPENING, (1, 0), 2)
    assert (state.crawford, state.post_crawford, state.cube_value) == (False, False, 1)
    assert state.position == Position.initial() and state.last_play is None
    state = _drop(bg.apply(state, Roll((5, 2))), 0)  # white 2-0: reaches match_length - 1
    assert (state.score, state.crawford) == ((2, 0), True)
    crawford = on_roll(bg.apply(state, Roll((2, 5))), 1)
    assert bg.legal_actions(crawford) == []
    with pytest.raises(IllegalMove, match="Crawford"):
        bg.apply(crawford, Double())
    state = bear_off_last(crawford, 1, SINGLE_LOSS)  # black wins the Crawford game: 2-1
    assert (state.score, state.crawford, state.post_crawford) == ((2, 1), False, True)
    post = on_roll(bg.apply(state, Roll((6, 1))), 1)
    assert bg.legal_actions(post) == [Double()]  # doubling is back after Crawford
    state = bear_off_last(post, 0, SINGLE_LOSS)  # white wins the match 3-1
    assert state.phase is Phase.FINISHED and state.outcome is not None
    assert (state.outcome.winner, state.outcome.points, state.outcome.kind) == (0, 1, "single")
    assert state.outcome.reason is EndReason.NORMAL
    assert [g.winner for g in state.games] == [0, 0, 1, 0]
    assert state.score == (3, 1)


def test_no_second_crawford_game() -> None:
    state = replace(started({"match_length": 5}), score=(4, 2), post_crawford=True)
    state = _drop(state, 1)  # black 4-3
    assert (state.crawford, state.post_crawford) == (False, True)
    state = _drop(bg.apply(state, Roll((1, 2))), 1)  # black 4-4: no new Crawford game
    assert (state.score, state.crawford) == ((4, 4), False)


def test_match_ends_on_reaching_the_length_by_gammon() -> None:
    state = replace(started({"match_length": 5}), score=(1, 3), post_crawford=False)
    done = bear_off_last(state, 1, {6: 15})
    assert done.phase is Phase.FINISHED and done.outcome is not None
    assert (done.score, done.outcome.points, done.outcome.kind) == ((1, 5), 2, "gammon")


def test_leader_jumping_to_one_away_starts_crawford() -> None:
    state = replace(started({"match_length": 7}), score=(2, 0))
    state = bear_off_last(state, 0, {6: 14, "bar": 1})  # a backgammon: 2 + 3 = 5, not yet 6
    assert state.score == (5, 0) and not state.crawford
    state = bear_off_last(bg.apply(state, Roll((3, 2))), 0, SINGLE_LOSS)
    assert state.score == (6, 0) and state.crawford


# ---------------------------------------------------------------------------------------------
# Records: notation, replay, storage


def _random_match(seed: int, options: dict[str, object]) -> tuple[BackgammonState, list[str]]:
    rng = random.Random(seed)
    state = bg.new_game(options)
    texts: list[str] = []
    while state.phase is not Phase.FINISHED and len(texts) < 3000:
        actions = bg.legal_actions(state)
        if state.phase in (Phase.OPENING, Phase.ROLL):
            action: bg.Action = (
                actions[0] if actions and rng.random() < 0.1 else bg.roll(state, rng)
            )
        else:
            action = rng.choice(actions)
        text = bg.notation(state, action)
        assert bg.parse(state, text) == action, text
        texts.append(text)
        state = bg.apply(state, action)
    return state, texts


@pytest.mark.parametrize("seed", range(4))
def test_replay_rebuilds_the_state(seed: int) -> None:
    options: dict[str, object] = {"match_length": 3}
    state, texts = _random_match(seed, options)
    assert replay(bg, options, texts) == state


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 200), st.sampled_from([0, 1, 3]))
def test_dump_load_round_trip(seed: int, cut: int, length: int) -> None:
    options: dict[str, object] = {"match_length": length}
    _, texts = _random_match(seed, options)
    state = replay(bg, options, texts[:cut])
    data = bg.dump_state(state)
    assert bg.load_state(json.loads(json.dumps(data))) == state


def test_load_rejects_garbage() -> None:
    data = bg.dump_state(started())
    with pytest.raises(InvalidPosition):
        bg.load_state({**data, "mine": [16] + [0] * 24})
    with pytest.raises(ValueError):
        bg.load_state({**data, "phase": "nap"})


def test_cube_and_resign_notation() -> None:
    state = on_roll(started(), 0)
    pairs: list[tuple[bg.Action, str]] = [
        (Double(), "double"),
        (Resign(1), "resign 1"),
        (Abandon(), "abandon"),
    ]
    for action, text in pairs:
        assert bg.notation(state, action) == text
        assert bg.parse(state, text) == action
    offered = bg.apply(state, Double())
    assert bg.parse(offered, "take") == Take() and bg.parse(offered, "drop") == Drop()
    assert bg.parse(offered, "pass") == Drop()
    with pytest.raises(WrongPhase):
        bg.parse(state, "8/5 6/5")
    assert bg.parse(state, "roll 3-1") == Roll((3, 1))
