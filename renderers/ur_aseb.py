"""Ur's Aseb board: two lanes of four and a middle lane of twelve (:mod:`renderers.ur_sets`)."""

from __future__ import annotations

from bot.engines import ur_aseb
from renderers.ur_sets import ACCENTS, UrSetBoard

BOARD = UrSetBoard(ur_aseb.ENGINE)
SEATS = BOARD.SEATS
draw = BOARD.draw
palette = BOARD.palette
warm = BOARD.warm

__all__ = ["ACCENTS", "SEATS", "draw", "palette", "warm"]
