"""The shipped DejaVu Sans faces and text stamps cut from them.

Text is drawn once per (text, size, weight) into an ``L`` coverage mask and pasted with an ink
colour afterwards: one mask serves every colour and theme, and the FreeType face is only used
while building, under ``FONT_LOCK`` (FreeType faces are not thread-safe; builds of other
stamps and boards go on meanwhile, see ``renderers.memo``).
"""

from __future__ import annotations

import threading
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from renderers.canvas import Surface
from renderers.memo import cached

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

Colour = tuple[int, int, int]
Box = tuple[int, int, int, int]  # left, top, right, bottom (right and bottom exclusive)

# Held only around calls into FreeType, never while waiting for another cached value.
FONT_LOCK = threading.Lock()


@cached
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    with FONT_LOCK:
        return ImageFont.truetype(str(BOLD if bold else REGULAR), size)


@cached
def text_mask(text: str, size: int, bold: bool = False, squeeze: float = 1.0) -> Image.Image:
    """Coverage mask of ``text``: as wide as its advance, as tall as the font's line.

    Every string of one size gets the same height and baseline, so labels placed by their
    middle line up whatever their glyphs. ``squeeze`` < 1 narrows the glyphs (drawn at
    four times the size and reduced), for large labels in narrow places.
    """
    face = font(size, bold)
    with FONT_LOCK:
        ascent, descent = face.getmetrics()
    if squeeze != 1.0:
        big = text_mask(text, size * 4, bold)
        width = max(1, round(big.width * squeeze / 4))
        return big.resize((width, ascent + descent), Image.Resampling.BOX)
    with FONT_LOCK:
        width = max(1, round(face.getlength(text)) + 2)
        mask = Image.new("L", (width, ascent + descent), 0)
        ImageDraw.Draw(mask).text((1, ascent), text, font=face, fill=255, anchor="ls")
    return mask


@cached
def ascent(size: int, bold: bool = False) -> int:
    face = font(size, bold)
    with FONT_LOCK:
        return face.getmetrics()[0]


@cached
def outline_mask(text: str, size: int, bold: bool, width: int, squeeze: float = 1.0) -> Image.Image:
    """Coverage of ``text`` grown by ``width`` pixels all round: :func:`text_mask` padded by
    ``width`` on every side and dilated."""
    inner = text_mask(text, size, bold, squeeze)
    mask = Image.new("L", (inner.width + 2 * width, inner.height + 2 * width), 0)
    mask.paste(inner, (width, width))
    return mask.filter(ImageFilter.MaxFilter(2 * width + 1))


@cached
def ink_box(text: str, size: int, bold: bool = False, squeeze: float = 1.0) -> Box:
    """The box of the glyphs themselves (pixels at least half covered) inside
    :func:`text_mask`: what a reader sees, without the line's room for accents and
    descenders."""
    mask = text_mask(text, size, bold, squeeze)
    box = mask.point(lambda v: 255 if v >= 128 else 0).getbbox()
    return box if box is not None else (0, 0, 0, 0)


def text_width(text: str, size: int, bold: bool = False, squeeze: float = 1.0) -> int:
    return text_mask(text, size, bold, squeeze).width


def text_box(
    xy: tuple[float, float],
    text: str,
    size: int,
    bold: bool = False,
    anchor: str = "mm",
    squeeze: float = 1.0,
) -> Box:
    """Where :func:`draw_text` puts the mask of ``text`` for the same arguments."""
    mask = text_mask(text, size, bold, squeeze)
    x, y = xy
    w, h = mask.size
    left = x - {"l": 0.0, "m": w / 2, "r": float(w)}[anchor[0]]
    # Centre on the digits' and capitals' middle, not the line box, which has room for
    # descenders below: that looks centred inside discs and badges.
    cap_middle = ascent(size, bold) - size * 0.36
    top = y - {"t": 0.0, "m": cap_middle, "b": float(h)}[anchor[1]]
    return round(left), round(top), round(left) + w, round(top) + h


def draw_text(
    image: Surface,
    xy: tuple[float, float],
    text: str,
    size: int,
    ink: Colour,
    *,
    bold: bool = False,
    anchor: str = "mm",
    outline: Colour | None = None,
    outline_width: int = 2,
    squeeze: float = 1.0,
) -> Box:
    """Paste ``text`` at ``xy``; ``anchor`` is two letters, horizontal l/m/r, vertical t/m/b.
    ``outline`` rings the glyphs in a second colour, for text on a busy or mid-tone ground.

    Returns the box the glyphs cover (see :func:`ink_box`).
    """
    box = text_box(xy, text, size, bold, anchor, squeeze)
    if outline is not None:
        w = outline_width
        grown = (box[0] - w, box[1] - w, box[2] + w, box[3] + w)
        image.paste(outline, grown, outline_mask(text, size, bold, w, squeeze))
    image.paste(ink, box, text_mask(text, size, bold, squeeze))
    glyphs = ink_box(text, size, bold, squeeze)
    return box[0] + glyphs[0], box[1] + glyphs[1], box[0] + glyphs[2], box[1] + glyphs[3]
