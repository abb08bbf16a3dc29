"""Solved tables of Ur's rule sets other than Finkel's: reading the perfect-play winning chances.

API (for the bot and for tools outside it)::

    table = ur_sets_table.open(path, rules)   # checks the header against the RuleSet
    table.win_chance(position)                # the side to move's chance under perfect play
    table.pieces / table.complete             # pieces a side it was built for / all of them
    table.covers(position)                    # False where win_chance would raise NotCovered
    table.start_chance                        # the first player's chance from the start
    ur_sets_table.install(kind, path) / installed(kind)   # one table per rule-set game

``bot.ai.ur_sets_solver`` (the optional ``solver`` extra) computes and writes a table; this
module needs only the standard library. Finkel's table (:mod:`bot.ai.ur_table`) is another
format and stays as it is.

Positions and the index
    One value per position with the side to move, seen from the mover against the opponent,
    each on its own path (square 1..n, 0 waiting, ``n + 1`` off). The rule sets are mirror
    images for the two sides, so light to move and dark to move in mirrored positions share a
    value (:func:`geometry` refuses a rule set that is not). A square of the mover is *shared*
    when an opponent's square is the same cell (which may have another number: on the Masters
    path the mover's 12 is the opponent's 16), else *private*.

    - ``lane`` numbers the shared cells in base 3, in the order of the mover's squares:
      digit 1 where the mover stands, 2 where the opponent does;
    - each side's private part is its private squares as a mask plus its waiting pieces; with
      ``k`` pieces on shared cells a side has ``room = N - k`` for it, and
      ``RANK[room][mask][waiting]`` numbers the parts that fit, ``COUNT[room]`` of them
      (pieces not placed are borne off);
    - ``index = OFFSET[lane] + RANK[room_m][mask_m][wait_m] * COUNT[room_o]
      + RANK[room_o][mask_o][wait_o]``: dense, no keys stored (Finkel's table's scheme).

    The N-piece game is the part of the full game in which each side already has at least
    ``pieces - N`` pieces borne off (borne-off pieces take no further part), so a table built
    with fewer pieces answers there and raises :class:`NotCovered` elsewhere.

File format (little-endian)
    A 128-byte header: magic ``b"TABULA-URSETS-T\\0"``, format version (u16), pieces (u16),
    positions (u64), CRC-32 of the values (u32), the start chance (f64), the game's kind
    (32 bytes, ASCII, zero-padded) and the first 16 bytes of the SHA-256 of the rules (paths,
    rosettes, what is safe, what grants a roll, dice: :func:`fingerprint`), then zeros. Then
    one u16 a position in index order, ``round(chance * 65535)``.
"""

from __future__ import annotations

import builtins
import hashlib
import struct
import zlib
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

from bot.ai.mapped_values import MappedValues
from bot.engines.ur_sets import START, Position, RuleSet

__all__ = [
    "HEADER_SIZE",
    "MAGIC",
    "Geometry",
    "Layout",
    "NotCovered",
    "TableError",
    "UrSetTable",
    "build_command",
    "fingerprint",
    "geometry",
    "install",
    "installed",
    "layout",
    "open",
    "write",
]

MAGIC: Final = b"TABULA-URSETS-T\0"
FORMAT_VERSION: Final = 1
HEADER_SIZE: Final = 128
SCALE: Final = 65535
_HEADER: Final = struct.Struct("<16sHHQId32s16s")
MAX_PIECES: Final = 15  # the solver packs waiting counts in four bits


def build_command(kind: str) -> str:
    """What an operator runs to make the table of the game ``kind``."""
    return f"tabula ur-table build --game {kind}"


class TableError(Exception):
    """The file is missing, not a table of this rule set, or damaged; ``str()`` says which."""


class NotCovered(ValueError):
    """A position outside a table built with fewer pieces than the rule set's."""


# ---------------------------------------------------------------------------------------------
# The board as the index sees it


@dataclass(frozen=True, slots=True)
class Geometry:
    """A rule set's paths as the solver and the index need them (mover-relative squares)."""

    length: int
    shared: tuple[int, ...]  # the mover's squares on a cell the opponent's path crosses
    private: tuple[int, ...]  # the mover's other squares
    opposite: tuple[int, ...]  # [square 0..length] -> the opponent's square on that cell, 0
    rosette: tuple[bool, ...]  # [square 0..length + 1]
    dice: int
    safe_rosettes: bool
    rosettes_grant_roll: bool
    captures_grant_roll: bool


@cache
def geometry(rules: RuleSet) -> Geometry:
    """The index's view of ``rules``; ``ValueError`` unless the two sides' paths and rosettes
    mirror each other (a mover-relative table needs the same game from both seats)."""
    length = rules.length
    cell_of_dark = {rules.cell(1, square): square for square in range(1, length + 1)}
    opposite = [0] * (length + 1)
    for square in range(1, length + 1):
        theirs = cell_of_dark.get(rules.cell(0, square), 0)
        mirrored = theirs and rules.cell(1, square) == rules.cell(0, theirs)
        if theirs and not mirrored:
            raise ValueError(f"{rules.name}: the two sides' paths are not mirror images.")
        opposite[square] = theirs
    if any(rules.is_rosette(0, s) != rules.is_rosette(1, s) for s in range(1, length + 1)):
        raise ValueError(f"{rules.name}: the two sides' rosettes are not mirror images.")
    if not 1 <= rules.pieces <= MAX_PIECES:
        raise ValueError(f"{rules.name}: a table has 1 to {MAX_PIECES} pieces a side.")
    return Geometry(
        length=length,
        shared=tuple(s for s in range(1, length + 1) if opposite[s]),
        private=tuple(s for s in range(1, length + 1) if not opposite[s]),
        opposite=tuple(opposite),
        rosette=tuple(rules.is_rosette(0, s) for s in range(length + 2)),
        dice=rules.dice,
        safe_rosettes=rules.safe_rosettes,
        rosettes_grant_roll=rules.rosettes_grant_roll,
        captures_grant_roll=rules.captures_grant_roll,
    )


def fingerprint(rules: RuleSet) -> bytes:
    """16 bytes that change with anything that changes the values, except the piece count."""
    text = repr(
        (
            rules.paths,
            sorted(rules.rosettes),
            rules.safe_rosettes,
            rules.rosettes_grant_roll,
            rules.captures_grant_roll,
            rules.dice,
        )
    )
    return hashlib.sha256(text.encode("ascii")).digest()[:16]


# ---------------------------------------------------------------------------------------------
# The index


@dataclass(frozen=True, slots=True)
class Layout:
    """The index of tables of ``pieces`` pieces a side (see the module docstring)."""

    geometry: Geometry
    pieces: int
    lane_place: tuple[int, ...]  # [square] -> its shared cell's digit place (3**j), 0: private
    private_bit: tuple[int, ...]  # [square] -> its bit in the private mask, 0: shared
    rank: tuple[tuple[tuple[int, ...], ...], ...]  # [room][mask][waiting] -> rank, -1
    count: tuple[int, ...]  # [room]
    offset: Sequence[int]  # [lane]
    positions: int

    def index(
        self, mine: Iterable[int], theirs: Iterable[int], my_waiting: int, their_waiting: int
    ) -> int:
        """The slot of a position given as each side's board squares (its own numbering)
        and waiting pieces; the caller checks that it fits ``pieces``."""
        lane = 0
        rooms = [self.pieces, self.pieces]
        masks = [0, 0]
        for side, squares, digit in ((0, mine, 1), (1, theirs, 2)):
            for square in squares:
                place = self.lane_place[self.geometry.opposite[square] if side else square]
                if place:
                    lane += digit * place
                    rooms[side] -= 1
                else:
                    masks[side] |= self.private_bit[square]
        return (
            self.offset[lane]
            + self.rank[rooms[0]][masks[0]][my_waiting] * self.count[rooms[1]]
            + self.rank[rooms[1]][masks[1]][their_waiting]
        )


@cache
def layout(rules: RuleSet, pieces: int) -> Layout:
    """The index of ``rules`` with ``pieces`` a side, built once per process (under a second)."""
    shape = geometry(rules)
    if not 1 <= pieces <= rules.pieces:
        raise ValueError(f"A {rules.name} table has 1 to {rules.pieces} pieces a side.")
    lane_place = [0] * (shape.length + 1)
    for j, square in enumerate(shape.shared):
        lane_place[square] = 3**j
    private_bit = [0] * (shape.length + 1)
    for i, square in enumerate(shape.private):
        private_bit[square] = 1 << i
    rank: list[tuple[tuple[int, ...], ...]] = []
    count: list[int] = []
    for room in range(pieces + 1):
        table: list[tuple[int, ...]] = []
        next_rank = 0
        for mask in range(1 << len(shape.private)):
            row = [-1] * (pieces + 1)
            for waiting in range(room - mask.bit_count() + 1):
                row[waiting] = next_rank
                next_rank += 1
            table.append(tuple(row))
        rank.append(tuple(table))
        count.append(next_rank)
    lanes = 3 ** len(shape.shared)
    # Each lane's pieces of each side, from its number without its lowest digit; compact
    # arrays, as a board of 12 shared cells has 531,441 lanes.
    ones = bytearray(lanes)
    twos = bytearray(lanes)
    offset = array("q", bytes(8 * lanes))
    total = 0
    for lane in range(lanes):
        if lane:
            digit = lane % 3
            ones[lane] = ones[lane // 3] + (digit == 1)
            twos[lane] = twos[lane // 3] + (digit == 2)
        offset[lane] = total
        if ones[lane] <= pieces and twos[lane] <= pieces:
            total += count[pieces - ones[lane]] * count[pieces - twos[lane]]
    return Layout(
        shape,
        pieces,
        tuple(lane_place),
        tuple(private_bit),
        tuple(rank),
        tuple(count),
        offset,
        total,
    )


# ---------------------------------------------------------------------------------------------
# Reading


class UrSetTable:
    """A table file of one rule set, mapped into memory on the first look-up (shared,
    read-only, backed by the file: the bot's memory does not grow by the table's size)."""

    def __init__(
        self, path: Path, rules: RuleSet, pieces: int, positions: int, crc: int, start: float
    ) -> None:
        self.path = path
        self.rules = rules
        self.pieces = pieces
        self.positions = positions
        self.crc = crc
        self.start_chance = start
        self.layout = layout(rules, pieces)
        self._off = rules.off
        self._values = MappedValues(path, HEADER_SIZE, positions, crc, TableError)

    def __repr__(self) -> str:
        return f"UrSetTable({str(self.path)!r}, {self.rules.game}, pieces={self.pieces})"

    @property
    def complete(self) -> bool:
        """Whether the table covers the whole game (the rule set's pieces a side)."""
        return self.pieces == self.rules.pieces

    def _in_play(self, position: Position, seat: int) -> int:
        return sum(1 for square in position.side(seat) if square != self._off)

    def covers(self, position: Position) -> bool:
        """Whether each side has at most ``pieces`` pieces not yet borne off."""
        return all(self._in_play(position, seat) <= self.pieces for seat in (0, 1))

    def slot(self, position: Position) -> int:
        """The position's index in the file; raises :class:`NotCovered`."""
        if not self.covers(position):
            raise NotCovered(
                f"This {self.rules.name} table was built for {self.pieces} pieces a side: it "
                f"covers only positions with at most {self.pieces} of each side's pieces not "
                f"borne off, not {position}. Build the full table with "
                f"`{build_command(self.rules.game)}`."
            )
        mover = position.to_move
        mine, theirs = position.side(mover), position.side(1 - mover)
        off = self._off
        return self.layout.index(
            (s for s in mine if START < s < off),
            (s for s in theirs if START < s < off),
            mine.count(START),
            theirs.count(START),
        )

    def win_chance(self, position: Position) -> float:
        """The side to move's chance (0-1) to win under perfect play by both; a finished
        position counts as won by the side that bore off all its pieces."""
        return self._values[self.slot(position)] / SCALE

    def verify(self) -> None:
        """Check the values against the header's CRC-32 (reads the whole file once)."""
        self._values.verify()

    def close(self) -> None:
        self._values.close()


def open(path: str | Path, rules: RuleSet) -> UrSetTable:
    """Open the table of ``rules`` at ``path``; :class:`TableError` for a missing file, a
    foreign one, another rule set's or a damaged one."""
    where = Path(path)
    build = build_command(rules.game)
    try:
        with builtins.open(where, "rb") as handle:
            head = handle.read(HEADER_SIZE)
            size = handle.seek(0, 2)
    except FileNotFoundError:
        raise TableError(
            f"There is no {rules.name} table at {where}. Build it with `{build}`."
        ) from None
    except OSError as error:
        raise TableError(f"The {rules.name} table at {where} cannot be read: {error}.") from None
    if len(head) < HEADER_SIZE or not head.startswith(MAGIC):
        raise TableError(f"{where} is not a Tabula table of an Ur rule set.")
    _magic, version, pieces, positions, crc, start, kind, print_ = _HEADER.unpack_from(head)
    if version != FORMAT_VERSION:
        raise TableError(
            f"{where} has table format {version}; this version of Tabula reads format "
            f"{FORMAT_VERSION}. Build it again with `{build}`."
        )
    named = kind.rstrip(b"\0").decode("ascii", "replace")
    if named != rules.game or print_ != fingerprint(rules):
        raise TableError(f"{where} is a table of {named}, not of {rules.game}.")
    if not 1 <= pieces <= rules.pieces or positions != layout(rules, pieces).positions:
        raise TableError(f"{where} has a damaged header.")
    if size != HEADER_SIZE + 2 * positions:
        raise TableError(
            f"{where} is incomplete ({size:,} of {HEADER_SIZE + 2 * positions:,} bytes). "
            f"Build it again with `{build}`."
        )
    return UrSetTable(where, rules, pieces, positions, crc, start)


def header(rules: RuleSet, pieces: int, crc: int, start: float) -> bytes:
    """The header of a table of ``rules`` with ``pieces`` a side."""
    positions = layout(rules, pieces).positions
    kind = rules.game.encode("ascii")
    packed = _HEADER.pack(
        MAGIC, FORMAT_VERSION, pieces, positions, crc, start, kind, fingerprint(rules)
    )
    return packed.ljust(HEADER_SIZE, b"\0")


def write(
    path: str | Path, rules: RuleSet, pieces: int, chunks: Iterable[bytes], start: float
) -> Path:
    """Write a table from its values (little-endian u16 in index order, in chunks), through
    ``<path>.partial`` renamed at the end, so a crash never leaves a table that looks whole."""
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
        if written != 2 * layout(rules, pieces).positions:
            raise TableError(f"{written} bytes of values for a {pieces}-piece table.")
        out.seek(0)
        out.write(header(rules, pieces, crc, start))
    partial.replace(target)
    return target


# ---------------------------------------------------------------------------------------------
# The tables this process plays ``perfect``, hints and reviews from, one per game kind

_installed: dict[str, UrSetTable] = {}


def install(kind: str, table: UrSetTable | None) -> UrSetTable | None:
    """Make ``table`` the game ``kind``'s (``None``: none), closing the one before."""
    previous = _installed.pop(kind, None)
    if previous is not None:
        previous.close()
    if table is not None:
        _installed[kind] = table
    return table


def installed(kind: str) -> UrSetTable | None:
    """The table installed for the game ``kind``, if any."""
    return _installed.get(kind)
