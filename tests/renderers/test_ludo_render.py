"""Ludo: tokens, blocks and movable markers are drawn where the state says."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import pytest
from PIL import Image

from bot.engines import ludo
from bot.engines.common import Phase
from bot.engines.ludo_labels import piece_labels
from renderers import ludo as r
from renderers import render as render_board
from renderers.theme import get_theme
from tests.renderers.helpers import near, pixel, playout

render = partial(render_board, renderer=r)  # this game's boards


def board(
    red: list[int], blue: list[int], green: list[int], yellow: list[int], to_move: str = "red"
) -> ludo.Position:
    """Four token steps per seat: 0 base, 1-48 loop, 49-53 home stretch, 54 home."""
    return ludo.Position.from_steps(
        {"red": red, "blue": blue, "green": green, "yellow": yellow}, to_move
    )


def face(centre: tuple[float, float], diameter: int) -> tuple[float, float]:
    """A point on a token's face beside its number."""
    return centre[0] + diameter * 0.3, centre[1]


def test_geometry_rim_and_home_stretches() -> None:
    assert r.loop_cell(0) == (0, 7)  # red starts just right of top-middle (unturned)
    assert r.step_cell(0, ludo.LOOP) == (0, 6)  # and turns in at the middle
    assert r.step_cell(0, 49) == (1, 6)
    assert r.step_cell(0, ludo.HOME) == (6, 6)
    assert r.step_cell(2, ludo.HOME) == (6, 6)
    cells = {r.loop_cell(square) for square in range(ludo.LOOP)}
    assert len(cells) == ludo.LOOP
    assert all(min(c) == 0 or max(c) == r.GRID - 1 for c in cells)
    # Each seat's start is one step after its turn-in square, on the same side.
    for seat in range(4):
        start = r.step_cell(seat, 1)
        turn_in = r.step_cell(seat, ludo.LOOP)
        assert abs(start[0] - turn_in[0]) + abs(start[1] - turn_in[1]) == 1
    # The perspective seat's base is bottom-left.
    for seat in range(4):
        x, y = r.quadrant_origin(seat, r.rotation(seat))
        assert x < r.WIDTH / 2 < y


@pytest.mark.parametrize("perspective", [0, 1, 2, 3])
def test_tokens_sit_on_their_squares(perspective: int) -> None:
    position = board([1, 9, 50, 0], [0, 0, 30, 54], [20, 0, 47, 0], [0, 5, 0, 52])
    state = ludo.LudoState(position=position, phase=Phase.ROLL)
    image = render(state, perspective=perspective)
    turns = r.rotation(perspective)
    taken: set[tuple[int, int]] = set()
    for seat in range(4):
        for token, step in enumerate(position.steps(seat)):
            centre = r.token_centre(position, seat, token, perspective)
            if step == ludo.HOME:
                assert centre is None
                continue
            assert centre is not None
            diameter = r.BASE_TOKEN if step == 0 else r.TOKEN
            assert near(pixel(image, face(centre, diameter)), r.COLOURS[seat]), (seat, token)
            if step:
                taken.add(r.step_cell(seat, step, turns))
    for square in range(ludo.LOOP):
        cell = r.loop_cell(square, turns)
        if cell not in taken:
            sample = pixel(image, face(r.cell_centre(cell), r.TOKEN))
            assert not any(near(sample, colour, 20) for colour in r.COLOURS), square


def test_blocks_look_unlike_single_tokens() -> None:
    position = board([5, 5, 0, 0], [17, 0, 0, 0], [0] * 4, [0] * 4)
    state = ludo.LudoState(position=position, phase=Phase.ROLL)
    image = render(state, perspective=0)
    groups = list(r.layout(position, r.rotation(0)))
    kinds = {kind for kind, _, members in groups if members[0][0] in (0, 1) and kind != "base"}
    assert kinds == {"block", "token"}
    for kind, (x, y), _ in groups:
        if kind == "base":
            continue
        corner = pixel(image, (x - r.CELL / 2 + 6, y - r.CELL / 2 + 6))
        assert near(corner, r.TOKEN_EDGE) == (kind == "block")


def test_resigned_seats_tokens_neither_block_nor_keep_their_colour() -> None:
    position = replace(board([5, 5, 0, 0], [0] * 4, [0] * 4, [0] * 4), out=frozenset({0}))
    kinds = [kind for kind, _, members in r.layout(position, 0) if members[0][0] == 0]
    assert "block" not in kinds


def _ringed(image: Image.Image, centre: tuple[float, float], diameter: int) -> bool:
    radius = (diameter + 10) / 2 - 3.5
    return near(pixel(image, (centre[0], centre[1] + radius)), get_theme("dark").movable, 30)


@pytest.mark.parametrize("seed", [6])
def test_movable_markers_follow_the_legal_moves(seed: int) -> None:
    checked = 0
    for state in playout(ludo, seed):
        if state.phase is not Phase.MOVE or checked >= 15:
            continue
        position = state.position
        seat = state.turn
        groups = list(r.layout(position, r.rotation(seat)))
        crowded = {m for kind, _, members in groups if kind in ("mini", "block") for m in members}
        checked += 1
        image = render(replace(state, last_move=None), perspective=seat)
        movable = piece_labels(state)
        for token, step in enumerate(position.steps(seat)):
            if step == ludo.HOME or (seat, token) in crowded:
                continue
            centre = r.token_centre(position, seat, token, seat)
            assert centre is not None
            diameter = r.BASE_TOKEN if step == 0 else r.TOKEN
            assert _ringed(image, centre, diameter) == (token in movable), (token, movable)
    assert checked
