"""Toy Race boards: the track as a row of squares, each seat's pieces as discs on its own
lane, the die in the corner. A :class:`renderers.Renderer`: Pillow only."""

from __future__ import annotations

from PIL import Image, ImageDraw

from renderers.canvas import map_onto
from renderers.marks import Drawn
from renderers.view import View
from tests.toy_game.engine import HOME, SEATS, ToyState

SQUARE = 48
WIDTH, HEIGHT = (HOME + 2) * SQUARE, 4 * SQUARE
INKS = {"teal": (20, 150, 150), "coral": (240, 110, 90)}
PAPER = {"dark": (30, 32, 38), "light": (236, 232, 220)}
LINE = (128, 128, 128)
HIGHLIGHT = (250, 220, 60)

__all__ = ["SEATS", "draw", "palette", "warm"]


def draw(state: ToyState, view: View, *, indexed: bool) -> Drawn:
    """The board; a board this small is simply drawn in RGB and, for the PNG, mapped whole."""
    image = _rgb(state, view)
    if indexed:
        image = map_onto(image, palette(view.theme.name))
    return Drawn(image, [])


def _rgb(state: ToyState, view: View) -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER[view.theme.name])
    draw = ImageDraw.Draw(image)
    for square in range(HOME + 1):
        left = (square + 1) * SQUARE
        draw.rectangle((left, SQUARE, left + SQUARE - 1, 3 * SQUARE - 1), outline=LINE)
    for seat, pieces in enumerate(state.pieces):
        top = SQUARE + seat * SQUARE
        for index, square in enumerate(pieces):
            left = (square + 1) * SQUARE + 6 + index * 8
            ring = HIGHLIGHT if view.highlight == square and seat == state.turn else LINE
            draw.ellipse((left, top + 8, left + 28, top + 36), fill=INKS[SEATS[seat]], outline=ring)
    if state.dice:
        draw.rectangle((8, 8, 8 + SQUARE - 16, SQUARE - 8), outline=HIGHLIGHT)
        draw.text((20, 16), str(state.dice[0]), fill=HIGHLIGHT)
    return image


def palette(theme_name: str) -> Image.Image:
    colours = [PAPER[theme_name], LINE, HIGHLIGHT, *INKS.values()]
    flat = [channel for colour in colours for channel in colour]
    image = Image.new("P", (1, 1))
    image.putpalette(flat + [0] * (768 - len(flat)))
    return image


def warm(themes: tuple[str, ...]) -> None:
    """Nothing to build ahead: the board is a few rectangles."""
