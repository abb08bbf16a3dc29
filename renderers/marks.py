"""Where a board image prints the labels that its move buttons carry.

Every renderer records each button label it draws (a point number, a piece's or token's
number, "enter", "bar", "off", a block's numbers) as a :class:`LabelBox`, so tests can
measure the printed glyphs in the image itself, for instance at the size a phone shows it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from PIL import Image

from renderers.canvas import Surface
from renderers.fonts import Box, Colour, draw_text

# Discord shows an image as wide as a phone's chat column, about 400 px; a label the player
# must find on the board should be at least this tall there.
PHONE_WIDTH = 400
PHONE_LABEL_PX = 11


@dataclass(frozen=True, slots=True)
class LabelBox:
    """One printed label: its text, the box its glyphs cover in image pixels, the colour of
    the glyphs and the colour right around them (the plate, outline or page under them)."""

    text: str
    box: Box
    ink: Colour
    plate: Colour


Labels = list[LabelBox]


class Drawn(NamedTuple):
    """A board as a renderer drew it: the image (RGB, or on the game's palette) and where each
    button label is printed on it."""

    image: Image.Image
    labels: Labels


def print_label(
    image: Surface,
    labels: Labels | None,
    xy: tuple[float, float],
    text: str,
    size: int,
    ink: Colour,
    plate: Colour,
    *,
    outline: Colour | None = None,
    anchor: str = "mm",
    squeeze: float = 1.0,
) -> None:
    """Draw a button label straight onto ``image`` (bold) and record where it went."""
    box = draw_text(
        image, xy, text, size, ink, bold=True, anchor=anchor, outline=outline, squeeze=squeeze
    )
    if labels is not None:
        labels.append(LabelBox(text, box, ink, outline if outline is not None else plate))
