"""Ludo's buttons: first the die to use (when the two dice give a choice), then the token to
move with it, labelled like its number on the board."""

from __future__ import annotations

from bot.engines import ludo
from bot.engines.ludo_labels import label
from bot.games.menu import Choice, DoAction, Draft, Menu, Resolution, SetDraft, number
from bot.vocabulary.errors import IllegalAction, MalformedButton, msg

DIE = "d"  # d<die>
TOKEN = "t"  # t<die>.<token index>
BACK = "back"


def _dice_with_moves(state: ludo.LudoState) -> dict[int, list[ludo.Move]]:
    by_die: dict[int, list[ludo.Move]] = {}
    for move in ludo.legal_actions(state):
        by_die.setdefault(move.die, []).append(move)
    return by_die


class LudoMenu(Menu[ludo.LudoState, ludo.Move]):
    def moves(self, state: ludo.LudoState, draft: Draft) -> list[Choice]:
        by_die = _dice_with_moves(state)
        die = draft.selected
        if die is None and len(by_die) == 1:
            die = next(iter(by_die))
        if die is None or die not in by_die:
            return [
                Choice(f"{DIE}{d}", msg("button.die", die=d), "primary")
                for d in sorted(by_die, reverse=True)
            ]
        menu = [
            Choice(f"{TOKEN}{die}.{move.token}", label(move.token), "primary", row=0)
            for move in sorted(by_die[die], key=lambda m: m.token)
        ]
        if draft.selected is not None and len(by_die) > 1:
            menu.append(Choice(BACK, msg("button.back"), "secondary", row=1))
        return menu

    def resolve_move(
        self, state: ludo.LudoState, draft: Draft, token: str
    ) -> Resolution[ludo.Move]:
        by_die = _dice_with_moves(state)
        if token == BACK:
            return SetDraft(Draft())
        if token.startswith(DIE):
            die = number(token[len(DIE) :])
            if die not in by_die:
                raise IllegalAction(reason=msg("reason.die_unusable", die=die))
            return SetDraft(Draft(selected=die))
        if token.startswith(TOKEN) and "." in token:
            die_text, token_text = token[len(TOKEN) :].split(".", 1)
            die, index = number(die_text), number(token_text)
            for move in by_die.get(die, ()):
                if move.token == index:
                    return DoAction(move)
            raise IllegalAction(reason=msg("reason.token_cannot_move", token=index + 1, die=die))
        raise MalformedButton()
