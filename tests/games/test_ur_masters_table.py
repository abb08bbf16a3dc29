"""Masters's solved table: the solver against the plain solver on every position of the one- and
two-piece games, the Bellman equations of the three-piece game at the positions of seeded
random games, and the table wired into the game (``bot.games.ur_masters``)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba")

from bot.engines import ur_masters as engine
from bot.games import ur_masters as manifest
from tests.games import ur_sets_table_checks as checks


@pytest.mark.parametrize("pieces", [1, 2])
def test_the_table_agrees_with_the_plain_solver_on_every_position(pieces: int) -> None:
    checks.agrees_with_reference(engine.RULES, pieces)


def test_the_three_piece_table_satisfies_its_bellman_equations() -> None:
    positions = checks.sample_positions(engine.RULES, 3, games=40, seed=3)
    assert len(positions) > 300
    assert checks.bellman_residual(engine.RULES, 3, positions) < 1e-9


def test_the_game_plays_hints_and_reviews_from_its_table(tmp_path: Path) -> None:
    checks.wired(tmp_path, manifest.GAME, manifest.SOLVED)
