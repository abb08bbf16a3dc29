"""The solved Hypergammon table, read with the standard library (built by
:mod:`bot.ai.hypergammon_solver`, ``tabula hyper-table build``).

A position is each side's checkers (``checkers`` of them: 3 in the game, fewer in tests'
tables) seen from the side to move: ``mine`` in the mover's numbering, ``theirs`` in the
opponent's own numbering, each checker as 0 (borne off), 1-24 (its point) or 25 (the bar).
A side's checkers, sorted, have a code (their rank among all sorted tuples, in the order
:func:`side_tuples` lists them); a position's index is ``code(mine) * sides + code(theirs)``.

For each index the file holds four float64, all for the side to move, before it rolls:

``cubeless``
    the money equity without a cube (win 1, gammon 2, backgammon 3, each side playing to
    maximise its own equity);
``centred``, ``owned``, ``theirs``
    the cubeful money equity (normalised to a cube of 1) if the mover does NOT double now,
    with the cube centred, owned by the mover, owned by the opponent. Whether to double, take
    or drop follows (:func:`cube_values`): the mover doubles when ``min(2 * theirs, 1)``
    beats not doubling; the taker takes when ``2 * theirs <= 1``.

Positions where a side has borne everything off hold the finished game's value (the side
to move has lost); positions with checkers of both sides on one point hold zeros.
"""

from __future__ import annotations

import hashlib
import itertools
import mmap
import struct
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

__all__ = [
    "BAR",
    "BUILD_COMMAND",
    "CHECKERS",
    "FILE",
    "OFF",
    "HyperTable",
    "TableError",
    "Values",
    "cube_values",
    "index_of",
    "install",
    "installed",
    "side_tuples",
]

CHECKERS: Final = 3
OFF: Final = 0
BAR: Final = 25
BUILD_COMMAND: Final = "tabula hyper-table build"
FILE: Final = "hypergammon-table.bin"  # its name in GAME_TABLES
MAGIC: Final = b"TABHYPG1"
# magic, checkers a side, sides, positions, residual, sweeps, the values' sha256
HEADER: Final = struct.Struct("<8sIIQdI32s")
FIELDS: Final = 4
RECORD: Final = struct.Struct("<4d")


class TableError(Exception):
    """The table file is missing, damaged or not a Hypergammon table."""


@dataclass(frozen=True, slots=True)
class Values:
    """One position's values for the side to move (see the module docstring)."""

    cubeless: float
    centred: float  # cubeful, not doubling, cube centred
    owned: float  # cubeful, not doubling, the mover owns the cube
    theirs: float  # cubeful, the opponent owns the cube (the mover cannot double)


def cube_values(values: Values) -> tuple[float, float, float]:
    """The cubeful equities with the mover's best cube action: (centred, owned, theirs)."""
    double = min(2.0 * values.theirs, 1.0)
    return max(values.centred, double), max(values.owned, double), values.theirs


@cache
def side_tuples(checkers: int) -> tuple[tuple[int, ...], ...]:
    """Every side of ``checkers`` checkers as a sorted tuple, in code order."""
    return tuple(itertools.combinations_with_replacement(range(BAR + 1), checkers))


@cache
def _codes(checkers: int) -> dict[tuple[int, ...], int]:
    return {side: code for code, side in enumerate(side_tuples(checkers))}


def index_of(mine: tuple[int, ...], theirs: tuple[int, ...]) -> int:
    """The index of the position (each side's checkers as 0, 1-24 or 25, in any order)."""
    codes = _codes(len(mine))
    return codes[tuple(sorted(mine))] * len(codes) + codes[tuple(sorted(theirs))]


class HyperTable:
    """A table file opened for look-ups (memory-mapped: pages come from disk as needed)."""

    def __init__(self, path: Path) -> None:
        try:
            with path.open("rb") as file:
                head = file.read(HEADER.size)
                if len(head) != HEADER.size:
                    raise TableError(f"{path} is not a Hypergammon table")
                magic, checkers, sides, count, residual, sweeps, digest = HEADER.unpack(head)
                if magic != MAGIC:
                    raise TableError(f"{path} is not a Hypergammon table")
                if sides != len(side_tuples(checkers)) or count != sides * sides:
                    raise TableError(f"{path} has a damaged header")
                size = HEADER.size + count * RECORD.size
                if path.stat().st_size != size:
                    raise TableError(f"{path} is {path.stat().st_size} bytes, not {size}")
                self._map = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        except OSError as error:
            raise TableError(f"{path} cannot be read: {error}") from None
        self.path = path
        self.checkers: int = checkers
        self.count: int = count
        self.residual: float = residual
        self.sweeps: int = sweeps
        self.digest: bytes = digest

    @property
    def complete(self) -> bool:
        """Whether this is the real game's table (3 checkers a side), not a test's."""
        return self.checkers == CHECKERS

    def values(self, mine: tuple[int, ...], theirs: tuple[int, ...]) -> Values:
        """The values of a position (see the module docstring)."""
        if len(mine) != self.checkers or len(theirs) != self.checkers:
            raise TableError(f"this table has {self.checkers} checkers a side")
        offset = HEADER.size + index_of(mine, theirs) * RECORD.size
        return Values(*RECORD.unpack_from(self._map, offset))

    def verify(self) -> bool:
        """Whether the values match the checksum the build wrote."""
        digest = hashlib.sha256()
        view = memoryview(self._map)[HEADER.size :]
        for start in range(0, len(view), 1 << 24):
            digest.update(view[start : start + (1 << 24)])
        return digest.digest() == self.digest

    def close(self) -> None:
        self._map.close()


_INSTALLED: list[HyperTable] = []


def install(path: Path | None) -> HyperTable | None:
    """Open the table at ``path`` for this process (``None``: remove the installed one).
    A missing file installs nothing and returns ``None``; a damaged one raises
    :class:`TableError`."""
    while _INSTALLED:
        _INSTALLED.pop().close()
    if path is None:
        return None
    if not path.exists():
        raise TableError(f"no table at {path} (build it with `{BUILD_COMMAND}`)")
    table = HyperTable(path)
    _INSTALLED.append(table)
    return table


def installed() -> HyperTable | None:
    """The table installed in this process, if any."""
    return _INSTALLED[0] if _INSTALLED else None
