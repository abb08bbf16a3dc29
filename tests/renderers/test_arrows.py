"""Arrows are pasted in pieces that skip where the mask has no ink: the board must come out
exactly as when the whole masks are pasted over the arrow's box."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from renderers.arrows import Point, coverage, curve, draw_arrow

SIZE = (420, 300)
EDGE, INK = (10, 30, 50), (64, 196, 255)


def busy_board() -> Image.Image:
    """A background with a different colour nearly everywhere, so any stray blend shows."""
    rng = random.Random(3)
    return Image.frombytes("RGB", SIZE, bytes(rng.randrange(256) for _ in range(3 * 420 * 300)))


PATHS: list[list[Point]] = [
    curve((40.0, 260.0), (380.0, 30.0), 0.15),  # long and diagonal: mostly empty box
    curve((380.0, 40.0), (60.0, 50.0), -0.15),  # right to left
    [(200.0, 20.0), (200.0, 280.0)],  # straight down
    [(10.0, 150.0), (150.0, 150.0), (150.0, 40.0)],  # a corner (Ur's lanes)
    curve((-30.0, 200.0), (120.0, 320.0), 0.2),  # partly off the image
]


@pytest.mark.parametrize("path", PATHS, ids=["diagonal", "leftward", "down", "corner", "edge"])
def test_pieces_paste_exactly_the_whole_masks(path: list[Point]) -> None:
    drawn = busy_board()
    draw_arrow(drawn, path, INK, EDGE, width=5, head=17)
    expected = busy_board()
    found = coverage(path, 5.0, 17.0, SIZE)
    assert found is not None
    box, outline, arrow = found
    expected.paste(EDGE, box, outline)
    expected.paste(INK, box, arrow)
    assert drawn.tobytes() == expected.tobytes()
    assert drawn.tobytes() != busy_board().tobytes()
    again = busy_board()
    draw_arrow(again, path, INK, EDGE, width=5, head=17)  # from the kept masks
    assert again.tobytes() == drawn.tobytes()


def test_an_arrow_off_the_image_draws_nothing() -> None:
    board = busy_board()
    draw_arrow(board, [(-200.0, -200.0), (-100.0, -150.0)], INK, EDGE)
    assert board.tobytes() == busy_board().tobytes()
    assert coverage([(-200.0, -200.0), (-100.0, -150.0)], 6.0, 18.0, SIZE) is None
