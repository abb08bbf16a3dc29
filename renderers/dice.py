"""Dice sprites: six-sided dice and Ur's four-sided (tetrahedral) dice."""

from __future__ import annotations

from PIL import ImageDraw
from PIL.Image import Image

from renderers.fonts import Colour
from renderers.memo import cached
from renderers.sprites import supersample

# Pip positions on a 3x3 grid, (column, row) in 0..2.
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


@cached
def d6(value: int, size: int, face: Colour, pip: Colour, edge: Colour) -> Image:
    """One die showing ``value``."""

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        full = size * s
        draw.rounded_rectangle(
            (s, s, full - s, full - s),
            radius=size * s * 0.18,
            fill=face,
            outline=edge,
            width=round(2 * s),
        )
        step = full * 0.27
        r = full * 0.09
        for col, row in PIPS[value]:
            cx = full / 2 + (col - 1) * step
            cy = full / 2 + (row - 1) * step
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=pip)

    return supersample(size, size, paint)


@cached
def tetra(marked: bool, size: int, face: Colour, mark: Colour, edge: Colour) -> Image:
    """One of Ur's tetrahedral dice seen from above; a dot on the tip when it counts."""

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        full = size * s
        top = (full / 2, s * 2)
        left = (s * 2, full - s * 3)
        right = (full - s * 2, full - s * 3)
        centre = (full / 2, full * 0.62)
        draw.polygon([top, left, right], fill=face, outline=edge, width=round(2 * s))
        # Three faces meeting at the tip, as a tetrahedron looks from above.
        for corner in (top, left, right):
            draw.line([corner, centre], fill=edge, width=round(1.5 * s))
        if marked:
            r = full * 0.11
            draw.ellipse(
                (centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r),
                fill=mark,
                outline=edge,
                width=round(1 * s),
            )

    return supersample(size, size, paint)
