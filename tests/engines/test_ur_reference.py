"""Our Ur rules against the independent ``royalur`` package (Finkel rules) on random positions.

royalur is a benchmark-only tool, so this test is skipped where it is not installed.
"""

from __future__ import annotations

import pytest

pytest.importorskip("royalur")

from benchmarks.ur_royalur import disagreements, reachable_positions


def test_moves_and_results_agree_with_royalur() -> None:
    samples = reachable_positions(3_000, seed=5)
    assert disagreements(samples) == []
