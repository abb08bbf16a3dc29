"""The Ur table: its index, its file format, and its values obeying the game's equations."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.ai import ur_table
from bot.engines.ur import (
    PIECES,
    ROLL_PROBABILITIES,
    Position,
    apply_move,
    legal_moves,
)
from tests.ai.ur_positions import SHARED, positions


@pytest.mark.parametrize("pieces", [1, 2, 3])
def test_every_position_has_its_own_slot_and_no_slot_is_unused(pieces: int) -> None:
    layout = ur_table.layout(pieces)
    seen = set()
    count = 0
    for mine, theirs, mw, tw in positions(pieces):
        seen.add(layout.index(mine, theirs, mw, tw))
        count += 1
    assert count == layout.positions == len(seen)
    assert seen == set(range(layout.positions))


def test_the_positions_per_layer_match_an_independent_solver() -> None:
    """Jeroen Olieslagers' Julia solver (github.com/JeroenOlieslagers/game_of_ur, its test
    suite) counts, for 3 pieces, the positions by the pieces the two sides still have to bring
    home (the smaller number first, either side to move), and 591 positions where the side
    not to move has already won."""
    published = {(1, 1): 217, (1, 2): 2956, (1, 3): 12628, (2, 2): 9696, (2, 3): 79760,
                 (3, 3): 157864}  # fmt: skip
    layers: dict[tuple[int, int], int] = {}
    for mine, theirs, mw, tw in positions(3):
        left = (mine.bit_count() + mw, theirs.bit_count() + tw)
        key = (min(left), max(left)) if min(left) else left
        layers[key] = layers.get(key, 0) + 1
    assert {k: layers[k] for k in published} == published
    assert sum(n for (mover, opponent), n in layers.items() if opponent == 0 < mover) == 591


def test_the_seven_piece_index_is_dense_over_the_published_count() -> None:
    layout = ur_table.layout(PIECES)
    assert layout.positions == 137_913_936
    rng = random.Random(7)
    for _ in range(20_000):
        position = random_position(rng, PIECES)
        light, dark = position.light, position.dark
        slot = layout.index(light, dark, position.light_waiting, position.dark_waiting)
        assert 0 <= slot < layout.positions
    # The first and the last slot belong to real positions.
    assert layout.index(0, 0, 0, 0) == 0  # both sides off (cannot happen, has a slot)
    full = sum(1 << s for s in range(5, 12))  # seven pieces on 5-11 against seven on 1-4, 13-14
    theirs = sum(1 << s for s in (1, 2, 3, 4, 12, 13, 14))
    assert layout.index(full, theirs, 0, 0) < layout.positions


def random_position(rng: random.Random, pieces: int, to_move: str = "light") -> Position:
    """A random legal position in which each side has at least ``7 - pieces`` pieces off."""
    while True:
        masks = []
        waits = []
        for _ in range(2):
            left = rng.randint(0, pieces)
            squares = rng.sample(range(1, 15), rng.randint(0, left))
            masks.append(sum(1 << s for s in squares))
            waits.append(left - len(squares))
        if not masks[0] & masks[1] & SHARED and (masks[0] or waits[0]) and (masks[1] or waits[1]):
            return Position(masks[0], masks[1], waits[0], waits[1], to_move)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# Built tables (need the solver extra)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    pytest.importorskip("numba")
    from bot.ai import ur_solver

    values, _ = ur_solver.solve(3)
    path = ur_table.write(
        tmp_path_factory.mktemp("ur") / "ur3.table",
        3,
        ur_solver._chunks(values),  # the builder's own encoding
        ur_solver.start_chance(values, 3),
    )
    return path, values


def test_the_file_gives_back_every_value(built: tuple[Path, Any]) -> None:
    path, values = built
    table = ur_table.open(path)
    assert (table.pieces, table.positions) == (3, ur_table.layout(3).positions)
    assert path.stat().st_size == ur_table.HEADER_SIZE + 2 * table.positions
    table.verify()
    layout = table.layout
    for mine, theirs, mw, tw in positions(3):
        position = Position(mine, theirs, mw, tw, "light")
        expected = ur_table.encode(float(values[layout.index(mine, theirs, mw, tw)]))
        assert table.win_chance(position) == expected / ur_table.SCALE
    assert table.start_chance == pytest.approx(0.5162011022382, abs=1e-12)
    table.close()


def test_a_table_answers_for_the_side_to_move_either_colour(built: tuple[Path, Any]) -> None:
    table = ur_table.open(built[0])
    rng = random.Random(3)
    for _ in range(200):
        light = random_position(rng, 3)
        mirrored = Position(
            light.dark, light.light, light.dark_waiting, light.light_waiting, "dark"
        )
        assert table.win_chance(light) == table.win_chance(mirrored)


def test_values_obey_the_bellman_equation(built: tuple[Path, Any]) -> None:
    """Each sampled position's value is the dice-weighted best over its moves, read from the
    same table (16-bit values: a few units of 1/65535 of slack)."""
    table = ur_table.open(built[0])
    rng = random.Random(11)
    for _ in range(1500):
        position = random_position(rng, 3, rng.choice(["light", "dark"]))
        mover = position.to_move
        swapped = position._replace(to_move="dark" if mover == "light" else "light")
        passing = 1.0 - table.win_chance(swapped)
        expected = ROLL_PROBABILITIES[0] * passing
        for roll in range(1, 5):
            outcomes = []
            for move in legal_moves(position, roll):
                after, again = apply_move(position, move)
                if after.winner() == mover:
                    outcomes.append(1.0)
                elif again:
                    outcomes.append(table.win_chance(after))
                else:
                    outcomes.append(1.0 - table.win_chance(after))
            expected += ROLL_PROBABILITIES[roll] * (max(outcomes) if outcomes else passing)
        assert table.win_chance(position) == pytest.approx(expected, abs=3 / ur_table.SCALE)


def test_a_small_table_refuses_positions_it_does_not_cover(built: tuple[Path, Any]) -> None:
    table = ur_table.open(built[0])
    assert not table.complete
    start = Position.start()
    assert not table.covers(start)
    with pytest.raises(ur_table.NotCovered, match="at least 4 pieces borne off"):
        table.win_chance(start)
    with pytest.raises(ur_table.NotCovered, match="tabula ur-table build"):
        table.win_chance(Position(0, 0, 4, 3, "light"))
    assert table.covers(Position(0, 0, 3, 3, "dark"))
    assert 0.0 < table.win_chance(Position(0, 0, 3, 3, "dark")) < 1.0


def test_damaged_and_foreign_files_are_refused(built: tuple[Path, Any], tmp_path: Path) -> None:
    with pytest.raises(ur_table.TableError, match="tabula ur-table build"):
        ur_table.open(tmp_path / "missing.table")
    foreign = tmp_path / "foreign.table"
    foreign.write_bytes(b"not a table at all" * 10)
    with pytest.raises(ur_table.TableError, match="not a Tabula Ur table"):
        ur_table.open(foreign)
    data = built[0].read_bytes()
    short = tmp_path / "short.table"
    short.write_bytes(data[:-2])
    with pytest.raises(ur_table.TableError, match="incomplete"):
        ur_table.open(short)
    flipped = tmp_path / "flipped.table"
    flipped.write_bytes(data[:1000] + bytes([data[1000] ^ 1]) + data[1001:])
    damaged = ur_table.open(flipped)
    with pytest.raises(ur_table.TableError, match="damaged"):
        damaged.verify()
    newer = tmp_path / "newer.table"
    newer.write_bytes(data[:16] + (99).to_bytes(2, "little") + data[18:])
    with pytest.raises(ur_table.TableError, match="format 99"):
        ur_table.open(newer)


def test_a_write_that_stops_early_leaves_no_table(tmp_path: Path) -> None:
    target = tmp_path / "ur1.table"
    with pytest.raises(ur_table.TableError):
        ur_table.write(target, 1, [b"\0\0" * 10], 0.5)
    assert not target.exists()
