"""Ur: pieces, pools and movable markers are drawn where the state says."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import pytest
from PIL import Image

from bot.engines import ur
from bot.engines.common import Phase
from bot.engines.ur_labels import piece_labels
from renderers import render as render_board
from renderers import ur as r
from renderers.theme import get_theme
from tests.renderers.helpers import Colour, near, pixel, playout

render = partial(render_board, renderer=r)  # this game's boards


def position(light: list[int], dark: list[int], to_move: str = "light") -> ur.Position:
    """Seven path squares per side: 0 waiting, 15 borne off."""
    return ur.Position.from_squares(light, dark, to_move)


def body(centre: tuple[float, float], diameter: int) -> tuple[float, float]:
    """A point on a piece's face, clear of its dot, ring and the label badge."""
    return centre[0] - diameter * 0.2, centre[1]


@pytest.mark.parametrize("perspective", [0, 1])
def test_pieces_and_empty_squares(perspective: int) -> None:
    board = position([0, 0, 3, 4, 8, 14, 15], [0, 2, 5, 9, 13, 15, 15], "dark")
    state = ur.UrState(board, Phase.ROLL, ur.DARK)
    image = render(state, perspective=perspective)
    occupied: set[tuple[int, int]] = set()
    for seat, side, colour in ((0, "light", r.LIGHT_PIECE), (1, "dark", r.DARK_PIECE)):
        for square in board.squares(side):
            if 0 < square < 15:
                cell = r.square_cell(perspective, seat, square)
                occupied.add(cell)
                assert near(pixel(image, body(r.cell_centre(*cell), r.PIECE)), colour)
        for slot in range(board.waiting(side)):
            centre = r.pool_centre(perspective, seat, 0, slot)
            assert near(pixel(image, body(centre, r.POOL_PIECE)), colour)
        for slot in range(board.borne_off(side)):
            centre = r.pool_centre(perspective, seat, 15, slot)
            assert near(pixel(image, body(centre, r.POOL_PIECE)), colour)
        # The slot after the last waiting piece is empty.
        empty = r.pool_centre(perspective, seat, 0, board.waiting(side))
        assert pixel(image, body(empty, r.POOL_PIECE)) == get_theme("dark").panel
    for row in range(r.ROWS):
        for column in range(r.COLUMNS):
            if (row, column) in occupied or (row != 1 and column in r.GAP_COLUMNS):
                continue
            sample = pixel(image, body(r.cell_centre(row, column), r.PIECE))
            assert near(sample, r.TILE) or near(sample, r.ROSETTE_MARK), (row, column)


def test_own_lanes_follow_the_perspective() -> None:
    assert r.square_cell(0, 0, 1) == (2, 3)
    assert r.square_cell(0, 1, 1) == (0, 3)
    assert r.square_cell(1, 1, 4) == (2, 0)
    assert r.square_cell(0, 0, 8) == r.square_cell(0, 1, 8) == (1, 3)
    assert r.square_cell(0, 0, 13) == (2, 7)
    assert r.square_cell(0, 0, 14) == (2, 6)
    with pytest.raises(ValueError):
        r.square_cell(0, 0, 15)


def test_rosettes_are_drawn_where_the_rules_put_them() -> None:
    image = r.static_board("dark", 0)
    for seat in (0, 1):
        for square in range(1, 15):
            centre = r.cell_centre(*r.square_cell(0, seat, square))
            corner = pixel(image, (centre[0] + r.SQUARE * 0.35, centre[1] + r.SQUARE * 0.35))
            expected = r.ROSETTE if square in ur.ROSETTE_SQUARES else r.TILE
            assert near(corner, expected), (seat, square)


def _ring_colour(image: Image.Image, centre: tuple[float, float], diameter: int) -> Colour:
    radius = (diameter + 10) / 2 - 3.5
    return pixel(image, (centre[0] - radius, centre[1]))


@pytest.mark.parametrize("seed", [4, 5])
def test_movable_markers_follow_the_legal_moves(seed: int) -> None:
    theme = get_theme("dark")
    checked = 0
    for state in playout(ur, seed):
        if state.phase is not Phase.MOVE or checked > 12:
            continue
        checked += 1
        state = replace(state, last_move=None)
        image = render(state, perspective=0)
        side = ur.SEATS[state.turn]
        movable = piece_labels(state)
        for square in state.position.squares(side):
            if square in (0, 15):
                continue
            centre = r.piece_centre(0, state.turn, square)
            ringed = near(_ring_colour(image, centre, r.PIECE), theme.movable, 30)
            assert ringed == (square in movable), (square, movable)
        if state.position.waiting(side):
            centre = r.pool_centre(0, state.turn, 0, 0)
            ringed = near(_ring_colour(image, centre, r.POOL_PIECE), theme.movable, 30)
            assert ringed == (0 in movable)
    assert checked
