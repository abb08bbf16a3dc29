"""Ludo's token labels, shared by the move buttons and the board markers: tokens are numbered
1-4, so a button and the marker on the board carry the same text."""

from __future__ import annotations

from bot.engines.ludo import LudoState, Move, legal_actions


def label(token: int) -> str:
    return str(token + 1)


def move_labels(state: LudoState) -> dict[Move, str]:
    """One label per legal move: the number of the token it moves."""
    return {move: label(move.token) for move in legal_actions(state)}


def piece_labels(state: LudoState) -> dict[int, str]:
    """The tokens (index 0-3) that may move now, each labelled."""
    return {move.token: label(move.token) for move in legal_actions(state)}
