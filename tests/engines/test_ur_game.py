"""The Ur game layer: the common engine contract, phases, notation, persistence."""

from __future__ import annotations

import json
import random

import pytest

from bot.engines import ur
from bot.engines.common import (
    Abandon,
    EndReason,
    GameState,
    IllegalMove,
    NotationError,
    Outcome,
    Phase,
    Resign,
    Roll,
    WrongPhase,
    replay,
)
from tests.engines.test_ur_boards import OFF, board


def test_module_contract() -> None:
    assert ur.GAME == "ur"
    assert ur.SEATS == ("light", "dark")
    state = ur.new_game()
    assert isinstance(state, GameState)
    assert (state.phase, state.turn, state.dice, state.outcome) == (Phase.ROLL, 0, (), None)
    assert state.position == ur.Position.from_squares([0] * 7, [0] * 7, "light")
    assert ur.legal_actions(state) == []


def test_options() -> None:
    assert ur.new_game({}) == ur.new_game(None) == ur.new_game()
    with pytest.raises(ValueError, match="no options"):
        ur.new_game({"pieces": 5})


def test_phases_are_enforced() -> None:
    state = ur.new_game()
    with pytest.raises(WrongPhase, match="Roll the dice first"):
        ur.apply(state, ur.Move(0, 2))
    moving = ur.apply(state, Roll((1, 1, 0, 0)))
    assert moving.phase is Phase.MOVE
    assert moving.dice == (1, 1, 0, 0)
    assert moving.roll_value == 2
    assert ur.legal_actions(moving) == [ur.Move(0, 2)]
    with pytest.raises(WrongPhase, match="already rolled"):
        ur.apply(moving, Roll((1, 0, 0, 0)))
    with pytest.raises(WrongPhase):
        ur.roll(moving, random.Random(1))


@pytest.mark.parametrize("dice", [(1, 1, 1), (1, 1, 1, 1, 0), (2, 0, 0, 0), (1, -1, 1, 1)])
def test_malformed_rolls_are_rejected(dice: tuple[int, ...]) -> None:
    with pytest.raises(IllegalMove, match="4 dice showing 0 or 1"):
        ur.apply(ur.new_game(), Roll(dice))


def test_resign_and_abandon() -> None:
    state = ur.apply(ur.new_game(), Roll((1, 0, 0, 0)))
    resigned = ur.apply(state, Resign(0))
    assert resigned.phase is Phase.FINISHED
    assert resigned.outcome == Outcome(1, ((1,), (0,)), EndReason.RESIGN)
    # Either seat may resign, also when it is not on turn.
    assert ur.apply(state, Resign(1)).outcome == Outcome(0, ((0,), (1,)), EndReason.RESIGN)
    with pytest.raises(IllegalMove):
        ur.apply(state, Resign(2))
    abandoned = ur.apply(state, Abandon())
    assert abandoned.outcome is not None
    assert abandoned.outcome.winner is None
    assert abandoned.outcome.reason is EndReason.ABANDON
    with pytest.raises(WrongPhase, match="over"):
        ur.apply(resigned, Roll((1, 0, 0, 0)))
    with pytest.raises(WrongPhase, match="over"):
        ur.apply(resigned, Resign(1))


NOTATIONS = [
    (ur.Move(0, 3), "0-3"),
    (ur.Move(4, 8), "4-8"),
    (ur.Move(13, OFF), "13-off"),
    (Roll((1, 0, 1, 1)), "roll 1-0-1-1"),
    (Resign(1), "resign 1"),
    (Abandon(), "abandon"),
]


@pytest.mark.parametrize(("action", "text"), NOTATIONS)
def test_notation_round_trip(action: ur.UrAction, text: str) -> None:
    state = ur.new_game()
    assert ur.notation(state, action) == text
    assert ur.parse(state, text) == action


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("enter-3", ur.Move(0, 3)),
        ("in-2", ur.Move(0, 2)),
        ("13-15", ur.Move(13, OFF)),
        (" 4 - 8 ", ur.Move(4, 8)),
        ("13-OFF", ur.Move(13, OFF)),
    ],
)
def test_parse_accepts_alternative_spellings(text: str, move: ur.Move) -> None:
    assert ur.parse(ur.new_game(), text) == move


def test_parse_a_bare_source_uses_the_roll_on_the_table() -> None:
    state = ur.apply(ur.UrState(board([5, 11]), Phase.ROLL, 0), Roll((1, 1, 1, 1)))
    assert ur.parse(state, "5") == ur.Move(5, 9)
    assert ur.parse(state, "11") == ur.Move(11, OFF)
    assert ur.parse(state, "enter") == ur.Move(0, 4)
    with pytest.raises(WrongPhase):
        ur.parse(ur.new_game(), "5")


@pytest.mark.parametrize("text", ["", "x-3", "4-eight", "move", "roll a-b"])
def test_parse_rejects_nonsense(text: str) -> None:
    with pytest.raises(NotationError):
        ur.parse(ur.new_game(), text)


def _random_game(seed: int, max_actions: int = 400) -> tuple[ur.UrState, list[str]]:
    rng = random.Random(seed)
    state = ur.new_game()
    texts: list[str] = []
    while state.phase is not Phase.FINISHED and len(texts) < max_actions:
        action: ur.UrAction
        if state.phase is Phase.ROLL:
            action = ur.roll(state, rng)
        else:
            action = rng.choice(ur.legal_actions(state))
        texts.append(ur.notation(state, action))
        state = ur.apply(state, action)
    return state, texts


@pytest.mark.parametrize("seed", range(20))
def test_replay_dump_and_load_rebuild_the_game(seed: int) -> None:
    state, texts = _random_game(seed)
    assert state.phase is Phase.FINISHED
    assert replay(ur, {}, texts) == state
    data = json.loads(json.dumps(ur.dump_state(state)))
    assert ur.load_state(data) == state


def test_dump_and_load_every_kind_of_state() -> None:
    rng = random.Random(11)
    state = ur.new_game()
    seen: set[tuple[Phase, bool, bool, bool]] = set()
    while state.phase is not Phase.FINISHED:
        data = json.loads(json.dumps(ur.dump_state(state)))
        assert ur.load_state(data) == state
        seen.add((state.phase, state.passed, state.extra_roll, state.last_move is not None))
        if state.phase is Phase.ROLL:
            state = ur.apply(state, ur.roll(state, rng))
        else:
            state = ur.apply(state, rng.choice(ur.legal_actions(state)))
    assert ur.load_state(ur.dump_state(state)) == state
    assert (Phase.ROLL, True, False, True) in seen  # after a pass
    assert (Phase.ROLL, False, True, True) in seen  # after a rosette


def test_pass_keeps_the_last_move_for_the_renderer() -> None:
    state = ur.apply(ur.apply(ur.new_game(), Roll((1, 1, 0, 0))), ur.Move(0, 2))
    passed = ur.apply(state, Roll((0, 0, 0, 0)))
    assert passed.passed
    assert passed.turn == 0
    assert passed.last_move == ur.LastMove(0, 0, 2)
    assert passed.last_roll == (0, 0, 0, 0)
    rolled = ur.apply(passed, Roll((1, 0, 0, 0)))
    assert not rolled.passed
