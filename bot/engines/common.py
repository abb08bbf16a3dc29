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
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable


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
    """The seat gives up. Two-player games end; in Ludo the seat drops out. ``on_time``: the
    seat did not give up but ran out of time (the game ends the same way, and its outcome
    says so: ``EndReason.TIMEOUT``, written ``timeout <seat>``)."""

    seat: int
    on_time: bool = False

    @property
    def reason(self) -> EndReason:
        """How a game this ends ended."""
        return EndReason.TIMEOUT if self.on_time else EndReason.RESIGN

    def notation(self) -> str:
        return f"{'timeout' if self.on_time else 'resign'} {self.seat}"


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
        if head in ("resign", "timeout") and len(words) == 2:
            return Resign(int(words[1]), on_time=head == "timeout")
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


S = TypeVar("S", bound=GameState)
"""A game's state type."""
A = TypeVar("A")
"""A game's action type (its own actions; it may include the shared ones too)."""

SharedAction = Roll | Resign | Abandon
"""The actions every game takes besides its own: the bot rolls, resigns and abandons any game
without knowing it."""

JsonObject = dict[str, object]
"""A state as JSON data (``json.dumps`` writes it, ``json.loads`` gives it back)."""


class Rules(Protocol[S, A]):
    """What ``bot.engines.ur``, ``.ludo`` and ``.backgammon`` each provide at module level: a
    module is a ``Rules[UrState, UrAction]`` when its functions have these signatures."""

    GAME: str
    SEATS: tuple[str, ...]

    def new_game(self, options: Mapping[str, object] | None = None) -> S: ...

    def legal_actions(self, state: S) -> Sequence[A]: ...

    def apply(self, state: S, action: A | SharedAction) -> S: ...

    def roll(self, state: S, rng: random.Random) -> Roll: ...

    def notation(self, state: S, action: A | SharedAction) -> str: ...

    def parse(self, state: S, text: str) -> A | SharedAction: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def dump_state(self, state: S) -> JsonObject: ...

    def load_state(self, data: Mapping[str, object]) -> S: ...


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


def parse_and_apply(rules: Rules[S, A], state: S, notation: str) -> tuple[A | SharedAction, S]:
    """One step of a log: the action ``notation`` names in ``state``, and the state after."""
    action = rules.parse(state, notation)
    return action, rules.apply(state, action)


class Replay(Generic[S, A]):
    """A log's notations parsed and applied in turn from a new game, the one loop that does:
    iterating gives each step's ``(before, action, after)``; ``state`` is the state reached so
    far, ``done`` the steps that took (a step that raises is number ``done + 1``)."""

    def __init__(
        self, rules: Rules[S, A], options: Mapping[str, object] | None, notations: Sequence[str]
    ) -> None:
        self.rules = rules
        self.state: S = rules.new_game(options)
        self.done = 0
        self._notations = iter(notations)

    def __iter__(self) -> Replay[S, A]:
        return self

    def __next__(self) -> tuple[S, A | SharedAction, S]:
        before = self.state
        action = self.rules.parse(before, next(self._notations))
        self.state = self.rules.apply(before, action)
        self.done += 1
        return before, action, self.state


def replay(rules: Rules[S, A], options: Mapping[str, object] | None, actions: Sequence[str]) -> S:
    """Rebuild a state by parsing and applying each notation in turn."""
    steps = Replay(rules, options, actions)
    for _ in steps:
        pass
    return steps.state
