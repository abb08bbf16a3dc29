"""Aseb (RoyalUr.net) against the royalur package, the oracle, on 20,000 positions of seeded
random playouts: the same legal moves, and the same position and turn after each."""

from __future__ import annotations

import json

import pytest

from bot.engines import ur_aseb
from bot.engines.common import Phase, Roll
from bot.engines.ur_sets import ASEB_PATHS, UrSetState

pytest.importorskip("royalur")

from tests.engines.ur_oracle import compare


def test_the_rule_set_is_aseb() -> None:
    rules = ur_aseb.RULES
    assert (rules.pieces, rules.length, rules.off) == (5, 16, 17)
    assert rules.paths == ASEB_PATHS
    assert rules.safe_rosettes and rules.rosettes_grant_roll and not rules.captures_grant_roll
    light, dark = rules.paths
    assert light[4:] == dark[4:] == tuple((2, y) for y in range(1, 13))  # the shared lane of 12
    assert max(y for _, y in rules.cells) == 12 and len(rules.cells) == 20


def test_20000_positions_agree_with_royalur() -> None:
    positions, moves, problems = compare(ur_aseb.RULES, 20_000, seed=2025)
    assert problems == []
    assert positions == 20_000 and moves > 20_000
    print(f"Aseb: {positions} positions, {moves} moves compared, 0 mismatches")


def test_a_held_rosette_blocks_and_a_capture_passes_the_turn() -> None:
    engine = ur_aseb.ENGINE
    # the middle lane's rosettes are light's and dark's squares 8, 12 and 16
    position = engine.position([6, 9, 0, 0, 0], [8, 11, 0, 0, 0], 0)
    assert [m.notation() for m in engine.legal_moves(position, 2)] == ["0-2", "9-11"]
    state = UrSetState(position, Phase.ROLL, 0)
    state = ur_aseb.apply(state, Roll((1, 1, 0, 0)))
    after = ur_aseb.apply(state, ur_aseb.parse(state, "9-11"))
    assert after.position.dark == (0, 0, 0, 0, 8) and after.turn == 1 and not after.extra_roll
    assert ur_aseb.load_state(json.loads(json.dumps(ur_aseb.dump_state(after)))) == after
