"""The shipped DejaVu Sans faces and text stamps cut from them.

Text is drawn once per (text, size, weight) into an ``L`` coverage mask and pasted with an ink
colour afterwards: one mask serves every colour and theme, and the FreeType face is only used
while building, under the cache lock.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from renderers.memo import cached

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

Colour = tuple[int, int, int]


@cached
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)


@cached
def text_mask(text: str, size: int, bold: bool = False) -> Image.Image:
    """Coverage mask of ``text``: as wide as its advance, as tall as the font's line.

    Every string of one size gets the same height and baseline, so labels placed by their
    middle line up whatever their glyphs.
    """
    face = font(size, bold)
    ascent, descent = face.getmetrics()
    width = max(1, round(face.getlength(text)) + 2)
    mask = Image.new("L", (width, ascent + descent), 0)
    ImageDraw.Draw(mask).text((1, ascent), text, font=face, fill=255, anchor="ls")
    return mask


@cached
def ascent(size: int, bold: bool = False) -> int:
    return font(size, bold).getmetrics()[0]


def text_width(text: str, size: int, bold: bool = False) -> int:
    return text_mask(text, size, bold).width


def draw_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    ink: Colour,
    *,
    bold: bool = False,
    anchor: str = "mm",
) -> tuple[int, int, int, int]:
    """Paste ``text`` at ``xy``; ``anchor`` is two letters, horizontal l/m/r, vertical t/m/b.

    Returns the box the text covers.
    """
    mask = text_mask(text, size, bold)
    x, y = xy
    w, h = mask.size
    left = x - {"l": 0.0, "m": w / 2, "r": float(w)}[anchor[0]]
    # Centre on the digits' and capitals' middle, not the line box, which has room for
    # descenders below: that looks centred inside discs and badges.
    cap_middle = ascent(size, bold) - size * 0.36
    top = y - {"t": 0.0, "m": cap_middle, "b": float(h)}[anchor[1]]
    box = (round(left), round(top), round(left) + w, round(top) + h)
    image.paste(ink, box, mask)
    return box
