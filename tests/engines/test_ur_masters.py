"""Masters (RoyalUr.net) against the royalur package, the oracle, on 20,000 positions of seeded
random playouts: the same legal moves, and the same position and turn after each."""

from __future__ import annotations

import json

import pytest

from bot.engines import ur_masters
from bot.engines.common import Phase, Roll
from bot.engines.ur_sets import MASTERS_PATHS, UrSetState

pytest.importorskip("royalur")

from tests.engines.ur_oracle import compare


def test_the_rule_set_is_masters() -> None:
    rules = ur_masters.RULES
    assert (rules.pieces, rules.length, rules.off) == (7, 16, 17)
    assert rules.paths == MASTERS_PATHS
    assert not rules.safe_rosettes and rules.rosettes_grant_roll
    assert not rules.captures_grant_roll


def test_20000_positions_agree_with_royalur() -> None:
    positions, moves, problems = compare(ur_masters.RULES, 20_000, seed=2026)
    assert problems == []
    assert positions == 20_000 and moves > 20_000
    print(f"Masters: {positions} positions, {moves} moves compared, 0 mismatches")


def test_a_rosette_is_not_safe_and_a_capture_passes_the_turn() -> None:
    engine = ur_masters.ENGINE
    position = engine.position([6, 0, 0, 0, 0, 0, 0], [8, 0, 0, 0, 0, 0, 0], 0)
    state = UrSetState(position, Phase.ROLL, 0)
    state = ur_masters.apply(state, Roll((1, 1, 0, 0)))
    after = ur_masters.apply(state, ur_masters.parse(state, "6-8"))
    assert after.position.dark == (0,) * 7 and after.turn == 0  # the rosette rolls again
    assert after.last_move is not None and after.last_move.captured
    # light's square 14 is dark's 14 (cell (2, 8)): a capture there passes the turn
    position = engine.position([12, 0, 0, 0, 0, 0, 0], [14, 0, 0, 0, 0, 0, 0], 0)
    state = ur_masters.apply(UrSetState(position, Phase.ROLL, 0), Roll((1, 1, 0, 0)))
    after = ur_masters.apply(state, ur_masters.parse(state, "12-14"))
    assert after.position.dark == (0,) * 7 and after.turn == 1 and not after.extra_roll
    assert ur_masters.load_state(json.loads(json.dumps(ur_masters.dump_state(after)))) == after
