"""What a game says in words: its actions for the log under a board, and the parts of a board's
text that differ between games (headline extras, dice, the final result).

The UI writes the sentences every game shares (who plays, who is on turn, who resigned) and
asks the game's :class:`GameTexts` for the rest, passing a :class:`Speaker`: the catalogue
in the reader's language plus the names of the game's seats. A new game subclasses
:class:`GameTexts` and gives :meth:`GameTexts.action`; the other hooks have defaults.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Generic, Protocol

from bot.engines.common import A, Roll, S


class Speaker(Protocol):
    """The catalogue in one language and the names of one game's seats."""

    @property
    def locale(self) -> str | None: ...

    def say(self, key: str, /, **params: object) -> str:
        """The sentence ``key`` with ``params`` filled in."""
        ...

    def count(self, key: str, count: int) -> str:
        """``count`` with the noun of ``key`` in the right number (``1 point``, ``2 points``)."""
        ...

    def name(self, seat: int) -> str:
        """Who holds the seat, with its colour: ``Alice (white)``."""
        ...

    def player(self, seat: int) -> str:
        """Who holds the seat, without its colour: ``Alice``, ``Tabula AI, hard``."""
        ...


class GameTexts(Generic[S, A]):
    """A game's own sentences (of states ``S`` and the game's own actions ``A``); the defaults
    suit a plain race game."""

    def action(
        self, before: S, action: A | Roll, after: S, speak: Speaker, notation: str | None
    ) -> str:
        """What ``action`` (a roll or one of the game's own actions: a move, a cube action)
        did to ``before``, in words, without the actor's name. ``notation``, when known, is
        the engine's text of the action."""
        raise NotImplementedError

    def candidate(self, state: S, notation: str, speak: Speaker) -> str:
        """A puzzle's candidate move (stored in the engine's ``notation``) as the game's own
        buttons and move lines say it; the default: the notation (backgammon's ``13/7 8/7*``
        is what its players read)."""
        return notation

    def resigned(self, before: S, speak: Speaker) -> str:
        """What a resignation in ``before`` means (backgammon: the match, in a match)."""
        return speak.say("move.resigned")

    def resign_question(self, state: S, speak: Speaker) -> str:
        """What /resign asks before it ends anything (backgammon: the match, in a match)."""
        return speak.say("resign.confirm_game")

    def headline(self, state: S, speak: Speaker) -> list[str]:
        """Parts of the headline after the players (a match score, the cube)."""
        return []

    def part(self, state: S, speak: Speaker) -> str | None:
        """Which game of a longer one ``state`` is in, for the footer ("game 2" of a
        backgammon match), whose moves the footer counts; ``None``: the game is one game."""
        return None

    def describe(self, state: S, speak: Speaker) -> str | None:
        """The position in words, for the board image's alt text (what a screen reader says
        instead of the picture), at most 1,024 characters; ``None``: the board's headline
        and status line stand in for it."""
        return None

    def describe_draft(
        self, state: S, steps: Sequence[tuple[int, int]], speak: Speaker
    ) -> str | None:
        """The alt text of a board drawn with a choice in progress (backgammon: the checkers
        moved so far of a play not yet made, ``steps``), describing the position as drawn;
        ``None``: the draft changes nothing the description says."""
        return None

    def status(self, state: S, speak: Speaker) -> str | None:
        """The status line of a game under way in a phase of the game's own (backgammon: who
        decides on a double); ``None``: the shared wording (to roll, or to move with dice)."""
        return None

    def dice(self, dice: Sequence[int]) -> str:
        """The dice on the table as the status line says them."""
        return dice_text(dice)

    def opening(self, state: S, speak: Speaker) -> str | None:
        """A line for a first board whose opening the table played (backgammon's opening
        roll), which no event describes; ``None`` for most games."""
        return None

    def result(self, state: S, speak: Speaker) -> str | None:
        """The final line of a finished game that a winner won, where the game words it its
        own way (backgammon: gammons, cubes and matches); ``None``: the shared wording."""
        return None

    def part_result(self, state: S, part: S, speak: Speaker) -> str:
        """The result of one part of a longer game (a game of a backgammon match): ``part``
        is what the engine's ``finished_game`` returned, ``state`` the game as it stands."""
        raise NotImplementedError

    def record_extra(self, endings: Mapping[str, tuple[int, int]], locale: str | None) -> str:
        """A line under a player's record from the counts of the ways their games ended
        (``endings[kind] == (won, lost)``, for the kinds the game counts); empty for none."""
        return ""


def dice_text(dice: Sequence[int]) -> str:
    return "-".join(str(d) for d in dice)


def joined(main: str, extras: Sequence[str]) -> str:
    return ", ".join([main, *extras])


def rolled(dice: str, passed: bool, speak: Speaker) -> str:
    """``rolled 6-3``, or that the roll left no move."""
    return speak.say("move.rolled_no_move" if passed else "move.rolled", dice=dice)


def listed(items: Sequence[object], speak: Speaker) -> str:
    """Items as a comma-separated list, or the word for none (alt text)."""
    return ", ".join(str(i) for i in items) if items else speak.say("alt.none")


def turn_words(seat: int, dice: str | None, speak: Speaker) -> str:
    """Who is on turn in alt text: to roll, or to move with ``dice``."""
    if dice is None:
        return speak.say("alt.to_roll", name=speak.name(seat))
    return speak.say("alt.to_move", name=speak.name(seat), dice=dice)
