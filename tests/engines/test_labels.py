"""The labels shared by the move buttons and the board markers, one module per game."""

from __future__ import annotations

import pytest

from bot.engines import backgammon, ludo, ur
from bot.engines.backgammon_labels import movable_points, point_label, step_label
from bot.engines.backgammon_labels import move_labels as bg_move_labels
from bot.engines.backgammon_labels import piece_labels as bg_piece_labels
from bot.engines.common import Phase, Roll
from bot.engines.ludo_labels import label as ludo_label
from bot.engines.ludo_labels import move_labels as ludo_move_labels
from bot.engines.ludo_labels import piece_labels as ludo_piece_labels
from bot.engines.ur_labels import label as ur_label
from bot.engines.ur_labels import move_labels as ur_move_labels
from bot.engines.ur_labels import piece_labels as ur_piece_labels
from tests.renderers.helpers import playout


@pytest.mark.parametrize(
    ("point", "label"), [(25, "bar"), (0, "off"), (1, "1"), (13, "13"), (24, "24")]
)
def test_point_labels_read_like_the_buttons(point: int, label: str) -> None:
    assert point_label(point) == label


def test_step_labels_join_two_points() -> None:
    assert step_label((25, 22)) == "bar/22"
    assert step_label((6, 0)) == "6/off"


def test_ur_and_ludo_labels() -> None:
    assert ur_label(0) == "enter"
    assert ur_label(7) == "7"
    assert [ludo_label(t) for t in range(4)] == ["1", "2", "3", "4"]


@pytest.mark.parametrize("seed", [1, 2])
def test_ur_every_legal_move_has_its_source_label(seed: int) -> None:
    for state in playout(ur, seed):
        labels = ur_move_labels(state)
        assert set(labels) == set(ur.legal_actions(state))
        for move, label in labels.items():
            assert label == ("enter" if move.source == 0 else str(move.source))
        assert ur_piece_labels(state) == {m.source: labels[m] for m in labels}


@pytest.mark.parametrize("seed", [3])
def test_ludo_labels_are_token_numbers(seed: int) -> None:
    for state in playout(ludo, seed):
        labels = ludo_move_labels(state)
        assert set(labels) == set(ludo.legal_actions(state))
        assert all(label == str(move.token + 1) for move, label in labels.items())
        assert ludo_piece_labels(state) == {m.token: str(m.token + 1) for m in labels}


def test_backgammon_movable_points_start_some_legal_play() -> None:
    state = backgammon.apply(backgammon.new_game(), Roll((3, 1)))
    assert state.phase == Phase.MOVE
    points = movable_points(state)
    firsts = {step[0] for play in backgammon.legal_plays_for(state) for step in play.steps}
    assert set(points) <= firsts
    assert points == sorted(points, reverse=True)
    assert bg_piece_labels(state) == {p: str(p) for p in points}
    # After a first step only the continuations remain.
    play = backgammon.legal_plays_for(state)[0]
    after = movable_points(state, play.steps[:1])
    assert after and set(after) <= {25, *range(1, 25)}
    assert movable_points(state, play.steps) == []


def test_backgammon_bar_must_enter_first() -> None:
    position = backgammon.Position.from_points({"bar": 1, 13: 14}, {24: 2, 6: 13})
    state = backgammon.BackgammonState(position, backgammon.Phase.MOVE, 0, dice=(3, 5))
    assert movable_points(state) == [25]
    assert bg_piece_labels(state) == {25: "bar"}


def test_backgammon_move_labels_are_play_notations() -> None:
    state = backgammon.apply(backgammon.new_game(), Roll((6, 5)))
    labels = bg_move_labels(state)
    assert set(labels) == set(backgammon.legal_actions(state))
    assert all(labels[a] == backgammon.notation(state, a) for a in labels)
    assert bg_move_labels(backgammon.new_game()) == {}
