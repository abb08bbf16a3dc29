"""Ur's Masters board: the standard board with the Masters path (:mod:`renderers.ur_sets`)."""

from __future__ import annotations

from bot.engines import ur_masters
from renderers.ur_sets import ACCENTS, UrSetBoard

BOARD = UrSetBoard(ur_masters.ENGINE)
SEATS = BOARD.SEATS
draw = BOARD.draw
palette = BOARD.palette
warm = BOARD.warm

__all__ = ["ACCENTS", "SEATS", "draw", "palette", "warm"]
