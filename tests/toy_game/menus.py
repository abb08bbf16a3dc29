"""Toy Race buttons: who starts in the CHOOSE phase; then one per square a piece of the seat on
turn can leave."""

from __future__ import annotations

from bot.games.menu import Choice, DoAction, Draft, Menu, Resolution, number
from bot.vocabulary.errors import IllegalAction, MalformedButton, msg
from tests.toy_game.engine import Lead, Move, Phase, ToyState, legal_actions

# The CHOOSE phase's buttons: the seat on turn rolls first, or lets the other seat.
FIRST, SECOND = "first", "second"


class ToyMenu(Menu[ToyState, Move | Lead]):
    def choices(self, state: ToyState, draft: Draft) -> list[Choice]:
        if state.phase is Phase.CHOOSE:
            return [
                Choice(token, msg(f"button.toy.{token}"), "primary") for token in (FIRST, SECOND)
            ]
        return super().choices(state, draft)

    def resolve(self, state: ToyState, draft: Draft, token: str) -> Resolution[Move | Lead]:
        if token in (FIRST, SECOND):
            if state.phase is not Phase.CHOOSE:
                raise IllegalAction(reason=msg("reason.toy.chosen"))
            return DoAction(Lead(state.turn if token == FIRST else 1 - state.turn))
        if state.phase is Phase.CHOOSE:
            raise IllegalAction(reason=msg("reason.toy.choose_first"))
        return super().resolve(state, draft, token)

    def moves(self, state: ToyState, draft: Draft) -> list[Choice]:
        return [
            Choice(f"m{m.source}", str(m.source), "primary")
            for m in legal_actions(state)
            if isinstance(m, Move)
        ]

    def resolve_move(self, state: ToyState, draft: Draft, token: str) -> Resolution[Move]:
        if not token.startswith("m"):
            raise MalformedButton()
        source = number(token[1:])
        for move in legal_actions(state):
            if isinstance(move, Move) and move.source == source:
                return DoAction(move)
        raise IllegalAction(reason=msg("reason.toy.stuck"))
