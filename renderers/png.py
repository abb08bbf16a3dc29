"""PNG encoding: a fixed palette per board, found once, so each render encodes fast and small.

An RGB PNG of a board takes Pillow ~10 ms to filter and deflate and is large; mapped onto a
256-colour palette it is a third of the bytes. The palette is computed once per
(game, theme) from sample renders that contain every colour the renderer uses, with the pure
inks pinned, so anti-aliased edges map to near colours and flat areas stay exact. Mapping is
nearest-colour without dithering: dither noise costs bytes and looks grainy on flat boards.

The PNG itself is written here rather than by Pillow: Pillow tries every row filter on every
row, which for an indexed image costs three times the deflate itself and gains nothing
(PNG's filters are for continuous-tone data; libpng's advice for palette images is no filter).
The deflate is ISA-L's (the ``isal`` package) where it is installed: on these boards it is a
quarter of zlib's time and a few percent smaller; the decoded pixels are the same either way.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Sequence

from PIL import Image

from renderers.fonts import Colour

# Deflate levels, measured by benchmarks/render_cost.py on the three games' boards. zlib:
# level 1 is the fastest by far and every board stays well under 100 KiB; higher levels shave
# a few KB for several times the time. ISA-L: level 2 is as fast as its 0 and 1 (0.2-0.4 ms a
# board against zlib's 0.9-1.6 ms) and 5-9 % smaller than zlib's level 1; its 3 is 3x slower.
try:
    from isal import isal_zlib as deflate

    COMPRESS_LEVEL = 2
except ImportError:  # a platform without ISA-L wheels
    deflate = zlib  # type: ignore[misc]
    COMPRESS_LEVEL = 1
SIGNATURE = b"\x89PNG\r\n\x1a\n"


# The palette is fitted to every SAMPLE_STRIDE-th pixel of each sample, across and down: the
# colours keep their shares, and median cut takes a ninth of the time (0.02 s instead of
# 0.15 s per game and theme, most of a first start's warm-up) for no worse a fit (measured on
# the boards of benchmarks/render_cost.py: as few or fewer pixels more than 40 off, and the
# same mean error).
SAMPLE_STRIDE = 3


def build_palette(samples: Sequence[Image.Image], pinned: Iterable[Colour]) -> Image.Image:
    """A ``P`` image holding 256 colours: ``pinned`` first, the rest fitted to ``samples``."""
    fixed: list[Colour] = []
    for colour in pinned:
        if colour not in fixed:
            fixed.append(colour)
    fixed = fixed[:128]
    picked = [
        sample.convert("RGB").resize(
            (max(1, sample.width // SAMPLE_STRIDE), max(1, sample.height // SAMPLE_STRIDE)),
            Image.Resampling.NEAREST,
        )
        for sample in samples
    ]
    width = sum(s.width for s in picked)
    height = max(s.height for s in picked)
    sheet = Image.new("RGB", (width, height), fixed[0] if fixed else (0, 0, 0))
    x = 0
    for sample in picked:
        sheet.paste(sample, (x, 0))
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
            _chunk(b"IDAT", deflate.compress(rows, level)),
            _chunk(b"IEND", b""),
        )
    )


def encode(image: Image.Image, palette: Image.Image) -> bytes:
    """PNG bytes of the RGB ``image`` mapped onto ``palette``."""
    return encode_indexed(image.quantize(palette=palette, dither=Image.Dither.NONE))
