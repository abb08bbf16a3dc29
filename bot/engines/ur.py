"""The Royal Game of Ur, Finkel ruleset (see ``shared/rules/RULINGS.md``).

Board and path
    Each side walks its own path of 14 squares: 1-4 in its own outer lane, 5-12 along the
    shared middle lane (both sides' square ``k`` is the same physical square there), 13-14
    back in its own lane. Square 0 means "not yet entered", 15 means "borne off".
    Rosettes sit on 4, 8 and 14; square 8 is the shared one and is safe.

Rules
    A roll is four binary dice (0-4). A piece moves exactly the roll: a new piece enters onto
    square ``r``; a piece may not land on one of its own; landing on an opponent in the
    shared lane captures it (back to 0), except on square 8, which may not be entered while
    occupied; bearing off needs the exact roll (``s + r == 15``). Landing on a rosette gives
    the same side another roll. A roll of 0, or a roll without a legal move, passes the turn.
    Light moves first; the first side to bear off all seven pieces wins.

Notation
    A move is ``"<source>-<target>"`` on the mover's own path: ``"0-3"`` enters a piece on
    square 3, ``"4-8"`` moves the piece on 4 to the shared rosette, ``"13-off"`` bears off.
    :func:`parse` also accepts ``"enter"`` / ``"in"`` for square 0, ``"15"`` for ``"off"`` and a
    bare source square (``"4"``, ``"enter"``) meaning "that piece, by the roll on the table".
    Rolls, resignations and abandons use the common notation (``"roll 1-0-1-1"``).

Representation
    :class:`Position` holds each side's board squares as a 15-bit mask (bit ``s`` set: a piece on
    square ``s``, 1-14) plus the count of pieces not yet entered; pieces borne off are the rest.
    Move generation is then a handful of integer operations per roll, which is what the AI's
    search and the speed target need.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal, NamedTuple

from bot.engines import common
from bot.engines.common import Abandon, EndReason, Outcome, Phase, Resign, Roll

GAME: str = "ur"
SEATS: tuple[str, ...] = ("light", "dark")
LIGHT: Final = 0
DARK: Final = 1

PIECES: Final = 7
START: Final = 0  # path square of a piece not yet entered
OFF: Final = 15  # path square of a piece borne off
DICE: Final = 4
ROSETTE_SQUARES: Final = (4, 8, 14)
SHARED_SQUARES: Final = range(5, 13)
SHARED_ROSETTE: Final = 8
# Chance of each roll total 0..4 with four binary dice: binomial(4, 1/2).
ROLL_PROBABILITIES: Final = (1 / 16, 4 / 16, 6 / 16, 4 / 16, 1 / 16)

BOARD_MASK: Final = 0b111_1111_1111_1110  # squares 1..14
TARGET_MASK: Final = BOARD_MASK | 1 << OFF  # squares a move can end on: 1..15
SHARED_MASK: Final = sum(1 << s for s in SHARED_SQUARES)
ROSETTE_MASK: Final = sum(1 << s for s in ROSETTE_SQUARES)
SHARED_ROSETTE_BIT: Final = 1 << SHARED_ROSETTE

Side = Literal["light", "dark"]


# ---------------------------------------------------------------------------------------------
# Positions and moves


@dataclass(frozen=True, slots=True)
class Move:
    """One piece moved from ``source`` to ``target`` on the mover's path (0 = enter, 15 = off).

    The UI labels a movable piece by its source square, so ``source`` alone identifies the
    piece to move once the roll is known.
    """

    source: int
    target: int

    @property
    def enters(self) -> bool:
        return self.source == START

    @property
    def bears_off(self) -> bool:
        return self.target == OFF

    @property
    def lands_on_rosette(self) -> bool:
        return self.target in ROSETTE_SQUARES

    def notation(self) -> str:
        return f"{self.source}-{'off' if self.target == OFF else self.target}"

    def __str__(self) -> str:
        return self.notation()


# Every possible move exists once: legal_moves hands out these shared instances instead of
# building new objects on each call.
_MOVES: Final[tuple[tuple[Move | None, ...], ...]] = tuple(
    tuple(Move(s, t) if 1 <= t - s <= DICE else None for t in range(OFF + 1))
    for s in range(OFF + 1)
)


def _side_name(side: str) -> Side:
    if side == "light":
        return "light"
    if side == "dark":
        return "dark"
    raise common.InvalidPosition(f"Unknown side {side!r}; use 'light' or 'dark'.")


class Position(NamedTuple):
    """The pieces of both sides and the side to move (immutable and hashable).

    ``light`` / ``dark`` are bit masks of the board squares (1-14) each side holds; the
    ``*_waiting`` counts are the pieces on square 0. Build positions from outside data with
    :meth:`from_squares`, which validates; the plain constructor trusts its caller. A named
    tuple rather than a frozen dataclass because the search builds millions of these and a
    tuple is several times cheaper to create.
    """

    light: int = 0
    dark: int = 0
    light_waiting: int = PIECES
    dark_waiting: int = PIECES
    to_move: Side = "light"

    @classmethod
    def start(cls) -> Position:
        return cls()

    @classmethod
    def from_squares(cls, light: Sequence[int], dark: Sequence[int], to_move: str) -> Position:
        """Build a position from each side's seven path squares (0 = not entered, 15 = off)."""
        side = _side_name(to_move)
        light_mask, light_waiting = _pack(light, "light")
        dark_mask, dark_waiting = _pack(dark, "dark")
        clash = light_mask & dark_mask & SHARED_MASK
        if clash:
            square = (clash & -clash).bit_length() - 1
            raise common.InvalidPosition(
                f"Light and dark both have a piece on shared square {square}."
            )
        return cls(light_mask, dark_mask, light_waiting, dark_waiting, side)

    @property
    def seat(self) -> int:
        """Seat index of the side to move (0 light, 1 dark)."""
        return LIGHT if self.to_move == "light" else DARK

    def mask(self, side: str) -> int:
        return self.light if _side_name(side) == "light" else self.dark

    def waiting(self, side: str) -> int:
        """Pieces of ``side`` not yet entered (on square 0)."""
        return self.light_waiting if _side_name(side) == "light" else self.dark_waiting

    def borne_off(self, side: str) -> int:
        """Pieces of ``side`` already borne off (on square 15)."""
        return PIECES - self.waiting(side) - self.mask(side).bit_count()

    def squares(self, side: str) -> tuple[int, ...]:
        """The seven path squares of ``side``'s pieces, sorted."""
        mask = self.mask(side)
        on_board = tuple(s for s in range(1, OFF) if mask >> s & 1)
        return (START,) * self.waiting(side) + on_board + (OFF,) * self.borne_off(side)

    def winner(self) -> Side | None:
        """The side with all seven pieces borne off, if any."""
        if self.borne_off("light") == PIECES:
            return "light"
        if self.borne_off("dark") == PIECES:
            return "dark"
        return None

    def __str__(self) -> str:
        return (
            f"light {list(self.squares('light'))} dark {list(self.squares('dark'))}, "
            f"{self.to_move} to move"
        )


def _pack(squares: Sequence[int], side: str) -> tuple[int, int]:
    """(board mask, pieces on square 0) for one side's list of path squares."""
    if len(squares) != PIECES:
        raise common.InvalidPosition(
            f"{side.capitalize()} needs {PIECES} pieces, not {len(squares)}."
        )
    mask = 0
    waiting = 0
    for square in squares:
        if type(square) is not int or not START <= square <= OFF:
            raise common.InvalidPosition(f"{side.capitalize()} square {square!r} is not in 0..15.")
        if square == START:
            waiting += 1
        elif square != OFF:
            if mask >> square & 1:
                raise common.InvalidPosition(
                    f"{side.capitalize()} has two pieces on square {square}."
                )
            mask |= 1 << square
    return mask, waiting


# ---------------------------------------------------------------------------------------------
# Move generation: the hot path, kept to integer operations on the mover-relative masks


def targets_mask(mine: int, theirs: int, waiting: int, roll: int) -> int:
    """Bit mask of the squares the mover can reach with ``roll`` (bit 15: bearing off).

    ``mine`` / ``theirs`` are board masks relative to the mover; each set bit ``t`` is the legal
    move ``t - roll -> t``. Only the shared rosette is blocked by the opponent: their pieces on
    1-4 and 13-14 sit in their own lane, and elsewhere in the shared lane they are captured.
    """
    if roll <= 0:
        return 0
    sources = (mine | 1) if waiting else mine
    return (sources << roll) & ~mine & ~(theirs & SHARED_ROSETTE_BIT) & TARGET_MASK


def _relative(position: Position) -> tuple[int, int, int, int]:
    if position.to_move == "light":
        return position.light, position.dark, position.light_waiting, position.dark_waiting
    return position.dark, position.light, position.dark_waiting, position.light_waiting


def legal_moves(position: Position, roll: int) -> list[Move]:
    """The distinct legal moves for the side to move with a roll of ``roll`` (0-4)."""
    if not 0 <= roll <= DICE:
        raise ValueError(f"An Ur roll is 0..{DICE}, not {roll}.")
    if roll == 0:
        return []
    light, dark, light_waiting, dark_waiting, to_move = position
    if to_move == "light":
        mine, theirs, waiting = light, dark, light_waiting
    else:
        mine, theirs, waiting = dark, light, dark_waiting
    sources = (mine | 1) if waiting else mine
    targets = (sources << roll) & ~mine & ~(theirs & SHARED_ROSETTE_BIT) & TARGET_MASK
    return list(_moves_to(targets, roll))


def _moves_to(targets: int, roll: int) -> tuple[Move, ...]:
    """The moves that reach each square set in ``targets`` with ``roll``, source order."""
    key = targets << 3 | roll
    moves = _MOVES_BY_TARGETS.get(key)
    if moves is None:
        found: list[Move] = []
        while targets:
            low = targets & -targets
            target = low.bit_length() - 1
            found.append(_MOVES[target - roll][target])  # type: ignore[arg-type]
            targets ^= low
        moves = _MOVES_BY_TARGETS[key] = tuple(found)
    return moves


# Filled lazily: at most 4 * 2**15 keys, in practice a few thousand.
_MOVES_BY_TARGETS: dict[int, tuple[Move, ...]] = {}


def is_capture(position: Position, move: Move) -> bool:
    """Whether ``move`` (by the side to move) captures an opponent piece."""
    _, theirs, _, _ = _relative(position)
    return bool(theirs >> move.target & 1) and move.target in SHARED_SQUARES


def apply_move(position: Position, move: Move) -> tuple[Position, bool]:
    """Play ``move`` for the side to move.

    Returns the new position (the other side to move unless the move landed on a rosette) and
    whether the same side rolls again. Raises :class:`IllegalMove` for an illegal move.
    """
    source = move.source
    target = move.target
    roll = target - source
    light, dark, light_waiting, dark_waiting, to_move = position
    if to_move == "light":
        mine, theirs, my_waiting, their_waiting = light, dark, light_waiting, dark_waiting
    else:
        mine, theirs, my_waiting, their_waiting = dark, light, dark_waiting, light_waiting
    # The same test as targets_mask, for one source: the piece exists, the target is free.
    if (
        not 1 <= roll <= DICE
        or source < START
        or target > OFF
        or not (mine >> source & 1 if source else my_waiting)
        or (target != OFF and mine >> target & 1)
        or (target == SHARED_ROSETTE and theirs & SHARED_ROSETTE_BIT)
    ):
        raise common.IllegalMove(why_illegal(position, 0, move))
    if source:
        mine ^= 1 << source
    else:
        my_waiting -= 1
    again = False
    if target != OFF:
        bit = 1 << target
        mine |= bit
        if theirs & bit & SHARED_MASK:
            theirs ^= bit
            their_waiting += 1
        again = bool(bit & ROSETTE_MASK)
    if to_move == "light":
        after = Position(mine, theirs, my_waiting, their_waiting, "light" if again else "dark")
    else:
        after = Position(theirs, mine, their_waiting, my_waiting, "dark" if again else "light")
    return after, again


def why_illegal(position: Position, roll: int, move: Move) -> str:
    """A sentence for a player saying why ``move`` is not legal with ``roll`` (0: any roll)."""
    mine, theirs, waiting, _ = _relative(position)
    source, target = move.source, move.target
    if not START <= source < OFF or not START < target <= OFF:
        return f"There is no move from {source} to {target}: squares run from 0 to 15 (off)."
    if source == START and not waiting:
        return "You have no pieces left to enter."
    if source != START and not mine >> source & 1:
        return f"You have no piece on square {source}."
    if target <= source:
        return "Pieces only move forward along their path."
    where = "a new piece" if source == START else f"the piece on square {source}"
    if not roll:
        if target - source > DICE:
            return f"That piece cannot move {target - source}: a roll is at most {DICE}."
        roll = target - source
    intended = source + roll
    if intended > OFF:
        return f"That piece cannot move {roll}: it needs exactly {OFF - source} to bear off."
    blocked = _blocked_reason(mine, theirs, roll, intended)
    if blocked:
        return blocked
    if intended != target:
        goal = "off" if intended == OFF else f"to square {intended}"
        return f"You rolled {roll}: {where} goes {goal}."
    return f"That piece cannot move {roll}."


def _blocked_reason(mine: int, theirs: int, roll: int, target: int) -> str:
    if target != OFF and mine >> target & 1:
        return f"That piece cannot move {roll}: square {target} holds one of your own pieces."
    if target == SHARED_ROSETTE and theirs & SHARED_ROSETTE_BIT:
        return f"That piece cannot move {roll}: square 8 is a rosette held by your opponent."
    return ""


# ---------------------------------------------------------------------------------------------
# Game layer: the common engine contract


@dataclass(frozen=True, slots=True)
class LastMove:
    """What a renderer needs to show the previous move."""

    seat: int
    source: int
    target: int
    captured: bool = False

    @property
    def extra_roll(self) -> bool:
        return self.target in ROSETTE_SQUARES


@dataclass(frozen=True, slots=True)
class UrState:
    """A game of Ur between two rolls or between a roll and its move.

    ``dice`` are the dice on the table (MOVE phase only); ``last_roll`` keeps the most recent
    dice thrown so the UI can say "rolled 0 - no move" after ``passed`` turned the turn over.
    ``passed``: the last roll had no legal move, so the side that rolled (now ``1 - turn``)
    lost its turn. ``extra_roll``: the last move landed on a rosette and ``turn`` rolls again.
    """

    position: Position
    phase: Phase
    turn: int
    dice: tuple[int, ...] = ()
    outcome: Outcome | None = None
    last_move: LastMove | None = None
    last_roll: tuple[int, ...] = ()
    passed: bool = False
    extra_roll: bool = False

    @property
    def roll_value(self) -> int:
        """Total of the dice on the table (0 when none are)."""
        return sum(self.dice)


UrAction = Move | Roll | Resign | Abandon


def new_game(options: Mapping[str, Any] | None = None) -> UrState:
    """A fresh game: all pieces off the board, light (seat 0) to roll."""
    if options:
        raise ValueError(f"Ur takes no options; got {', '.join(sorted(map(str, options)))}.")
    return UrState(Position(), Phase.ROLL, LIGHT)


def legal_actions(state: UrState) -> list[Move]:
    """The legal moves in the MOVE phase; empty otherwise (rolling is the only action then)."""
    if state.phase is not Phase.MOVE:
        return []
    return list(_listed_moves(state.position, sum(state.dice)))


@functools.lru_cache(maxsize=64)
def _listed_moves(position: Position, roll: int) -> tuple[Move, ...]:
    # One redraw lists the same moves for the buttons, their labels and the image, and the
    # click that follows lists them again: computed once per position while its game is on
    # screen. Small, since only the games being redrawn now need it; the search keeps using
    # legal_moves, whose positions never repeat enough to pay for a cache.
    return tuple(legal_moves(position, roll))


def roll(state: UrState, rng: random.Random) -> Roll:
    """Throw the four binary dice for the roll the side on turn must make."""
    if state.phase is not Phase.ROLL:
        raise common.WrongPhase(_phase_message(state))
    return Roll(common.roll_binary(rng, DICE))


def outcome(state: UrState) -> Outcome | None:
    return state.outcome


def apply(state: UrState, action: UrAction) -> UrState:
    """The state after ``action``; raises IllegalMove / WrongPhase with a player-facing reason."""
    if state.phase is Phase.FINISHED:
        raise common.WrongPhase("The game is over.")
    if isinstance(action, Move):
        return _apply_move(state, action)
    if isinstance(action, Roll):
        return _apply_roll(state, action)
    if isinstance(action, Resign):
        if action.seat not in (LIGHT, DARK):
            raise common.IllegalMove(f"There is no seat {action.seat} in Ur.")
        result = Outcome(1 - action.seat, ((1 - action.seat,), (action.seat,)), action.reason)
        return replace(state, phase=Phase.FINISHED, dice=(), outcome=result)
    if isinstance(action, Abandon):
        result = Outcome(None, ((LIGHT, DARK),), EndReason.ABANDON, points=0, kind="abandon")
        return replace(state, phase=Phase.FINISHED, dice=(), outcome=result)
    raise common.IllegalMove(f"{action!r} is not an Ur action.")


def _phase_message(state: UrState) -> str:
    if state.phase is Phase.MOVE:
        return "Move a piece first: the dice are already rolled."
    if state.phase is Phase.ROLL:
        return "Roll the dice first."
    return "The game is over."


def _apply_roll(state: UrState, action: Roll) -> UrState:
    if state.phase is not Phase.ROLL:
        raise common.WrongPhase(_phase_message(state))
    dice = action.dice
    if len(dice) != DICE or any(d not in (0, 1) for d in dice):
        raise common.IllegalMove(
            f"An Ur roll is {DICE} dice showing 0 or 1, not {action.notation()!r}."
        )
    if legal_moves(state.position, sum(dice)):
        return replace(
            state, phase=Phase.MOVE, dice=dice, last_roll=dice, passed=False, extra_roll=False
        )
    position = state.position
    passed_to: Side = "dark" if position.to_move == "light" else "light"
    return replace(
        state,
        position=position._replace(to_move=passed_to),
        turn=1 - state.turn,
        dice=(),
        last_roll=dice,
        passed=True,
        extra_roll=False,
    )


def _apply_move(state: UrState, move: Move) -> UrState:
    if state.phase is not Phase.MOVE:
        raise common.WrongPhase(_phase_message(state))
    position = state.position
    rolled = sum(state.dice)
    if move.target - move.source != rolled:
        raise common.IllegalMove(why_illegal(position, rolled, move))
    # apply_move re-checks legality and explains a blocked square.
    captured = is_capture(position, move)
    after, again = apply_move(position, move)
    last = LastMove(state.turn, move.source, move.target, captured)
    winner = after.winner()
    if winner is not None:
        seat = SEATS.index(winner)
        return replace(
            state,
            position=after,
            phase=Phase.FINISHED,
            dice=(),
            outcome=Outcome(seat, ((seat,), (1 - seat,))),
            last_move=last,
            passed=False,
            extra_roll=False,
        )
    return replace(
        state,
        position=after,
        phase=Phase.ROLL,
        turn=state.turn if again else 1 - state.turn,
        dice=(),
        last_move=last,
        passed=False,
        extra_roll=again,
    )


# ---------------------------------------------------------------------------------------------
# Notation


def notation(state: UrState, action: UrAction) -> str:
    return action.notation()


def _square(word: str, text: str) -> int:
    if word in ("enter", "in"):
        return START
    if word == "off":
        return OFF
    try:
        return int(word)
    except ValueError as error:
        hint = "write a move like 4-8, 0-3 or 13-off"
        raise common.NotationError(f"Cannot read {text!r}: {hint}.") from error


def parse(state: UrState, text: str) -> UrAction:
    """Read a notation (see the module docstring); the inverse of :func:`notation`."""
    shared = common.parse_common(text)
    if shared is not None:
        return shared
    words = text.strip().lower().replace(" ", "")
    if "-" in words:
        head, _, tail = words.partition("-")
        return Move(_square(head, text), _square(tail, text))
    source = _square(words, text)
    if state.phase is not Phase.MOVE:
        raise common.WrongPhase(f"Roll the dice before naming a piece to move ({text!r}).")
    return Move(source, source + sum(state.dice))


# ---------------------------------------------------------------------------------------------
# Persistence


def dump_state(state: UrState) -> dict[str, Any]:
    """A JSON-safe dict that :func:`load_state` turns back into an equal state."""
    position = state.position
    last = state.last_move
    result = state.outcome
    return {
        "light": list(position.squares("light")),
        "dark": list(position.squares("dark")),
        "to_move": position.to_move,
        "phase": state.phase.value,
        "turn": state.turn,
        "dice": list(state.dice),
        "outcome": common.dump_outcome(result),
        "last_move": None
        if last is None
        else {
            "seat": last.seat,
            "source": last.source,
            "target": last.target,
            "captured": last.captured,
        },
        "last_roll": list(state.last_roll),
        "passed": state.passed,
        "extra_roll": state.extra_roll,
    }


def load_state(data: Mapping[str, Any]) -> UrState:
    position = Position.from_squares(data["light"], data["dark"], data["to_move"])
    raw_outcome = data["outcome"]
    raw_last = data["last_move"]
    return UrState(
        position=position,
        phase=Phase(data["phase"]),
        turn=int(data["turn"]),
        dice=tuple(int(d) for d in data["dice"]),
        outcome=common.load_outcome(raw_outcome),
        last_move=None
        if raw_last is None
        else LastMove(
            int(raw_last["seat"]),
            int(raw_last["source"]),
            int(raw_last["target"]),
            bool(raw_last["captured"]),
        ),
        last_roll=tuple(int(d) for d in data["last_roll"]),
        passed=bool(data["passed"]),
        extra_roll=bool(data["extra_roll"]),
    )
