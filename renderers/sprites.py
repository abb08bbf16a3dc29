"""Anti-aliased piece and marker sprites.

Each sprite is drawn at ``SCALE`` times its size and box-filtered down once, then cached:
a render only pastes them. Shapes are given in sprite pixels; the painters scale them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renderers.canvas import Surface
from renderers.fonts import Colour, draw_text, text_width
from renderers.marks import LabelBox, Labels
from renderers.memo import cached

SCALE = 4
Painter = Callable[[ImageDraw.ImageDraw, float], None]


def supersample(width: int, height: int, paint: Painter) -> Image.Image:
    """An RGBA sprite of ``width`` x ``height`` painted at SCALE and reduced once.

    ``paint`` receives the draw handle and the scale to multiply its coordinates by.
    """
    big = Image.new("RGBA", (width * SCALE, height * SCALE), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), float(SCALE))
    # resize() premultiplies alpha, so transparent black does not darken the edges.
    return big.resize((width, height), Image.Resampling.BOX)


def paste_centred(
    image: Surface, sprite: Image.Image, centre: tuple[float, float]
) -> tuple[int, int]:
    """Paste ``sprite`` centred on ``centre``; returns its top-left corner."""
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    image.paste(sprite, (x, y), sprite)
    return x, y


@dataclass(frozen=True, slots=True)
class Stamp:
    """A sprite carrying a button label, with the label's glyph box inside the sprite."""

    sprite: Image.Image
    labels: tuple[LabelBox, ...]


def paste_stamp(
    image: Surface, stamp: Stamp, centre: tuple[float, float], labels: Labels | None
) -> None:
    """Paste ``stamp`` centred on ``centre`` and record where its labels landed."""
    paste_centred(image, stamp.sprite, centre)
    if labels is not None:
        labels.extend(stamp_labels(stamp, centre))


def stamp_labels(stamp: Stamp, centre: tuple[float, float]) -> list[LabelBox]:
    """Where the labels of ``stamp`` are once it is pasted centred on ``centre`` (for stamps
    already drawn into a cached layer)."""
    x = round(centre[0] - stamp.sprite.width / 2)
    y = round(centre[1] - stamp.sprite.height / 2)
    placed = []
    for label in stamp.labels:
        left, top, right, bottom = label.box
        box = (left + x, top + y, right + x, bottom + y)
        placed.append(LabelBox(label.text, box, label.ink, label.plate))
    return placed


def polygon_points(shape: str, centre: float, radius: float) -> list[tuple[float, float]] | None:
    """Corners of a seat shape around (centre, centre); ``None`` for a circle."""
    corners = {"circle": 0, "square": 4, "diamond": 4, "hexagon": 6, "triangle": 3}[shape]
    if corners == 0:
        return None
    start = {"square": 45.0, "diamond": 0.0, "hexagon": 0.0, "triangle": -90.0}[shape]
    if shape == "square":
        radius *= 1.18  # a square of the same radius looks smaller than a disc
    if shape == "triangle":
        radius *= 1.25
    return [
        (
            centre + radius * math.cos(math.radians(start + i * 360 / corners)),
            centre + radius * math.sin(math.radians(start + i * 360 / corners)),
        )
        for i in range(corners)
    ]


@cached
def piece(
    diameter: int,
    fill: Colour,
    edge: Colour,
    *,
    shape: str = "circle",
    ring: Colour | None = None,
    dot: Colour | None = None,
    edge_width: float = 2.0,
) -> Image.Image:
    """A game piece: ``shape`` filled and outlined, with an optional inner ring or centre dot.

    The ring and the dot are what tell sides apart without colour.
    """
    size = diameter + 2

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        c = size * s / 2
        r = diameter * s / 2
        corners = polygon_points(shape, c, r)
        if corners is None:
            draw.ellipse((c - r, c - r, c + r, c + r), fill=edge)
            inner = r - edge_width * s
            draw.ellipse((c - inner, c - inner, c + inner, c + inner), fill=fill)
        else:
            draw.polygon(corners, fill=edge)
            inner_corners = polygon_points(shape, c, r - edge_width * s * 1.6)
            assert inner_corners is not None
            draw.polygon(inner_corners, fill=fill)
        if ring is not None:
            ring_r = r * 0.62
            draw.ellipse(
                (c - ring_r, c - ring_r, c + ring_r, c + ring_r),
                outline=ring,
                width=max(1, round(r * 0.12)),
            )
        if dot is not None:
            dot_r = r * 0.2
            draw.ellipse((c - dot_r, c - dot_r, c + dot_r, c + dot_r), fill=dot)

    return supersample(size, size, paint)


@cached
def ring(diameter: int, colour: Colour, width: float, edge: Colour | None = None) -> Image.Image:
    """A ring to lay around a piece (the movable marker); ``edge`` outlines it for contrast."""
    size = diameter + 2

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        c = size * s / 2
        r = diameter * s / 2
        if edge is not None:
            draw.ellipse((c - r, c - r, c + r, c + r), outline=edge, width=round((width + 2) * s))
            r -= s
        draw.ellipse((c - r, c - r, c + r, c + r), outline=colour, width=round(width * s))

    return supersample(size, size, paint)


@cached
def ghost(diameter: int, colour: Colour, width: float = 2.5, dashes: int = 12) -> Image.Image:
    """A dashed circle: where a piece stood before the last move."""
    size = diameter + 2

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        c = size * s / 2
        r = diameter * s / 2 - width * s / 2
        step = 360 / dashes
        for i in range(dashes):
            draw.arc(
                (c - r, c - r, c + r, c + r),
                i * step,
                i * step + step * 0.55,
                fill=colour,
                width=round(width * s),
            )

    return supersample(size, size, paint)


@cached
def badge(
    text: str, size: int, fill: Colour, ink: Colour, edge: Colour | None = None
) -> Image.Image:
    """A small rounded tag ("hit", the cube offer) to pin on a piece or the board."""
    height = round(size * 1.55)
    width = max(height, text_width(text, size, True) + round(size * 0.7))
    sprite = rounded_box(width, height, height / 2, fill, edge, 1.5).copy()
    draw_text(sprite, (width / 2, height / 2), text, size, ink, bold=True)
    return sprite


@cached
def plate(
    text: str,
    size: int,
    fill: Colour,
    ink: Colour,
    edge: Colour | None = None,
    min_width: int = 0,
    squeeze: float = 1.0,
) -> Stamp:
    """A button label in bold on a rounded plate, snug around the glyphs so a large label
    stays compact; at least ``min_width`` wide (to line plates up). ``squeeze`` narrows the
    glyphs (see :func:`renderers.fonts.text_mask`)."""
    height = round(size * 1.18)
    width = max(height, text_width(text, size, True, squeeze) + round(size * 0.4), min_width)
    sprite = rounded_box(width, height, round(size * 0.3), fill, edge, 2).copy()
    box = draw_text(sprite, (width / 2, height / 2), text, size, ink, bold=True, squeeze=squeeze)
    return Stamp(sprite, (LabelBox(text, box, ink, fill),))


@cached
def rounded_box(
    width: int,
    height: int,
    radius: float,
    fill: Colour,
    edge: Colour | None = None,
    edge_width: float = 2,
) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        draw.rounded_rectangle(
            (0, 0, width * s - 1, height * s - 1),
            radius=radius * s,
            fill=fill,
            outline=edge,
            width=round(edge_width * s) if edge else 0,
        )

    return supersample(width, height, paint)
