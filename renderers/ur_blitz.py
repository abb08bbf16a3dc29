"""Ur's Blitz board: the standard board with the Masters path (:mod:`renderers.ur_sets`)."""

from __future__ import annotations

from bot.engines import ur_blitz
from renderers.ur_sets import ACCENTS, UrSetBoard

BOARD = UrSetBoard(ur_blitz.ENGINE)
SEATS = BOARD.SEATS
draw = BOARD.draw
palette = BOARD.palette
warm = BOARD.warm

__all__ = ["ACCENTS", "SEATS", "draw", "palette", "warm"]
