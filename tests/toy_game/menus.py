"""Toy Race buttons: one per square a piece of the seat on turn can leave."""

from __future__ import annotations

from bot.games.menu import Choice, DoAction, Draft, Menu, Resolution, number
from bot.vocabulary.errors import IllegalAction, MalformedButton, msg
from tests.toy_game.engine import Move, ToyState, legal_actions


class ToyMenu(Menu[ToyState, Move]):
    def moves(self, state: ToyState, draft: Draft) -> list[Choice]:
        return [Choice(f"m{m.source}", str(m.source), "primary") for m in legal_actions(state)]

    def resolve_move(self, state: ToyState, draft: Draft, token: str) -> Resolution[Move]:
        if not token.startswith("m"):
            raise MalformedButton()
        source = number(token[1:])
        for move in legal_actions(state):
            if move.source == source:
                return DoAction(move)
        raise IllegalAction(reason=msg("reason.piece_cannot_move"))
