"""Ur's buttons: one per piece that can move, labelled like its marker on the board."""

from __future__ import annotations

from bot.engines import ur
from bot.engines.ur_labels import move_labels
from bot.games.menu import Choice, DoAction, Draft, Menu, Resolution, number
from bot.vocabulary.errors import IllegalAction, MalformedButton, msg

MOVE = "m"  # m<source square>


class UrMenu(Menu[ur.UrState, ur.Move]):
    def moves(self, state: ur.UrState, draft: Draft) -> list[Choice]:
        labels = move_labels(state)
        return [
            Choice(f"{MOVE}{move.source}", label, "primary", row=i // 5)
            for i, (move, label) in enumerate(labels.items())
        ]

    def resolve_move(self, state: ur.UrState, draft: Draft, token: str) -> Resolution[ur.Move]:
        if not token.startswith(MOVE):
            raise MalformedButton()
        source = number(token[len(MOVE) :])
        for move in ur.legal_actions(state):
            if move.source == source:
                return DoAction(move)
        raise IllegalAction(reason=msg("reason.piece_cannot_move"))
