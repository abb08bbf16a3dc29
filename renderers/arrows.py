"""Anti-aliased arrows and trails for the last move and previewed steps.

An arrow's coverage masks are kept for the next boards (``ARROWS_KEPT`` of them): the last
move's arrows are drawn again on every board of the next player's turn (the roll, each
checker picked, each step previewed). They are kept cut into bands of rows, each cropped to
where it has ink, so a long diagonal arrow blends its own pixels rather than its whole
bounding box (pasting a colour through a mask of 0 leaves a pixel exactly as it was, so the
board is the same bytes).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderers.canvas import Canvas, Paste, Surface
from renderers.fonts import Colour

Point = tuple[float, float]
Box = tuple[int, int, int, int]
Pieces = tuple[tuple[Box, Image.Image], ...]  # where on the board, and the mask there

# Arrows are drawn at twice their size, not at the sprites' SCALE: their masks span much of
# the board, and 2x already smooths a stroke this wide.
ARROW_SCALE = 2
ARROWS_KEPT = 128  # masks of a few hundred KB at most in all
BAND = 16  # rows per band of a kept mask


def curve(start: Point, end: Point, bend: float = 0.18, samples: int = 10) -> list[Point]:
    """A gentle quadratic arc from ``start`` to ``end``, bowed to the left of travel.

    The bow keeps an arrow off the pieces that sit on the straight line between.
    """
    (x0, y0), (x1, y1) = start, end
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    dx, dy = x1 - x0, y1 - y0
    cx, cy = mx + dy * bend, my - dx * bend
    out = []
    for i in range(samples + 1):
        t = i / samples
        a, b, c = (1 - t) ** 2, 2 * (1 - t) * t, t * t
        out.append((a * x0 + b * cx + c * x1, a * y0 + b * cy + c * y1))
    return out


def shorten(path: list[Point], cut: float) -> list[Point]:
    """Pull the arrow's tip back by ``cut`` (at most half its last segment) from the centre
    of the square it lands on, so the piece there stays visible."""
    if len(path) < 2:
        return path
    (x0, y0), (x1, y1) = path[-2], path[-1]
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 or 1.0
    cut = min(cut, length * 0.5)
    return [*path[:-1], (x1 - (x1 - x0) * cut / length, y1 - (y1 - y0) * cut / length)]


def draw_arrow(
    image: Surface,
    path: Sequence[Point],
    colour: Colour,
    edge: Colour,
    width: float = 6.0,
    head: float = 18.0,
) -> None:
    """Stroke ``path`` with an arrowhead at its end, outlined in ``edge`` for contrast."""
    if len(path) < 2:
        return
    shape = (tuple(path), float(width), float(head), image.size)
    if isinstance(image, Canvas):
        # One box for the whole arrow, its masks drawn and blended only if that box is not
        # cached (in bands: a colour through a mask costs Pillow ~5 ns a pixel, ink or not).
        box = arrow_box(*shape)
        if box is None:
            return

        def pastes() -> list[Paste]:
            masks = _arrow_masks(*shape)
            inked = zip((edge, colour), masks, strict=True)
            return [(ink, at, mask) for ink, pieces in inked for at, mask in pieces]

        image.paste_group(box, pastes, ("arrow", *shape, edge, colour))
        return
    masks = _arrow_masks(*shape)
    for ink, pieces in zip((edge, colour), masks, strict=True):
        for at, mask in pieces:
            image.paste(ink, at, mask)


@functools.lru_cache(maxsize=ARROWS_KEPT)
def _arrow_masks(
    path: tuple[Point, ...], width: float, head: float, size: tuple[int, int]
) -> tuple[Pieces, Pieces]:
    """The outline's and the arrow's coverage, in pieces (see the module's doc), on an image
    of ``size``."""
    found = coverage(path, width, head, size)
    if found is None:
        return (), ()
    (left, top, _, _), outline, arrow = found
    return _pieces(outline, left, top), _pieces(arrow, left, top)


def arrow_box(
    path: Sequence[Point], width: float, head: float, size: tuple[int, int]
) -> Box | None:
    """The box an arrow along ``path`` covers on an image of ``size`` (None: it misses)."""
    pad = head + width + 4
    xs = [p[0] for p in path]
    ys = [p[1] for p in path]
    left = max(0, math.floor(min(xs) - pad))
    top = max(0, math.floor(min(ys) - pad))
    right = min(size[0], math.ceil(max(xs) + pad))
    bottom = min(size[1], math.ceil(max(ys) + pad))
    if right <= left or bottom <= top:
        return None
    return left, top, right, bottom


def coverage(
    path: Sequence[Point], width: float, head: float, size: tuple[int, int]
) -> tuple[Box, Image.Image, Image.Image] | None:
    """The box an arrow along ``path`` covers on an image of ``size``, and its outline's and
    its own coverage masks over that box (None when it misses the image).

    Drawn at ARROW_SCALE into a mask the size of the arrow's box, so the cost follows the
    arrow, not the image.
    """
    box = arrow_box(path, width, head, size)
    if box is None:
        return None
    left, top, right, bottom = box
    w, h = right - left, bottom - top
    s = ARROW_SCALE
    pts = [((x - left) * s, (y - top) * s) for x, y in path]
    (xa, ya), (xb, yb) = pts[-2], pts[-1]
    angle = math.atan2(yb - ya, xb - xa)
    length = head * s
    # Stop the shaft short of the tip so its round end does not poke through the head.
    shaft_end = (xb - math.cos(angle) * length * 0.6, yb - math.sin(angle) * length * 0.6)
    shaft = [*pts[:-1], shaft_end]
    tip = [
        (xb, yb),
        (
            xb - length * math.cos(angle) + length * 0.55 * math.sin(angle),
            yb - length * math.sin(angle) - length * 0.55 * math.cos(angle),
        ),
        (
            xb - length * math.cos(angle) - length * 0.55 * math.sin(angle),
            yb - length * math.sin(angle) + length * 0.55 * math.cos(angle),
        ),
    ]
    masks = []
    for extra in (2.5, 0.0):  # the outline, then the arrow
        mask = Image.new("L", (w * s, h * s), 0)
        draw = ImageDraw.Draw(mask)
        stroke = round((width + 2 * extra) * s)
        draw.line(shaft, fill=255, width=stroke)
        # Round caps and joints: a disc on every vertex (cheaper than Pillow's curve joints).
        r = stroke / 2
        for vx, vy in shaft:
            draw.ellipse((vx - r, vy - r, vx + r, vy + r), fill=255)
        if extra:
            centroid = (sum(p[0] for p in tip) / 3, sum(p[1] for p in tip) / 3)
            grown = [
                (
                    cx + (cx - centroid[0]) * (extra * s * 2.2 / length),
                    cy + (cy - centroid[1]) * (extra * s * 2.2 / length),
                )
                for cx, cy in tip
            ]
            draw.polygon(grown, fill=255)
        else:
            draw.polygon(tip, fill=255)
        masks.append(mask.reduce(ARROW_SCALE))
    return (left, top, right, bottom), masks[0], masks[1]


def _pieces(mask: Image.Image, left: int, top: int) -> Pieces:
    """``mask`` (placed at ``left``, ``top``) in bands of BAND rows, each cropped to its ink."""
    pieces = []
    for y in range(0, mask.height, BAND):
        band = mask.crop((0, y, mask.width, min(y + BAND, mask.height)))
        inked = band.getbbox()
        if inked is None:
            continue
        x0, y0, x1, y1 = inked
        pieces.append(((left + x0, top + y + y0, left + x1, top + y + y1), band.crop(inked)))
    return tuple(pieces)
