"""PNG encoding: a fixed palette per board, found once, so each render encodes fast and small.

An RGB PNG of a board takes Pillow ~10 ms to filter and deflate and is large; mapped onto a
256-colour palette it is a third of the bytes. The palette is computed once per
(game, theme) from sample renders that contain every colour the renderer uses, with the pure
inks pinned, so anti-aliased edges map to near colours and flat areas stay exact. Mapping is
nearest-colour without dithering: dither noise costs bytes and looks grainy on flat boards.

The PNG itself is written here rather than by Pillow: Pillow tries every row filter on every
row, which for an indexed image costs three times the deflate itself and gains nothing
(PNG's filters are for continuous-tone data; libpng's advice for palette images is no filter).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Sequence

from PIL import Image

from renderers.fonts import Colour

# Deflate level, measured in benchmarks/render.py on the three boards: level 1 is the
# fastest by far and every board stays well under 100 KiB; higher levels shave a few KB for
# several times the time.
COMPRESS_LEVEL = 1
SIGNATURE = b"\x89PNG\r\n\x1a\n"


def build_palette(samples: Sequence[Image.Image], pinned: Iterable[Colour]) -> Image.Image:
    """A ``P`` image holding 256 colours: ``pinned`` first, the rest fitted to ``samples``."""
    fixed: list[Colour] = []
    for colour in pinned:
        if colour not in fixed:
            fixed.append(colour)
    fixed = fixed[:128]
    width = sum(s.width for s in samples)
    height = max(s.height for s in samples)
    sheet = Image.new("RGB", (width, height), fixed[0] if fixed else (0, 0, 0))
    x = 0
    for sample in samples:
        sheet.paste(sample.convert("RGB"), (x, 0))
        x += sample.width
    fitted = sheet.quantize(
        256 - len(fixed), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    fitted_palette = fitted.getpalette() or []
    colours = [c for colour in fixed for c in colour] + fitted_palette[: (256 - len(fixed)) * 3]
    colours += [0] * (768 - len(colours))
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours)
    return palette


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_indexed(image: Image.Image, level: int = COMPRESS_LEVEL) -> bytes:
    """An 8-bit palette PNG of the ``P`` image ``image``, rows unfiltered."""
    if image.mode != "P":
        raise ValueError(f"encode_indexed needs a P image, not {image.mode}.")
    width, height = image.size
    # Each row starts with its filter type, 0 (none): paste the image one pixel right into
    # a canvas whose first column is 0, and the canvas's bytes are the filtered rows.
    canvas = Image.new("P", (width + 1, height), 0)
    canvas.paste(image, (1, 0))
    rows = canvas.tobytes()
    palette = bytes((image.getpalette() or [])[:768]).ljust(768, b"\0")
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", zlib.compress(rows, level)),
            _chunk(b"IEND", b""),
        )
    )


def encode(image: Image.Image, palette: Image.Image) -> bytes:
    """PNG bytes of the RGB ``image`` mapped onto ``palette``."""
    return encode_indexed(image.quantize(palette=palette, dither=Image.Dither.NONE))
