"""A solved table's values on disk: 16-bit little-endian numbers after a header, mapped into
memory on the first read (shared, read-only and backed by the file: pages are read as look-ups
touch them and the kernel may drop them again, so the bot's own memory does not grow by the
table's size), checked against a CRC-32 of the values, safe to share between threads. Ur's
table readers (Finkel's and the rule sets') keep their values here."""

from __future__ import annotations

import builtins
import mmap
import struct
import threading
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Final

_LITTLE_ENDIAN: Final = struct.pack("=H", 1) == struct.pack("<H", 1)


class MappedValues:
    """``positions`` 16-bit values after ``header_size`` bytes of the file at ``path``;
    ``damaged`` makes the error raised when the file does not match (a reader's own
    ``TableError``)."""

    def __init__(
        self,
        path: Path,
        header_size: int,
        positions: int,
        crc: int,
        damaged: Callable[[str], Exception],
    ) -> None:
        self.path = path
        self.header_size = header_size
        self.positions = positions
        self.crc = crc
        self._damaged = damaged
        self._map: mmap.mmap | None = None
        self._values: memoryview | None = None
        self._read: Callable[[int], int] | None = None  # slot -> stored value, once mapped
        self._lock = threading.Lock()

    def __getitem__(self, slot: int) -> int:
        return (self._read or self._open_map())(slot)

    def _open_map(self) -> Callable[[int], int]:
        with self._lock:
            if self._read is None:
                with builtins.open(self.path, "rb") as handle:
                    data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
                if len(data) != self.header_size + 2 * self.positions:
                    data.close()
                    raise self._damaged(f"{self.path} changed size since it was opened.")
                self._map = data
                if _LITTLE_ENDIAN:  # the values as they are in the file, no copy
                    self._values = memoryview(data)[self.header_size :].cast("H")
                    self._read = self._values.__getitem__
                else:  # pragma: no cover - big-endian machines read each value byte-swapped
                    unpack = struct.Struct("<H").unpack_from
                    start = self.header_size
                    self._read = lambda slot: int(unpack(data, start + 2 * slot)[0])
            return self._read

    def verify(self) -> None:
        """Check the values against the header's CRC-32 (reads the whole file once)."""
        crc = 0
        with builtins.open(self.path, "rb") as handle:
            handle.seek(self.header_size)
            while chunk := handle.read(1 << 22):
                crc = zlib.crc32(chunk, crc)
        if crc != self.crc:
            raise self._damaged(f"{self.path} is damaged (its checksum does not match).")

    def close(self) -> None:
        with self._lock:
            self._read = None
            if self._values is not None:
                self._values.release()
                self._values = None
            if self._map is not None:
                self._map.close()
                self._map = None
