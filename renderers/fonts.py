"""The shipped fonts and text stamps cut from them: DejaVu Sans first, then fallback faces for
the scripts it lacks, so that every name is drawn in its own script.

Text is drawn once per (text, size, weight) into an ``L`` coverage mask and pasted with an ink
colour afterwards: one mask serves every colour and theme, and the FreeType faces are only used
while building, under ``FONT_LOCK`` (FreeType faces are not thread-safe; builds of other
stamps and boards go on meanwhile, see ``renderers.memo``).

A text is split into *runs*, each drawn with the first face of the chain (:data:`CHAINS`) that
has a glyph for its characters (marks, joiners and variation selectors stay with the character
they belong to); a character no face has is drawn as U+FFFD, never as the font's empty box.
Right-to-left text (Hebrew, Arabic) is put in reading order first (``python-bidi``) and
Arabic letters joined (``arabic-reshaper``), so the result does not depend on whether Pillow
was built with libraqm; with libraqm, runs are also shaped by HarfBuzz (Devanagari's
conjuncts and vowel signs, emoji sequences). Text DejaVu covers alone, left to right (nearly
every label and most names), takes the path it always took: one run, no reordering.
"""

from __future__ import annotations

import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Final

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


@dataclass(frozen=True, slots=True)
class Face:
    """One shipped font file (``index``: the face inside a collection)."""

    file: str
    index: int = 0

    @property
    def path(self) -> Path:
        return FONT_DIR / self.file


@dataclass(frozen=True, slots=True)
class Run:
    """Characters drawn with one face, in drawing (left to right) order."""

    face: Face
    text: str


DEJAVU: Final = Face("DejaVuSans.ttf")
DEJAVU_BOLD: Final = Face("DejaVuSans-Bold.ttf")
CJK: Final = Face("NotoSansCJKsc-Regular.otf")  # one weight: bold CJK is drawn regular
EMOJI: Final = Face("NotoEmoji-Regular.ttf")
# DejaVu first (Latin with every diacritic, Greek, Cyrillic, Hebrew, Arabic), then each script
# it lacks. Order matters only where two faces share a character: the earlier one draws it.
CHAINS: Final[dict[bool, tuple[Face, ...]]] = {
    False: (
        DEJAVU,
        Face("NotoSansDevanagari-Regular.ttf"),
        Face("NotoSansArabic-Regular.ttf"),
        CJK,
        EMOJI,
    ),
    True: (
        DEJAVU_BOLD,
        Face("NotoSansDevanagari-Bold.ttf"),
        Face("NotoSansArabic-Bold.ttf"),
        CJK,
        EMOJI,
    ),
}
REPLACEMENT = "\ufffd"  # drawn for a character no shipped face has
_RIGHT_TO_LEFT = frozenset({"R", "AL", "RLE", "RLO", "RLI"})
# Joiners, variation selectors, bidi controls, tags: invisible, kept with the run before
# them when its face knows them (an emoji sequence, a Devanagari half form), else dropped.
_INVISIBLE = frozenset(
    (
        *range(0x200B, 0x2010),
        *range(0x202A, 0x202F),
        *range(0x2060, 0x2065),
        *range(0xFE00, 0xFE10),
        0xFEFF,
        *range(0xE0020, 0xE0080),
        *range(0xE0100, 0xE01F0),
    )
)


@cached
def coverage(face: Face) -> frozenset[int]:
    """The characters ``face`` has a glyph for (its character map)."""
    from fontTools.ttLib import TTFont  # imported when the first stamp is built, not before

    with TTFont(str(face.path), fontNumber=face.index, lazy=True) as font:
        return frozenset(font.getBestCmap())


def reading_order(text: str) -> str:
    """``text`` in drawing order: unchanged when nothing in it reads right to left; else
    Arabic letters in their joined forms and the whole in the Unicode bidi order."""
    if not any(unicodedata.bidirectional(ch) in _RIGHT_TO_LEFT for ch in text):
        return text
    import arabic_reshaper  # only a process that meets such a name loads these
    from bidi import get_display

    # Left to right as a whole: the pictures' own words are English, and a name in them
    # reads right to left inside that line.
    return str(get_display(arabic_reshaper.reshape(text), base_dir="L"))


def _attaches(ch: str) -> bool:
    """A character drawn with the one before it: a mark, joiner or emoji modifier."""
    point = ord(ch)
    return (
        point in _INVISIBLE
        or unicodedata.category(ch) in ("Mn", "Mc", "Me")
        or 0x1F3FB <= point <= 0x1F3FF
    )


def runs(text: str, bold: bool = False) -> tuple[Run, ...]:
    """``text`` split into runs of the first face of the chain that has each character."""
    return split_runs(text, CHAINS[bold])


def split_runs(text: str, chain: tuple[Face, ...]) -> tuple[Run, ...]:
    primary = coverage(chain[0])
    visual = reading_order(text)
    if visual is text and all(ord(ch) in primary for ch in text):
        return (Run(chain[0], text),) if text else ()
    pieces: list[tuple[Face, list[str]]] = []
    for ch in visual:
        point = ord(ch)
        if pieces and _attaches(ch):
            face, chars = pieces[-1]
            if point in coverage(face):
                chars.append(ch)
                continue
            if point in _INVISIBLE:
                continue  # nothing to draw, and its face would draw a box
        elif pieces and unicodedata.category(ch) == "Zs" and point in coverage(pieces[-1][0]):
            pieces[-1][1].append(ch)  # a space between two words of one script
            continue
        found = next((f for f in chain if point in coverage(f)), None)
        if found is None:
            if point in _INVISIBLE:
                continue
            found = next((f for f in chain if ord(REPLACEMENT) in coverage(f)), None)
            if found is None:
                continue
            ch = REPLACEMENT
        face = found
        if pieces and pieces[-1][0] == face:
            pieces[-1][1].append(ch)
        else:
            pieces.append((face, [ch]))
    return tuple(Run(face, "".join(chars)) for face, chars in pieces)


def unmapped(drawn: tuple[Run, ...]) -> list[tuple[str, Face]]:
    """The characters of ``drawn`` that their face has no glyph for: what would be drawn as
    its missing glyph (.notdef, the empty box)."""
    return [(ch, run.face) for run in drawn for ch in run.text if ord(ch) not in coverage(run.face)]


@cached
def face_font(face: Face, size: int) -> ImageFont.FreeTypeFont:
    with FONT_LOCK:
        return ImageFont.truetype(str(face.path), size, index=face.index)


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans, whose line (ascent and descent) every text of this size is set on."""
    return face_font(CHAINS[bold][0], size)


def _direction(face: ImageFont.FreeTypeFont) -> str | None:
    # Runs are already in drawing order: libraqm must not reorder them again. Without
    # libraqm Pillow lays text out left to right and takes no direction.
    return "ltr" if face.layout_engine == ImageFont.Layout.RAQM else None


@cached
def text_mask(text: str, size: int, bold: bool = False, squeeze: float = 1.0) -> Image.Image:
    """Coverage mask of ``text``: as wide as its advance, as tall as the font's line.

    Every string of one size gets the same height and baseline, so labels placed by their
    middle line up whatever their glyphs. ``squeeze`` < 1 narrows the glyphs (drawn at
    four times the size and reduced), for large labels in narrow places.
    """
    primary = font(size, bold)
    with FONT_LOCK:
        ascent, descent = primary.getmetrics()
    if squeeze != 1.0:
        big = text_mask(text, size * 4, bold)
        width = max(1, round(big.width * squeeze / 4))
        return big.resize((width, ascent + descent), Image.Resampling.BOX)
    parts = runs(text, bold)
    if len(parts) == 1 and parts[0].face == CHAINS[bold][0]:
        with FONT_LOCK:  # the common case, as it always was drawn
            width = max(1, round(primary.getlength(text)) + 2)
            mask = Image.new("L", (width, ascent + descent), 0)
            ImageDraw.Draw(mask).text((1, ascent), text, font=primary, fill=255, anchor="ls")
        return mask
    faces = [face_font(run.face, size) for run in parts]
    with FONT_LOCK:
        pairs = list(zip(faces, parts, strict=True))
        advances = [face.getlength(run.text, direction=_direction(face)) for face, run in pairs]
        mask = Image.new("L", (max(1, round(sum(advances)) + 2), ascent + descent), 0)
        draw = ImageDraw.Draw(mask)
        x = 1.0
        for face, run, advance in zip(faces, parts, advances, strict=True):
            draw.text(
                (x, ascent), run.text, font=face, fill=255, anchor="ls", direction=_direction(face)
            )
            x += advance
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
