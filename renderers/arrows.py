"""Anti-aliased arrows and trails for the last move and previewed steps."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderers.fonts import Colour

Point = tuple[float, float]

# Arrows are drawn at twice their size, not at the sprites' SCALE: their masks span much of
# the board, and 2x already smooths a stroke this wide.
ARROW_SCALE = 2


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


def draw_arrow(
    image: Image.Image,
    path: Sequence[Point],
    colour: Colour,
    edge: Colour,
    width: float = 6.0,
    head: float = 18.0,
) -> None:
    """Stroke ``path`` with an arrowhead at its end, outlined in ``edge`` for contrast.

    Drawn at ARROW_SCALE into a coverage mask the size of the arrow's box, so the cost follows the
    arrow, not the image.
    """
    if len(path) < 2:
        return
    pad = head + width + 4
    xs = [p[0] for p in path]
    ys = [p[1] for p in path]
    left = max(0, math.floor(min(xs) - pad))
    top = max(0, math.floor(min(ys) - pad))
    right = min(image.width, math.ceil(max(xs) + pad))
    bottom = min(image.height, math.ceil(max(ys) + pad))
    if right <= left or bottom <= top:
        return
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
    for ink, extra in ((edge, 2.5), (colour, 0.0)):
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
        small = mask.reduce(ARROW_SCALE)
        image.paste(ink, (left, top, right, bottom), small)
