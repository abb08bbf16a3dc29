"""The labels shared by the move buttons and the board markers."""

from __future__ import annotations

import pytest

from bot.engines import backgammon, ludo, ur
from bot.engines.common import Phase, Roll
from renderers.labels import (
    game_of,
    ludo_label,
    movable_points,
    move_labels,
    piece_labels,
    point_label,
    ur_label,
)
from tests.renderers.helpers import playout


@pytest.mark.parametrize(
    ("point", "label"), [(25, "bar"), (0, "off"), (1, "1"), (13, "13"), (24, "24")]
)
def test_point_labels_read_like_the_buttons(point: int, label: str) -> None:
    assert point_label(point) == label


def test_ur_and_ludo_labels() -> None:
    assert ur_label(0) == "enter"
    assert ur_label(7) == "7"
    assert [ludo_label(t) for t in range(4)] == ["1", "2", "3", "4"]


def test_game_of_reads_the_engine_module() -> None:
    assert game_of(ur.new_game()) == "ur"
    assert game_of(ludo.new_game()) == "ludo"
    assert game_of(backgammon.new_game()) == "backgammon"
    with pytest.raises(TypeError):
        game_of(object())


@pytest.mark.parametrize("seed", [1, 2])
def test_ur_every_legal_move_has_its_source_label(seed: int) -> None:
    for state in playout(ur, seed):
        labels = move_labels(state)
        assert set(labels) == set(ur.legal_actions(state))
        for move, label in labels.items():
            assert label == ("enter" if move.source == 0 else str(move.source))
        assert piece_labels(state) == {m.source: labels[m] for m in labels}


@pytest.mark.parametrize("seed", [3])
def test_ludo_labels_are_token_numbers(seed: int) -> None:
    for state in playout(ludo, seed):
        labels = move_labels(state)
        assert set(labels) == set(ludo.legal_actions(state))
        assert all(label == str(move.token + 1) for move, label in labels.items())
        assert piece_labels(state) == {m.token: str(m.token + 1) for m in labels}


def test_backgammon_movable_points_start_some_legal_play() -> None:
    state = backgammon.apply(backgammon.new_game(), Roll((3, 1)))
    assert state.phase is Phase.MOVE
    points = movable_points(state)
    firsts = {step[0] for play in backgammon.legal_plays_for(state) for step in play.steps}
    assert set(points) <= firsts
    assert points == sorted(points, reverse=True)
    assert piece_labels(state) == {p: str(p) for p in points}
    # After a first step only the continuations remain.
    play = backgammon.legal_plays_for(state)[0]
    after = movable_points(state, play.steps[:1])
    assert after and set(after) <= {25, *range(1, 25)}
    assert movable_points(state, play.steps) == []


def test_backgammon_bar_must_enter_first() -> None:
    position = backgammon.Position.from_points({"bar": 1, 13: 14}, {24: 2, 6: 13})
    state = backgammon.BackgammonState(position, Phase.MOVE, 0, dice=(3, 5))
    assert movable_points(state) == [25]
    assert piece_labels(state) == {25: "bar"}


def test_backgammon_move_labels_are_play_notations() -> None:
    state = backgammon.apply(backgammon.new_game(), Roll((6, 5)))
    labels = move_labels(state)
    assert set(labels) == set(backgammon.legal_actions(state))
    assert all(labels[a] == backgammon.notation(state, a) for a in labels)
    assert move_labels(backgammon.new_game()) == {}
