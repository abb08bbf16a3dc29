"""What the rules engines share: the shared phases, typed errors, dice, outcomes, records.

Everything here is pure data and standard library. A game is a frozen state; an action is a
small frozen value with a one-line text notation; ``apply(state, action)`` returns the next
state or raises :class:`IllegalMove` with a sentence fit to show the player. Randomness is
injected: the dice of a turn are an explicit :class:`Roll` action, drawn by the caller from
whatever ``random.Random`` it owns (the bot uses a seeded, verifiable one).
"""

from __future__ import annotations

import enum
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable


class Phase(enum.StrEnum):
    """The phases every game has, the ones the service acts on: it rolls for ROLL (or lets the
    seat on turn click Roll), asks the seat on turn (a person or the AI) for a move in MOVE,
    and stops at FINISHED.

    A game with phases of its own (backgammon's opening roll and cube decision) defines its
    own ``StrEnum`` in its engine, with these three values among its members; its manifest
    tells the service what to do in the others (``GameSpec.rolls_itself``). A member of a
    ``StrEnum`` equals its value, so shared code compares phases with ``==`` (never ``is``):
    ``state.phase == Phase.ROLL`` holds for every game's roll phase.
    """

    ROLL = "roll"  # the seat on turn must roll (a game may offer a decision first)
    MOVE = "move"  # dice are on the table; the seat on turn must move
    FINISHED = "finished"


class EngineError(Exception):
    """Base of every error an engine raises. ``str(error)`` is a sentence for players."""


class IllegalMove(EngineError):
    """The action is not allowed in this state."""


class WrongPhase(IllegalMove):
    """The action exists but not now (moving before rolling, rolling twice, ...)."""


class NotationError(IllegalMove):
    """A text action could not be understood."""


class InvalidPosition(EngineError, ValueError):
    """A position built from outside data breaks the game's invariants."""


# ---------------------------------------------------------------------------------------------
# Actions shared by every game


@dataclass(frozen=True, slots=True)
class Roll:
    """The dice of one roll, drawn outside the engine. Ur: four 0/1 dice; others: 1-6."""

    dice: tuple[int, ...]

    def notation(self) -> str:
        return "roll " + "-".join(str(d) for d in self.dice)


@dataclass(frozen=True, slots=True)
class Resign:
    """The seat gives up. Two-player games end; in Ludo the seat drops out."""

    seat: int

    def notation(self) -> str:
        return f"resign {self.seat}"


@dataclass(frozen=True, slots=True)
class Abandon:
    """The game is stopped where it stands (no human player left, or an admin ended it)."""

    def notation(self) -> str:
        return "abandon"


def parse_common(text: str) -> Roll | Resign | Abandon | None:
    """Parse the notations shared by all games; ``None`` when ``text`` is game-specific."""
    words = text.strip().lower().split()
    if not words:
        raise NotationError("Empty move.")
    head = words[0]
    try:
        if head == "roll" and len(words) == 2:
            return Roll(tuple(int(part) for part in words[1].split("-")))
        if head == "resign" and len(words) == 2:
            return Resign(int(words[1]))
    except ValueError as error:
        raise NotationError(f"Cannot read {text!r}.") from error
    if head == "abandon" and len(words) == 1:
        return Abandon()
    return None


# ---------------------------------------------------------------------------------------------
# Dice


def roll_d6(rng: random.Random, count: int = 2) -> tuple[int, ...]:
    """``count`` fair six-sided dice."""
    return tuple(rng.randint(1, 6) for _ in range(count))


def roll_binary(rng: random.Random, count: int = 4) -> tuple[int, ...]:
    """``count`` two-sided dice (Ur's tetrahedral dice: a marked tip up or not)."""
    return tuple(rng.randint(0, 1) for _ in range(count))


# ---------------------------------------------------------------------------------------------
# Outcomes


class EndReason(enum.StrEnum):
    NORMAL = "normal"  # played to the end
    RESIGN = "resign"
    DROP = "drop"  # backgammon: a double was refused
    TIMEOUT = "timeout"
    ABANDON = "abandon"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``ranking`` lists groups of seat indices, best first; seats in one group tied (Ludo ranks
    the seats behind the winner by total progress, ties allowed). ``points`` is what the
    winner scores (backgammon: 1, 2 or 3 times the cube; 1 in the other games) and ``kind``
    names it: ``"single"``, ``"gammon"``, ``"backgammon"``, or ``"win"``.
    """

    winner: int | None
    ranking: tuple[tuple[int, ...], ...]
    reason: EndReason = EndReason.NORMAL
    points: int = 1
    kind: str = "win"

    def place_of(self, seat: int) -> int:
        """1-based place of ``seat`` (tied seats share a place)."""
        place = 1
        for group in self.ranking:
            if seat in group:
                return place
            place += len(group)
        raise KeyError(seat)


def dump_outcome(outcome: Outcome | None) -> dict[str, Any] | None:
    """``outcome`` as JSON data for a saved state (``None``: the game is not over)."""
    if outcome is None:
        return None
    return {
        "winner": outcome.winner,
        "ranking": [list(group) for group in outcome.ranking],
        "reason": outcome.reason.value,
        "points": outcome.points,
        "kind": outcome.kind,
    }


def load_outcome(data: Mapping[str, Any] | None) -> Outcome | None:
    """The outcome :func:`dump_outcome` saved as ``data``."""
    if data is None:
        return None
    winner = data["winner"]
    return Outcome(
        None if winner is None else int(winner),
        tuple(tuple(int(seat) for seat in group) for group in data["ranking"]),
        EndReason(data["reason"]),
        int(data["points"]),
        str(data["kind"]),
    )


# ---------------------------------------------------------------------------------------------
# The contract every engine module fulfils


S = TypeVar("S")
A = TypeVar("A")


@runtime_checkable
class GameState(Protocol):
    """Attributes every game state has, whatever the game."""

    @property
    def phase(self) -> str:
        """One of :class:`Phase`'s values, or a phase of the game's own."""
        ...

    @property
    def turn(self) -> int:
        """Seat index that must act now (in the cube phase: the seat deciding on the double)."""
        ...

    @property
    def dice(self) -> tuple[int, ...]:
        """The dice on the table; empty when none are (Ludo: only the dice not yet used)."""
        ...

    @property
    def outcome(self) -> Outcome | None: ...


class Rules(Protocol):
    """What ``bot.engines.ur``, ``.ludo`` and ``.backgammon`` each provide at module level."""

    GAME: str
    SEATS: tuple[str, ...]

    def new_game(self, options: Mapping[str, Any] | None = None) -> Any: ...

    def legal_actions(self, state: Any) -> list[Any]: ...

    def apply(self, state: Any, action: Any) -> Any: ...

    def roll(self, state: Any, rng: random.Random) -> Roll: ...

    def notation(self, state: Any, action: Any) -> str: ...

    def parse(self, state: Any, text: str) -> Any: ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def dump_state(self, state: Any) -> dict[str, Any]: ...

    def load_state(self, data: dict[str, Any]) -> Any: ...


@dataclass(frozen=True)
class GameRecord:
    """A game as data: its setup plus every action in order (rolls included), as notation.

    Replaying the record through the engine gives the identical state, so the record (not a
    snapshot) is the source of truth, and it is what exports and dice verification read.
    """

    game: str
    options: Mapping[str, Any] = field(default_factory=dict)
    actions: tuple[str, ...] = ()

    def to_json(self) -> str:
        return json.dumps(
            {"game": self.game, "options": dict(self.options), "actions": list(self.actions)},
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        data = json.loads(text)
        return cls(data["game"], dict(data.get("options", {})), tuple(data.get("actions", ())))

    def appended(self, action_text: str) -> GameRecord:
        return GameRecord(self.game, self.options, (*self.actions, action_text))


def replay(rules: Rules, options: Mapping[str, Any], actions: Sequence[str]) -> Any:
    """Rebuild a state by parsing and applying each notation in turn."""
    state = rules.new_game(options)
    for text in actions:
        state = rules.apply(state, rules.parse(state, text))
    return state
