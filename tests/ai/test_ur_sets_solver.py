"""The rule-set solver and its table reader on a small made-up rule set whose paths meet at
other square numbers than their own (as the Masters path does), against the plain solver of
``tests.ai.ur_sets_reference``; the file format's checks; ``tabula ur-table`` for rule sets.
Each rule set's own table is checked in its own test file (``test_ur_<set>_table.py``)."""

from __future__ import annotations

import struct
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba")

from bot import games
from bot.ai import ur_sets_solver, ur_sets_table
from bot.engines.ur_sets import Position, RuleSet, walk
from bot.ur_table_command import rule_sets
from bot.ur_table_command import run as command
from tests.ai import ur_sets_reference

CELLS = tuple((x, y) for x in (1, 2, 3) for y in (1, 2, 3))
# Light enters on (1, 3), runs the middle lane up and leaves through dark's entry squares,
# so light's squares 1-2 are dark's 7-8 and light's 7-8 dark's 1-2; only square 3 is private.
CROSSING = RuleSet(
    game="test_crossing",
    name="Crossing",
    cells=CELLS,
    rosettes=frozenset({(1, 1), (3, 1), (2, 2)}),
    paths=(
        walk((1, 3), (1, 1), (2, 1), (2, 3), (3, 3), (3, 2)),
        walk((3, 3), (3, 1), (2, 1), (2, 3), (1, 3), (1, 2)),
    ),
    pieces=3,
    safe_rosettes=True,
    rosettes_grant_roll=True,
    captures_grant_roll=False,
)
VARIANTS = {
    "safe rosettes": CROSSING,
    "captures roll again": replace(CROSSING, safe_rosettes=False, captures_grant_roll=True),
    "three dice, no rosette roll": replace(CROSSING, dice=3, rosettes_grant_roll=False),
}


def slot(rules: RuleSet, pieces: int, position: Position) -> int:
    off = rules.off
    mover = position.to_move
    mine, theirs = position.side(mover), position.side(1 - mover)
    return ur_sets_table.layout(rules, pieces).index(
        [s for s in mine if 0 < s < off],
        [s for s in theirs if 0 < s < off],
        mine.count(0),
        theirs.count(0),
    )


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("pieces", [1, 2])
def test_the_solver_agrees_with_the_plain_solver_on_every_position(
    variant: str, pieces: int
) -> None:
    rules = VARIANTS[variant]
    values, _ = ur_sets_solver.solve(rules, pieces)
    reference = ur_sets_reference.solve(rules, pieces)
    assert len(values) == ur_sets_table.layout(rules, pieces).positions
    seen = set()
    for at, position in enumerate(reference.positions):
        index = slot(rules, pieces, position)
        seen.add(index)
        assert values[index] == pytest.approx(reference.mover_chance(at), abs=1e-9), position
    # Every slot but the one of both sides borne off is a position of the game, once each way.
    assert len(seen) == len(values) - 1


def test_a_written_table_reads_back_and_knows_its_rule_set(tmp_path: Path) -> None:
    built = ur_sets_solver.build(tmp_path / "t.bin", CROSSING, 2)
    values, _ = ur_sets_solver.solve(CROSSING, 2)
    table = ur_sets_table.open(built.path, CROSSING)
    table.verify()
    assert (table.pieces, table.complete, table.positions) == (2, False, len(values))
    assert built.start_chance == table.start_chance == values[slot(CROSSING, 2, start(2))]
    reference = ur_sets_reference.solve(CROSSING, 2)
    for at, position in enumerate(reference.positions[::7]):
        assert table.win_chance(position) == pytest.approx(
            reference.mover_chance(at * 7), abs=0.5 / ur_sets_table.SCALE + 1e-12
        )
    three_in_play = Position((0, 0, 0), (4, 0, 0), 0)
    assert not table.covers(three_in_play)
    with pytest.raises(ur_sets_table.NotCovered):
        table.win_chance(three_in_play)
    # One piece borne off each: the 2-piece table's own game.
    assert table.covers(Position((0, 0, 9), (0, 9, 9), 1))
    table.close()


def start(pieces: int) -> Position:
    return Position((0,) * pieces, (0,) * pieces, 0)


def test_open_refuses_missing_foreign_other_and_damaged_files(tmp_path: Path) -> None:
    with pytest.raises(ur_sets_table.TableError, match="no Crossing table"):
        ur_sets_table.open(tmp_path / "missing.bin", CROSSING)
    (tmp_path / "foreign.bin").write_bytes(b"x" * 200)
    with pytest.raises(ur_sets_table.TableError, match="not a Tabula table"):
        ur_sets_table.open(tmp_path / "foreign.bin", CROSSING)
    path = ur_sets_solver.build(tmp_path / "t.bin", CROSSING, 1).path
    other = VARIANTS["captures roll again"]
    with pytest.raises(ur_sets_table.TableError, match="not of"):
        ur_sets_table.open(path, other)
    data = bytearray(path.read_bytes())
    (tmp_path / "short.bin").write_bytes(data[:-2])
    with pytest.raises(ur_sets_table.TableError, match="incomplete"):
        ur_sets_table.open(tmp_path / "short.bin", CROSSING)
    data[-1] ^= 0xFF
    (tmp_path / "damaged.bin").write_bytes(data)
    damaged = ur_sets_table.open(tmp_path / "damaged.bin", CROSSING)
    with pytest.raises(ur_sets_table.TableError, match="damaged"):
        damaged.verify()
    version = bytearray(path.read_bytes())
    struct.pack_into("<H", version, 16, 99)
    (tmp_path / "future.bin").write_bytes(version)
    with pytest.raises(ur_sets_table.TableError, match="format 99"):
        ur_sets_table.open(tmp_path / "future.bin", CROSSING)


def test_a_rule_set_whose_sides_are_not_mirror_images_is_refused() -> None:
    lopsided = replace(CROSSING, rosettes=frozenset({(1, 1), (2, 2)}))
    with pytest.raises(ValueError, match="mirror"):
        ur_sets_table.geometry(lopsided)


def test_tables_are_installed_per_game(tmp_path: Path) -> None:
    path = ur_sets_solver.build(tmp_path / "t.bin", CROSSING, 1).path
    table = ur_sets_table.install(CROSSING.game, ur_sets_table.open(path, CROSSING))
    try:
        assert ur_sets_table.installed(CROSSING.game) is table
        assert ur_sets_table.installed("test_other") is None
    finally:
        ur_sets_table.install(CROSSING.game, None)
    assert ur_sets_table.installed(CROSSING.game) is None


def test_the_command_offers_the_registrys_rule_sets() -> None:
    found = rule_sets()
    registered = {
        g.kind for g in games.all() if isinstance(getattr(g.rules, "RULES", None), RuleSet)
    }
    assert set(found) == registered and registered
    for kind, rules in found.items():
        assert rules.game == kind


def test_the_command_builds_and_checks_a_rule_sets_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kind = sorted(rule_sets())[0]
    out = tmp_path / "small.bin"
    env = tmp_path / "none.env"
    assert (
        command(
            ["--env-file", str(env), "build", "--game", kind, "--pieces", "1", "--out", str(out)]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert "1 pieces a side" in printed and "First player's winning chance" in printed
    assert command(["--env-file", str(env), "check", "--game", kind, str(out)]) == 0
    assert "checksum correct" in capsys.readouterr().out
    # Finkel's check does not read a rule set's table.
    assert command(["--env-file", str(env), "check", str(out)]) == 1
    with pytest.raises(SystemExit):
        command(["--env-file", str(env), "build", "--game", kind, "--pieces", "99"])
