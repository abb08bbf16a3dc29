"""What a game's turn becomes as buttons: :class:`Choice` values out, a clicked token back in.

A token is the last part of a button's custom_id. Each game's menu (``bot.games.<game>_menus``)
turns the seat on turn's options into choices and a clicked token into a :class:`Resolution`:
an engine action to apply, or a new :class:`Draft` (a choice in progress, e.g. the checker
picked before its destination). :class:`Menu` is the shape they share: a Roll button before
the dice, the game's own buttons after. Nothing here is written in a language: a button's
label is a catalogue key (a :class:`Msg`) unless it is the same in every language (a move's
notation, a point number), and refusals are :class:`IllegalAction` with the reason as a key;
the UI writes both in the reader's language.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from bot.engines.common import A, Phase, Roll, S
from bot.vocabulary.errors import IllegalAction, MalformedButton, Msg, msg

ButtonStyle = Literal["primary", "secondary", "success", "danger"]

ROLL = "roll"


@dataclass(frozen=True, slots=True)
class Choice:
    """One button for the player on turn. ``token`` goes into the custom_id; ``label`` is
    shown as it is, or translated where it is a :class:`Msg`."""

    token: str
    label: str | Msg
    style: ButtonStyle = "secondary"
    row: int = 0


@dataclass(frozen=True, slots=True)
class Draft:
    """A choice in progress that is not yet an engine action.

    Backgammon: the checker steps picked so far and the point selected; Ludo: the die picked.
    It is stored with the game (and bumps its version), so it survives restarts and stale
    buttons from before the choice are refused.
    """

    selected: int | None = None
    steps: tuple[tuple[int, int], ...] = ()

    @property
    def empty(self) -> bool:
        return self.selected is None and not self.steps

    def to_json(self) -> str | None:
        if self.empty:
            return None
        return json.dumps({"selected": self.selected, "steps": [list(s) for s in self.steps]})

    @classmethod
    def from_json(cls, text: str | None) -> Draft:
        if not text:
            return cls()
        data = json.loads(text)
        return cls(data.get("selected"), tuple((int(a), int(b)) for a, b in data.get("steps", ())))


A_co = TypeVar("A_co", covariant=True)


@dataclass(frozen=True, slots=True)
class DoAction(Generic[A_co]):
    action: A_co


@dataclass(frozen=True, slots=True)
class SetDraft:
    draft: Draft


Resolution = DoAction[A | Roll] | SetDraft
"""What a click does in a game of actions ``A``: an action to apply (a game's own, or the Roll
every menu has), or a new draft."""


def number(text: str) -> int:
    """A number read from a token; anything else is a button the bot never made."""
    try:
        return int(text)
    except ValueError:
        raise MalformedButton() from None


class Menu(Generic[S, A]):
    """A race game's menu: Roll while the dice are due, the game's moves once they are cast.

    Subclasses give :meth:`moves` and :meth:`resolve_move`; a game with decisions outside
    the move phase (backgammon's cube) overrides :meth:`choices` and :meth:`resolve` too, and
    one with a roll phase of its own :meth:`rolling`.
    """

    def rolling(self, state: S) -> bool:
        """Whether the dice are due (a Roll button)."""
        return bool(state.phase == Phase.ROLL)

    def choices(self, state: S, draft: Draft) -> list[Choice]:
        """The buttons for the seat on turn in ``state`` (a game still under way)."""
        if self.rolling(state):
            return [Choice(ROLL, msg("button.roll"), "primary")]
        if state.phase == Phase.MOVE:
            return self.moves(state, draft)
        return []

    def resolve(self, state: S, draft: Draft, token: str) -> Resolution[A]:
        """What clicking ``token`` does now; raises :class:`IllegalAction` when it is not on
        offer and :class:`MalformedButton` for a token this menu never makes."""
        if token == ROLL:
            if not self.rolling(state):
                raise IllegalAction(reason=msg("reason.not_roll_time"))
            return DoAction(Roll(()))  # the service draws the dice
        if state.phase != Phase.MOVE:
            raise IllegalAction(reason=msg("reason.roll_first"))
        return self.resolve_move(state, draft, token)

    def moves(self, state: S, draft: Draft) -> list[Choice]:
        raise NotImplementedError

    def resolve_move(self, state: S, draft: Draft, token: str) -> Resolution[A]:
        raise NotImplementedError
