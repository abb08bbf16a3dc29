"""Ur's piece labels, shared by the move buttons and the board markers: a piece is named by
the path square it stands on, a piece waiting to enter by "enter". A button and the marker on
the board carry the same text, so a player matches them without reading the rules."""

from __future__ import annotations

from bot.engines.ur import Move, UrState, legal_actions


def label(source: int) -> str:
    return "enter" if source == 0 else str(source)


def move_labels(state: UrState) -> dict[Move, str]:
    """One label per legal move: the label of the piece it moves."""
    return {move: label(move.source) for move in legal_actions(state)}


def piece_labels(state: UrState) -> dict[int, str]:
    """The pieces that may move now by source square (0: waiting to enter), each labelled."""
    return {move.source: label(move.source) for move in legal_actions(state)}
