"""Toy Race: a tiny two-seat race game, defined only in the tests, to prove that a game needs
one manifest and its own modules and nothing else from the bot.

Each seat races two pieces along a track of ``HOME`` squares (0: not yet on the track). The
game opens in a phase of its own, CHOOSE: the first seat chooses who rolls first (``Lead``).
Then a roll is one three-sided die; the seat on turn moves one of its pieces that many squares
(passing ``HOME`` is allowed: the piece is home). The first seat with both pieces home wins.
The module fulfils :class:`bot.engines.common.Rules`, standard library only.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.engines import common
from bot.engines.common import Outcome, Roll, SharedAction

GAME = "toy"
SEATS: tuple[str, ...] = ("teal", "coral")  # colours no other game has
HOME = 8
PIECES = 2
FACES = 3


class Phase(enum.StrEnum):
    """The shared phases and one of Toy Race's own."""

    CHOOSE = "choose"  # the seat on turn chooses who rolls first
    ROLL = "roll"
    MOVE = "move"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class Lead:
    """``seat`` rolls first (the choice of the CHOOSE phase)."""

    seat: int

    def notation(self) -> str:
        return f"lead {self.seat}"


@dataclass(frozen=True, slots=True)
class Move:
    """The piece on ``source`` moves to ``target`` (``HOME`` once it gets there)."""

    source: int
    target: int

    def notation(self) -> str:
        return f"{self.source}-{self.target}"


@dataclass(frozen=True, slots=True)
class ToyState:
    pieces: tuple[tuple[int, ...], ...] = ((0,) * PIECES, (0,) * PIECES)  # per seat, sorted
    phase: Phase = Phase.CHOOSE
    turn: int = 0
    dice: tuple[int, ...] = ()
    outcome: Outcome | None = None


ToyAction = Move | Lead | SharedAction


def new_game(options: Mapping[str, object] | None = None) -> ToyState:
    if options:
        raise ValueError("Toy Race takes no options.")
    return ToyState()


def legal_actions(state: ToyState) -> list[Move | Lead]:
    if state.phase is Phase.CHOOSE:
        return [Lead(state.turn), Lead(1 - state.turn)]
    if state.phase is not Phase.MOVE:
        return []
    roll = state.dice[0]
    sources = sorted({p for p in state.pieces[state.turn] if p < HOME})
    return [Move(source, min(HOME, source + roll)) for source in sources]


def roll(state: ToyState, rng: random.Random) -> Roll:
    return Roll((rng.randint(1, FACES),))


def apply(state: ToyState, action: ToyAction) -> ToyState:
    if state.phase is Phase.FINISHED:
        raise common.WrongPhase("The game is over.")
    if isinstance(action, common.Resign):
        return _finished(state, 1 - action.seat, action.reason)
    if isinstance(action, common.Abandon):
        return replace(
            state,
            phase=Phase.FINISHED,
            outcome=Outcome(None, ((0, 1),), common.EndReason.ABANDON, 0, "abandon"),
        )
    if isinstance(action, Roll):
        if state.phase is not Phase.ROLL:
            raise common.WrongPhase("The die is already rolled.")
        if len(action.dice) != 1 or not 1 <= action.dice[0] <= FACES:
            raise common.IllegalMove(f"A roll is one die of 1 to {FACES}.")
        return replace(state, phase=Phase.MOVE, dice=action.dice)
    if isinstance(action, Lead):
        if state.phase is not Phase.CHOOSE:
            raise common.WrongPhase("Who starts is already chosen.")
        return replace(state, phase=Phase.ROLL, turn=action.seat)
    if state.phase is Phase.CHOOSE:
        raise common.WrongPhase("Choose who starts first.")
    if action not in legal_actions(state):
        raise common.IllegalMove("That piece cannot move so.")
    mine = list(state.pieces[state.turn])
    mine[mine.index(action.source)] = action.target
    pieces = list(state.pieces)
    pieces[state.turn] = tuple(sorted(mine))
    moved = replace(state, pieces=tuple(pieces), dice=())
    if all(p == HOME for p in mine):
        return _finished(moved, state.turn, common.EndReason.NORMAL)
    return replace(moved, phase=Phase.ROLL, turn=1 - state.turn)


def _finished(state: ToyState, winner: int, reason: common.EndReason) -> ToyState:
    outcome = Outcome(winner, ((winner,), (1 - winner,)), reason)
    return replace(state, phase=Phase.FINISHED, dice=(), outcome=outcome)


def notation(state: ToyState, action: ToyAction) -> str:
    return action.notation()


def parse(state: ToyState, text: str) -> ToyAction:
    shared = common.parse_common(text)
    if shared is not None:
        return shared
    try:
        if text.startswith("lead "):
            return Lead(int(text.removeprefix("lead ")))
        source, target = (int(part) for part in text.strip().split("-"))
    except ValueError:
        raise common.NotationError(f"Cannot read {text!r}.") from None
    return Move(source, target)


def outcome(state: ToyState) -> Outcome | None:
    return state.outcome


def dump_state(state: ToyState) -> dict[str, Any]:
    result = state.outcome
    return {
        "pieces": [list(p) for p in state.pieces],
        "phase": state.phase.value,
        "turn": state.turn,
        "dice": list(state.dice),
        "outcome": common.dump_outcome(result),
    }


def load_state(data: Mapping[str, Any]) -> ToyState:
    found = data["outcome"]
    return ToyState(
        pieces=tuple(tuple(p) for p in data["pieces"]),
        phase=Phase(data["phase"]),
        turn=int(data["turn"]),
        dice=tuple(data["dice"]),
        outcome=common.load_outcome(found),
    )
