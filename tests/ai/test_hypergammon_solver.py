"""Hypergammon's solver: the numba solver agrees with an independent pure-Python one on the
1-checker game, a reduced (2-checker) table satisfies its Bellman equations to 1e-9, and the
file round-trips through the standard-library reader and the ``tabula hyper-table``
command."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot import cli
from bot.ai import hypergammon_solver as solver
from bot.ai import hypergammon_table as table
from tests.ai import hypergammon_reference as reference

TOLERANCE = 1e-9


@pytest.fixture(scope="module")
def one() -> solver.Solved:
    return solver.solve(1)


@pytest.fixture(scope="module")
def two() -> solver.Solved:
    return solver.solve(2)


def test_the_numba_solver_agrees_with_a_pure_python_one_on_one_checker(
    one: solver.Solved,
) -> None:
    expected = reference.solve(1, sweeps=300)
    assert len(expected) == one.live
    worst = max(
        abs(a - b)
        for key, values in expected.items()
        for a, b in zip(one.values[table.index_of(*key)], values, strict=True)
    )
    assert worst < TOLERANCE


@pytest.mark.parametrize("checkers", [1, 2])
def test_the_table_satisfies_its_bellman_equations(
    checkers: int, one: solver.Solved, two: solver.Solved
) -> None:
    solved = one if checkers == 1 else two
    assert solved.residual <= TOLERANCE
    assert solver.residual(checkers, solved.values) == pytest.approx(solved.residual, abs=1e-15)


def test_a_wrong_value_shows_in_the_residual(two: solver.Solved) -> None:
    broken = two.values.copy()
    broken[table.index_of((24, 23), (24, 23)), 0] += 1e-6
    assert solver.residual(2, broken) >= 1e-6 - 1e-12


def test_the_equities_are_those_of_a_money_game(two: solver.Solved) -> None:
    values = two.values
    start = values[table.index_of((24, 23), (24, 23))]
    cubeless, centred, owned, theirs = start
    assert 0.0 < cubeless < 1.0  # the side to roll is ahead, by less than a game
    assert theirs <= centred <= owned  # access to the cube is worth something
    # The side to move has lost: its opponent is off; a gammon with none of its own off.
    assert list(values[table.index_of((18, 3), (0, 0))]) == [-2.0] * 4
    assert list(values[table.index_of((19, 3), (0, 0))]) == [-3.0] * 4
    assert list(values[table.index_of((5, 25), (0, 0))]) == [-3.0] * 4
    assert list(values[table.index_of((0, 3), (0, 0))]) == [-1.0] * 4
    assert np.all(np.abs(values) <= 3.0)


def test_the_file_round_trips_through_the_reader(two: solver.Solved, tmp_path: Path) -> None:
    path = tmp_path / "two.bin"
    size = solver.write(two, path)
    assert path.stat().st_size == size
    found = table.HyperTable(path)
    try:
        assert found.checkers == 2 and not found.complete and found.verify()
        assert found.residual == two.residual and found.sweeps == two.sweeps
        got = found.values((24, 23), (23, 24))
        expected = two.values[table.index_of((24, 23), (24, 23))]
        assert [got.cubeless, got.centred, got.owned, got.theirs] == list(expected)
    finally:
        found.close()
    damaged = bytearray(path.read_bytes())
    damaged[-1] ^= 1
    path.write_bytes(bytes(damaged))
    found = table.HyperTable(path)
    try:
        assert not found.verify()
    finally:
        found.close()
    (tmp_path / "short.bin").write_bytes(path.read_bytes()[:-8])
    with pytest.raises(table.TableError):
        table.HyperTable(tmp_path / "short.bin")


def test_the_command_builds_and_checks_a_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "one.bin"
    assert cli.run(["hyper-table", "build", "--checkers", "1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "largest Bellman residual" in printed and "cubeless equity" in printed
    assert cli.run(["hyper-table", "check", str(out)]) == 0
    assert "1 checkers a side" in capsys.readouterr().out
    assert cli.run(["hyper-table", "check", str(tmp_path / "none.bin")]) == 1
