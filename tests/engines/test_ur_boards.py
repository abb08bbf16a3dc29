"""Readable Ur board fixtures shared by the Ur tests, and checks that the helpers are right.

``board(light=[...], dark=[...])`` lists the path squares of the pieces that matter; every
piece not listed waits on square 0 (``OFF`` = 15 for borne off). ``diagram(position)`` draws
the physical board the way the comments in the rule tests do::

    light  * . . . | | * .      light lane: path squares 4 3 2 1, gap, 14 13
    shared . . . * . . . .      shared lane: 5 6 7 8 9 10 11 12
    dark   * . . . | | * .      dark lane: the same squares as light's lane

``L`` / ``D`` mark pieces, ``*`` an empty rosette, ``.`` an empty square.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engines import ur

OFF = ur.OFF

_LANE = (4, 3, 2, 1, None, None, 14, 13)
_SHARED = tuple(range(5, 13))


def board(
    light: Sequence[int] = (), dark: Sequence[int] = (), to_move: str = "light"
) -> ur.Position:
    """A position with the listed pieces on the board (or off); the rest wait on square 0."""
    return ur.Position.from_squares(
        [*light] + [0] * (ur.PIECES - len(light)),
        [*dark] + [0] * (ur.PIECES - len(dark)),
        to_move,
    )


def _cell(held: bool, mark: str, square: int) -> str:
    if held:
        return mark
    return "*" if square in ur.ROSETTE_SQUARES else "."


def diagram(position: ur.Position) -> str:
    """Three text rows of the physical board, plus each side's waiting and borne-off count."""
    light = set(position.squares("light"))
    dark = set(position.squares("dark"))
    rows = []
    for name, mine, mark in (("light", light, "L"), ("dark", dark, "D")):
        cells = ["|" if sq is None else _cell(sq in mine, mark, sq) for sq in _LANE]
        counts = f"waiting {position.waiting(name)}, off {position.borne_off(name)}"
        rows.append((name, " ".join(cells), counts))
    shared = " ".join(
        "L" if sq in light else "D" if sq in dark else _cell(False, "", sq) for sq in _SHARED
    )
    return "\n".join(
        [
            f"light  {rows[0][1]}   {rows[0][2]}",
            f"shared {shared}",
            f"dark   {rows[1][1]}   {rows[1][2]}",
        ]
    )


def test_board_fills_missing_pieces_with_waiting_ones() -> None:
    position = board(light=[3, 8, OFF], dark=[6])
    assert position.squares("light") == (0, 0, 0, 0, 3, 8, 15)
    assert position.squares("dark") == (0, 0, 0, 0, 0, 0, 6)
    assert position.to_move == "light"


def test_diagram_draws_the_physical_board() -> None:
    position = board(light=[3, 8, 13, OFF], dark=[3, 6, 14], to_move="dark")
    assert diagram(position) == "\n".join(
        [
            "light  * L . . | | * L   waiting 3, off 1",
            "shared . D . L . . . .",
            "dark   * D . . | | D .   waiting 4, off 0",
        ]
    )
