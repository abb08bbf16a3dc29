"""The solved Royal Game of Ur: reading the table of perfect-play winning chances.

API (stable, for the bot and for tools outside it)::

    table = ur_table.open(path)          # checks the header; the values are mapped on first use
    table.win_chance(position)           # the side to move's chance to win under perfect play
    table.pieces                         # pieces a side the table was built for (7 = the game)
    table.covers(position)               # False where win_chance would raise NotCovered
    table.start_chance                   # the first player's chance from the start, as solved
    ur_table.install(path) / installed()  # the table this process plays, hints and reviews from

``bot.ai.ur_solver`` (the optional ``solver`` extra) computes and writes the table; this module
needs only the standard library, so the bot reads the table with what it already depends on.

Positions and the index
    A value is stored for every position with the side to move, seen from the side to move
    ("mover") against the other side ("opponent"): the rules are the same for both colours, so
    light to move and dark to move in mirrored positions share one value. Each side holds:
    board squares 1-14 (at most one piece a square), pieces waiting (square 0) and pieces
    borne off (the rest of its N). The shared lane 5-12 cannot hold both sides on one square.

    The index is dense (every such position has one slot, no slot is unused, no keys are
    stored), and cheap to compute:

    - ``lane`` numbers the shared lane in base 3: square ``5 + i`` adds ``3**i`` if the mover
      holds it and ``2 * 3**i`` if the opponent does (6,561 lanes);
    - each side's "private part" is its six own-lane squares (1-4, 13-14) as a 6-bit mask
      plus its count of waiting pieces; with ``k`` of its pieces in the shared lane, a side
      has ``room = N - k`` pieces for the private part, and ``RANK[room][mask][waiting]``
      numbers the private parts that fit (mask ascending, then waiting), ``COUNT[room]`` of
      them;
    - ``index = OFFSET[lane] + RANK[room_m][mask_m][wait_m] * COUNT[room_o]
      + RANK[room_o][mask_o][wait_o]``, where ``OFFSET`` sums the block sizes
      ``COUNT[room_m] * COUNT[room_o]`` of the lanes before.

    With 7 pieces that gives 137,913,936 positions, the count other solvers publish for the
    Finkel rules (https://jheled.github.io/royalur/solve.html).

Tables with fewer pieces
    The N-piece game is exactly the part of the 7-piece game in which each side already has
    at least 7 - N pieces borne off: a table built with N < 7 answers there and raises
    :class:`NotCovered` elsewhere. Tests build such small tables in seconds.

File format (little-endian)
    A 64-byte header: magic ``b"TABULA-UR-TABLE\\0"``, format version (u16), pieces (u16),
    positions (u64), CRC-32 of the values (u32), the start chance (f64), then zeros. Then
    one u16 a position in index order: ``round(chance * 65535)``, so a look-up is accurate
    to 1/131,070 (0.0008 percentage points).
"""

from __future__ import annotations

import builtins
import struct
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

from bot.ai.mapped_values import MappedValues
from bot.engines.ur import PIECES, Position

__all__ = [
    "HEADER_SIZE",
    "MAGIC",
    "Layout",
    "NotCovered",
    "TableError",
    "UrTable",
    "layout",
    "open",
    "write",
]

MAGIC: Final = b"TABULA-UR-TABLE\0"
FORMAT_VERSION: Final = 1
BUILD_COMMAND: Final = "tabula ur-table build"  # what an operator runs to make the table
HEADER_SIZE: Final = 64
SCALE: Final = 65535
_HEADER: Final = struct.Struct("<16sHHQId")
LANE_SQUARES: Final = 8  # the shared lane, squares 5-12
LANES: Final = 3**LANE_SQUARES


class TableError(Exception):
    """The file is missing, not a Tabula Ur table, or damaged; ``str()`` says which."""


class NotCovered(ValueError):
    """A position outside a table built with fewer than seven pieces a side."""


# ---------------------------------------------------------------------------------------------
# The index


def _private_mask(board: int) -> int:
    """A side's own-lane squares 1-4 and 13-14 as bits 0-3 and 4-5."""
    return (board >> 1 & 0xF) | (board >> 9 & 0x30)


@dataclass(frozen=True, slots=True)
class Layout:
    """The index for tables of ``pieces`` pieces a side (see the module docstring)."""

    pieces: int
    lane_digits: tuple[int, ...]  # 8-bit lane mask -> its base-3 number with digit 1
    rank: tuple[tuple[tuple[int, ...], ...], ...]  # [room][mask][waiting] -> rank, -1: no fit
    count: tuple[int, ...]  # [room] -> private parts that fit
    offset: tuple[int, ...]  # [lane] -> first index of the lane's block
    positions: int

    def index(self, mine: int, theirs: int, my_waiting: int, their_waiting: int) -> int:
        """The slot of a position given as mover-relative board masks (bits 1-14) and
        counts of waiting pieces. The caller checks that the position fits ``pieces``."""
        my_lane = mine >> 5 & 0xFF
        their_lane = theirs >> 5 & 0xFF
        my_room = self.pieces - my_lane.bit_count()
        their_room = self.pieces - their_lane.bit_count()
        digits = self.lane_digits
        return (
            self.offset[digits[my_lane] + 2 * digits[their_lane]]
            + self.rank[my_room][_private_mask(mine)][my_waiting] * self.count[their_room]
            + self.rank[their_room][_private_mask(theirs)][their_waiting]
        )


@cache
def layout(pieces: int) -> Layout:
    """The index of ``pieces``-piece tables (1-7), built once per process (a few ms)."""
    if not 1 <= pieces <= PIECES:
        raise ValueError(f"An Ur table has 1 to {PIECES} pieces a side, not {pieces}.")
    digits = tuple(sum(3**i for i in range(LANE_SQUARES) if lane >> i & 1) for lane in range(256))
    rank: list[tuple[tuple[int, ...], ...]] = []
    count: list[int] = []
    for room in range(pieces + 1):
        table: list[tuple[int, ...]] = []
        next_rank = 0
        for mask in range(64):
            row = [-1] * (pieces + 1)
            for waiting in range(room - mask.bit_count() + 1):
                row[waiting] = next_rank
                next_rank += 1
            table.append(tuple(row))
        rank.append(tuple(table))
        count.append(next_rank)
    offset: list[int] = []
    total = 0
    for lane in range(LANES):
        offset.append(total)
        mine = theirs = 0
        for i in range(LANE_SQUARES):
            digit = lane // 3**i % 3
            mine += digit == 1
            theirs += digit == 2
        if mine <= pieces and theirs <= pieces:
            total += count[pieces - mine] * count[pieces - theirs]
    return Layout(pieces, digits, tuple(rank), tuple(count), tuple(offset), total)


def mover_view(position: Position) -> tuple[int, int, int, int]:
    """(mover's board, opponent's board, mover's waiting, opponent's waiting)."""
    if position.to_move == "light":
        return position.light, position.dark, position.light_waiting, position.dark_waiting
    return position.dark, position.light, position.dark_waiting, position.light_waiting


# ---------------------------------------------------------------------------------------------
# Reading


class UrTable:
    """A table file, mapped into memory on the first look-up (see :func:`open`).

    The map is shared, read-only and backed by the file: pages are read as look-ups touch
    them and the kernel may drop them again, so the bot's own memory does not grow by the
    table's size. Safe to share between threads.
    """

    def __init__(self, path: Path, pieces: int, positions: int, crc: int, start: float) -> None:
        self.path = path
        self.pieces = pieces
        self.positions = positions
        self.crc = crc
        self.start_chance = start
        self.layout = layout(pieces)
        self._hidden = PIECES - pieces  # pieces a side already off in every covered position
        self._values = MappedValues(path, HEADER_SIZE, positions, crc, TableError)

    def __repr__(self) -> str:
        return f"UrTable({str(self.path)!r}, pieces={self.pieces})"

    @property
    def complete(self) -> bool:
        """Whether the table covers the whole game (seven pieces a side)."""
        return self.pieces == PIECES

    def covers(self, position: Position) -> bool:
        """Whether each side has at least ``7 - pieces`` pieces borne off in ``position``."""
        mine, theirs, my_waiting, their_waiting = mover_view(position)
        return (
            my_waiting + mine.bit_count() <= self.pieces
            and their_waiting + theirs.bit_count() <= self.pieces
        )

    def slot(self, position: Position) -> int:
        """The position's index in the file; raises :class:`NotCovered`."""
        mine, theirs, my_waiting, their_waiting = mover_view(position)
        if (
            my_waiting + mine.bit_count() > self.pieces
            or their_waiting + theirs.bit_count() > self.pieces
        ):
            raise NotCovered(
                f"This Ur table was built for {self.pieces} pieces a side: it covers only "
                f"positions in which each side has at least {self._hidden} pieces borne off, "
                f"not {position}. Build the full table with `{BUILD_COMMAND}`."
            )
        return self.layout.index(mine, theirs, my_waiting, their_waiting)

    def win_chance(self, position: Position) -> float:
        """The side to move's chance (0-1) to win ``position`` under perfect play by both.

        A finished position counts as won by the side that bore off all its pieces.
        """
        return self._values[self.slot(position)] / SCALE

    def verify(self) -> None:
        """Check the values against the header's CRC-32 (reads the whole file once)."""
        self._values.verify()

    def close(self) -> None:
        self._values.close()


def open(path: str | Path) -> UrTable:
    """Open the table at ``path``; raises :class:`TableError` for a missing or foreign file."""
    where = Path(path)
    try:
        with builtins.open(where, "rb") as handle:
            header = handle.read(HEADER_SIZE)
            size = handle.seek(0, 2)
    except FileNotFoundError:
        raise TableError(
            f"There is no Ur table at {where}. Build it with `{BUILD_COMMAND}`."
        ) from None
    except OSError as error:
        raise TableError(f"The Ur table at {where} cannot be read: {error}.") from None
    if len(header) < HEADER_SIZE or not header.startswith(MAGIC):
        raise TableError(f"{where} is not a Tabula Ur table.")
    _magic, version, pieces, positions, crc, start = _HEADER.unpack_from(header)
    if version != FORMAT_VERSION:
        raise TableError(
            f"{where} has table format {version}; this version of Tabula reads format "
            f"{FORMAT_VERSION}. Build it again with `{BUILD_COMMAND}`."
        )
    if not 1 <= pieces <= PIECES or positions != layout(pieces).positions:
        raise TableError(f"{where} has a damaged header.")
    if size != HEADER_SIZE + 2 * positions:
        raise TableError(
            f"{where} is incomplete ({size:,} of {HEADER_SIZE + 2 * positions:,} bytes). "
            f"Build it again with `{BUILD_COMMAND}`."
        )
    return UrTable(where, pieces, positions, crc, start)


# The table this process plays ``perfect``, gives hints and reviews from (see install).
_installed: UrTable | None = None


def install(path: str | Path | None) -> UrTable | None:
    """Open the table at ``path`` as this process's table and return it; with ``None``, or
    where :func:`open` fails, there is none (and the error is raised for the caller to
    report). Replaces (and closes) a table installed before."""
    global _installed
    previous, _installed = _installed, None
    if previous is not None:
        previous.close()
    if path is not None:
        _installed = open(path)
    return _installed


def installed() -> UrTable | None:
    """The table :func:`install` opened, if any."""
    return _installed


def header(pieces: int, crc: int, start: float) -> bytes:
    """The 64-byte header of a table of ``pieces`` pieces a side."""
    packed = _HEADER.pack(MAGIC, FORMAT_VERSION, pieces, layout(pieces).positions, crc, start)
    return packed.ljust(HEADER_SIZE, b"\0")


def write(path: str | Path, pieces: int, chunks: Iterable[bytes], start: float) -> Path:
    """Write a table from its values (little-endian u16 in index order, in chunks).

    Writes to ``<path>.partial`` and renames at the end, so a crash never leaves a table that
    looks complete.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    crc = 0
    written = 0
    with builtins.open(partial, "wb") as out:
        out.write(b"\0" * HEADER_SIZE)
        for chunk in chunks:
            crc = zlib.crc32(chunk, crc)
            written += len(chunk)
            out.write(chunk)
        if written != 2 * layout(pieces).positions:
            raise TableError(f"{written} bytes of values for a {pieces}-piece table.")
        out.seek(0)
        out.write(header(pieces, crc, start))
    partial.replace(target)
    return target


def encode(chance: float) -> int:
    """The stored u16 of a winning chance."""
    return round(min(1.0, max(0.0, chance)) * SCALE)
