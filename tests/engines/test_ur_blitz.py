"""Blitz (RoyalUr.net) against the royalur package, the oracle, on 20,000 positions of seeded
random playouts: the same legal moves, and the same position and turn after each."""

from __future__ import annotations

import json

import pytest

from bot.engines import ur_blitz
from bot.engines.common import Roll
from bot.engines.ur_sets import MASTERS_PATHS

pytest.importorskip("royalur")

from tests.engines.ur_oracle import compare


def test_the_rule_set_is_blitz() -> None:
    rules = ur_blitz.RULES
    assert (rules.pieces, rules.length, rules.off) == (5, 16, 17)
    assert rules.paths == MASTERS_PATHS
    assert not rules.safe_rosettes and rules.rosettes_grant_roll and rules.captures_grant_roll
    light, dark = rules.paths
    assert light[11:] == ((3, 7), (3, 8), (2, 8), (1, 8), (1, 7))  # through dark's lane end
    assert light[:11] != dark[:11] and light[4:11] == dark[4:11]


def test_20000_positions_agree_with_royalur() -> None:
    positions, moves, problems = compare(ur_blitz.RULES, 20_000, seed=2024)
    assert problems == []
    assert positions == 20_000 and moves > 20_000
    print(f"Blitz: {positions} positions, {moves} moves compared, 0 mismatches")


def test_a_capture_grants_a_roll_and_a_rosette_is_not_safe() -> None:
    engine = ur_blitz.ENGINE
    # dark on its square 4 (cell (3, 1), its lane); light on 13 = cell (3, 8)? No: on the
    # shared rosette (2, 4), light's and dark's square 8; light moves 6 -> 8 and captures.
    position = engine.position([6, 0, 0, 0, 0], [8, 0, 0, 0, 0], 0)
    state = ur_blitz.new_game()
    state = type(state)(position, state.phase, 0)
    state = ur_blitz.apply(state, Roll((1, 1, 0, 0)))
    after = ur_blitz.apply(state, ur_blitz.parse(state, "6-8"))
    assert after.position.dark == (0,) * 5 and after.turn == 0 and after.extra_roll
    assert after.last_move is not None and after.last_move.captured
    assert ur_blitz.load_state(json.loads(json.dumps(ur_blitz.dump_state(after)))) == after


def test_light_meets_dark_on_different_square_numbers() -> None:
    engine = ur_blitz.ENGINE
    # light's square 12 is cell (3, 7), dark's square 16
    position = engine.position([10, 0, 0, 0, 0], [16, 0, 0, 0, 0], 0)
    captures = [m for m in engine.legal_moves(position, 2) if engine.is_capture(position, m)]
    assert [m.notation() for m in captures] == ["10-12"]
