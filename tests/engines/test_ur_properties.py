"""Hypothesis properties of the Ur engine, over arbitrary valid positions and random games."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engines import ur
from bot.engines.common import IllegalMove, Phase, replay

BOARD_SQUARES = range(1, 15)


@st.composite
def positions(draw: st.DrawFn) -> ur.Position:
    """Any valid position: per side a set of board squares plus waiting / borne-off pieces."""
    light_board = draw(st.sets(st.sampled_from(BOARD_SQUARES), max_size=ur.PIECES))
    # Dark may share only the private squares' numbers with light, not shared squares.
    free_for_dark = [s for s in BOARD_SQUARES if s not in ur.SHARED_SQUARES or s not in light_board]
    dark_board = draw(st.sets(st.sampled_from(free_for_dark), max_size=ur.PIECES))
    squares = []
    for on_board in (light_board, dark_board):
        waiting = draw(st.integers(0, ur.PIECES - len(on_board)))
        off = ur.PIECES - len(on_board) - waiting
        squares.append([0] * waiting + sorted(on_board) + [ur.OFF] * off)
    to_move = draw(st.sampled_from(ur.SEATS))
    return ur.Position.from_squares(squares[0], squares[1], to_move)


def assert_valid(position: ur.Position) -> None:
    light = position.squares("light")
    dark = position.squares("dark")
    assert len(light) == len(dark) == ur.PIECES
    for squares in (light, dark):
        on_board = [s for s in squares if 0 < s < ur.OFF]
        assert len(on_board) == len(set(on_board)), "two own pieces on one square"
        assert all(0 <= s <= ur.OFF for s in squares)
    shared_light = {s for s in light if s in ur.SHARED_SQUARES}
    shared_dark = {s for s in dark if s in ur.SHARED_SQUARES}
    assert not shared_light & shared_dark, "two pieces on one shared square"
    # The public constructor accepts it and builds the same position.
    assert ur.Position.from_squares(light, dark, position.to_move) == position


@given(positions(), st.integers(0, 4))
def test_moves_keep_the_invariants(position: ur.Position, roll: int) -> None:
    moves = ur.legal_moves(position, roll)
    assert len(set(moves)) == len(moves)
    if roll == 0:
        assert moves == []
    mover = position.to_move
    other = "dark" if mover == "light" else "light"
    for move in moves:
        assert move.target - move.source == roll
        after, again = ur.apply_move(position, move)
        assert_valid(after)
        assert again == (move.target in ur.ROSETTE_SQUARES)
        assert after.to_move == (mover if again else other)
        # The mover's pieces: one moved from source to target, nothing else changed.
        before_mine = list(position.squares(mover))
        before_mine.remove(move.source)
        assert sorted([*before_mine, move.target]) == list(after.squares(mover))
        # The opponent loses at most the piece on the target, and only in the shared lane.
        captured = after.squares(other) != position.squares(other)
        assert captured == ur.is_capture(position, move)
        if captured:
            assert move.target in ur.SHARED_SQUARES and move.target != ur.SHARED_ROSETTE
            assert after.waiting(other) == position.waiting(other) + 1


@given(positions(), st.integers(-1, 16), st.integers(-1, 16))
def test_apply_move_accepts_exactly_the_legal_moves(
    position: ur.Position, source: int, target: int
) -> None:
    move = ur.Move(source, target)
    legal = (
        move in ur.legal_moves(position, target - source) if 0 <= target - source <= 4 else False
    )
    try:
        ur.apply_move(position, move)
    except IllegalMove as error:
        assert not legal
        assert str(error).endswith(".")
    else:
        assert legal


@given(positions())
def test_squares_round_trip(position: ur.Position) -> None:
    assert_valid(position)
    assert hash(position) == hash(
        ur.Position.from_squares(
            list(position.squares("light")), list(position.squares("dark")), position.to_move
        )
    )


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_games_replay_round_trip_and_parse_their_notation(seed: int) -> None:
    rng = random.Random(seed)
    state = ur.new_game()
    texts: list[str] = []
    while state.phase is not Phase.FINISHED:
        candidates: list[ur.UrAction] = list(ur.legal_actions(state))
        if state.phase is Phase.ROLL:
            candidates = [ur.roll(state, rng)]
        for action in candidates:
            assert ur.parse(state, ur.notation(state, action)) == action
        action = rng.choice(candidates)
        texts.append(ur.notation(state, action))
        state = ur.apply(state, action)
        assert_valid(state.position)
        assert state.position.seat == state.turn or state.phase is Phase.FINISHED
        assert ur.load_state(json.loads(json.dumps(ur.dump_state(state)))) == state
    assert replay(ur, {}, texts) == state
    assert state.outcome is not None and state.outcome.winner in (0, 1)
