"""The Royal Game of Ur under other rule sets than Finkel's: one engine parametrised by a
frozen :class:`RuleSet` (each side's path as board cells, pieces, rosettes, whether rosettes
are safe, what grants another roll, the dice), as RoyalUr.net defines its rule sets.

Finkel's own engine (:mod:`bot.engines.ur`) stays as it is: its bit masks, notation, stored
states and solved table are Finkel's. A rule set's game (``bot.engines.ur_<set>``) is a
:class:`UrSetRules` whose methods it exports at module level, so that module is a
``Rules[UrSetState, Move]``.

Board and path
    Cells are ``(x, y)``: ``x`` 1-3 across (1: light's lane, 2: the middle lane, 3: dark's
    lane), ``y`` 1.. along the board, as RoyalUr.net numbers them. Each side walks its own path
    of squares ``1..n``; square 0 means "not yet entered", ``n + 1`` "borne off". Two pieces
    meet where their squares are the same cell, which need not be the same square number (on
    the Masters path light's squares 12-16 are dark's lane end and back).

Rules
    A roll is ``dice`` binary dice. A piece moves exactly the roll; it may not land on one of
    its own; landing on an opponent captures it (back to 0) unless the cell is a rosette and
    rosettes are safe (then the move is blocked); bearing off needs the exact roll. Landing on
    a rosette grants another roll when ``rosettes_grant_roll``, a capture when
    ``captures_grant_roll``. A roll without a legal move passes the turn. Light moves first;
    the first side to bear off all its pieces wins.

Notation
    As Finkel's: ``"<source>-<target>"`` on the mover's own path, ``"0-3"`` enters, ``"14-off"``
    bears off; :meth:`UrSetRules.parse` also reads ``"enter"``/``"in"`` and a bare source square.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, NamedTuple

from bot.engines import common
from bot.engines.common import Abandon, EndReason, Outcome, Phase, Resign, Roll

SEATS: Final[tuple[str, ...]] = ("light", "dark")
LIGHT: Final = 0
DARK: Final = 1
START: Final = 0

Cell = tuple[int, int]


def walk(*corners: Cell) -> tuple[Cell, ...]:
    """The cells from corner to corner, in straight lines (RoyalUr.net's ``create_path``)."""
    cells: list[Cell] = [corners[0]]
    for (x0, y0), (x1, y1) in itertools.pairwise(corners):
        dx, dy = (x1 > x0) - (x1 < x0), (y1 > y0) - (y1 < y0)
        x, y = x0, y0
        while (x, y) != (x1, y1):
            x, y = x + dx, y + dy
            cells.append((x, y))
    return tuple(cells)


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One rule set: everything the engine, the AI and the board read."""

    game: str
    name: str  # RoyalUr.net's name of the rule set
    cells: tuple[Cell, ...]  # every cell of the board
    rosettes: frozenset[Cell]
    paths: tuple[tuple[Cell, ...], tuple[Cell, ...]]  # light's and dark's squares 1..n
    pieces: int
    safe_rosettes: bool
    rosettes_grant_roll: bool
    captures_grant_roll: bool
    dice: int = 4
    length: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "length", len(self.paths[0]))
        assert len(self.paths[1]) == self.length

    @property
    def off(self) -> int:
        """The path square of a piece borne off."""
        return self.length + 1

    def cell(self, seat: int, square: int) -> Cell:
        return self.paths[seat][square - 1]

    def is_rosette(self, seat: int, square: int) -> bool:
        return 0 < square <= self.length and self.cell(seat, square) in self.rosettes

    def roll_probabilities(self) -> tuple[float, ...]:
        """The chance of each total 0..dice with binary dice."""
        from math import comb

        return tuple(comb(self.dice, k) / 2**self.dice for k in range(self.dice + 1))


class Position(NamedTuple):
    """Each side's path squares, sorted, and the seat to move (0 light, 1 dark)."""

    light: tuple[int, ...]
    dark: tuple[int, ...]
    to_move: int = LIGHT

    def side(self, seat: int) -> tuple[int, ...]:
        return self.light if seat == LIGHT else self.dark

    def waiting(self, seat: int) -> int:
        return self.side(seat).count(START)

    def on_board(self, seat: int, off: int) -> tuple[int, ...]:
        return tuple(s for s in self.side(seat) if START < s < off)

    def borne_off(self, seat: int, off: int) -> int:
        return self.side(seat).count(off)


@dataclass(frozen=True, slots=True)
class Move:
    """One piece moved from ``source`` to ``target`` on the mover's path (0 enters, ``off``
    bears off)."""

    source: int
    target: int
    off: int

    @property
    def enters(self) -> bool:
        return self.source == START

    @property
    def bears_off(self) -> bool:
        return self.target == self.off

    def notation(self) -> str:
        return f"{self.source}-{'off' if self.target == self.off else self.target}"

    def __str__(self) -> str:
        return self.notation()


@dataclass(frozen=True, slots=True)
class LastMove:
    seat: int
    source: int
    target: int
    captured: bool = False


@dataclass(frozen=True, slots=True)
class UrSetState:
    """A game between two rolls or between a roll and its move (as Finkel's ``UrState``)."""

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
        return sum(self.dice)


UrSetAction = Move | Roll | Resign | Abandon


class UrSetRules:
    """The engine contract for one :class:`RuleSet`."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.GAME = rules.game
        self.SEATS = SEATS
        self.OFF = rules.off

    # -- positions and moves -----------------------------------------------------------------

    def start_position(self) -> Position:
        pieces = (START,) * self.rules.pieces
        return Position(pieces, pieces, LIGHT)

    def position(self, light: Sequence[int], dark: Sequence[int], to_move: int) -> Position:
        """A checked position from each side's path squares."""
        rules = self.rules
        sides = []
        for name, squares in (("light", light), ("dark", dark)):
            if len(squares) != rules.pieces:
                raise common.InvalidPosition(f"{name} needs {rules.pieces} pieces.")
            board = [s for s in squares if START < s < rules.off]
            if any(type(s) is not int or not START <= s <= rules.off for s in squares):
                raise common.InvalidPosition(f"{name} has a square outside 0..{rules.off}.")
            if len(set(board)) != len(board):
                raise common.InvalidPosition(f"{name} has two pieces on one square.")
            sides.append(tuple(sorted(squares)))
        seat_cells = [
            {rules.cell(seat, s) for s in sides[seat] if START < s < rules.off} for seat in (0, 1)
        ]
        if seat_cells[0] & seat_cells[1]:
            raise common.InvalidPosition("Light and dark share a square.")
        if to_move not in (LIGHT, DARK):
            raise common.InvalidPosition(f"No seat {to_move}.")
        return Position(sides[0], sides[1], to_move)

    def legal_moves(self, position: Position, roll: int) -> list[Move]:
        rules = self.rules
        off = rules.off
        seat = position.to_move
        mine = position.side(seat)
        theirs = {rules.cell(1 - seat, s) for s in position.side(1 - seat) if START < s < off}
        moves: list[Move] = []
        if roll <= 0:
            return moves
        for source in sorted(set(mine)):
            if source == off:
                continue
            target = source + roll
            if target > off:
                continue
            if target < off:
                if target in mine:
                    continue
                cell = rules.cell(seat, target)
                if cell in theirs and rules.safe_rosettes and cell in rules.rosettes:
                    continue
            moves.append(Move(source, target, off))
        return moves

    def is_capture(self, position: Position, move: Move) -> bool:
        rules = self.rules
        if move.target >= rules.off:
            return False
        seat = position.to_move
        cell = rules.cell(seat, move.target)
        return any(
            rules.cell(1 - seat, s) == cell
            for s in position.side(1 - seat)
            if START < s < rules.off
        )

    def apply_move(self, position: Position, move: Move) -> tuple[Position, bool, bool]:
        """(position after ``move``, whether the mover rolls again, whether it captured)."""
        rules = self.rules
        if move not in self.legal_moves(position, move.target - move.source):
            raise common.IllegalMove(self.why_illegal(position, move))
        seat = position.to_move
        mine = list(position.side(seat))
        theirs = list(position.side(1 - seat))
        mine.remove(move.source)
        mine.append(move.target)
        captured = False
        if move.target < rules.off:
            cell = rules.cell(seat, move.target)
            for index, square in enumerate(theirs):
                if START < square < rules.off and rules.cell(1 - seat, square) == cell:
                    theirs[index] = START
                    captured = True
        again = (rules.rosettes_grant_roll and rules.is_rosette(seat, move.target)) or (
            rules.captures_grant_roll and captured
        )
        sides = (tuple(sorted(mine)), tuple(sorted(theirs)))
        light, dark = sides if seat == LIGHT else sides[::-1]
        return Position(light, dark, seat if again else 1 - seat), again, captured

    def why_illegal(self, position: Position, move: Move) -> str:
        mine = position.side(position.to_move)
        if move.source not in mine or move.source == self.rules.off:
            return f"You have no piece on square {move.source}."
        if not 1 <= move.target - move.source <= self.rules.dice:
            return "That piece cannot move that far."
        if move.target > self.rules.off:
            return f"That piece needs exactly {self.rules.off - move.source} to bear off."
        if move.target in mine and move.target != self.rules.off:
            return f"Square {move.target} holds one of your own pieces."
        return f"Square {move.target} is a rosette held by your opponent."

    def winner(self, position: Position) -> int | None:
        for seat in (LIGHT, DARK):
            if position.borne_off(seat, self.rules.off) == self.rules.pieces:
                return seat
        return None

    # -- the game contract -------------------------------------------------------------------

    def new_game(self, options: Mapping[str, object] | None = None) -> UrSetState:
        if options:
            raise ValueError(f"{self.rules.name} takes no options.")
        return UrSetState(self.start_position(), Phase.ROLL, LIGHT)

    def legal_actions(self, state: UrSetState) -> list[Move]:
        if state.phase is not Phase.MOVE:
            return []
        return self.legal_moves(state.position, sum(state.dice))

    def roll(self, state: UrSetState, rng: random.Random) -> Roll:
        if state.phase is not Phase.ROLL:
            raise common.WrongPhase(_phase_message(state))
        return Roll(common.roll_binary(rng, self.rules.dice))

    def outcome(self, state: UrSetState) -> Outcome | None:
        return state.outcome

    def apply(self, state: UrSetState, action: UrSetAction) -> UrSetState:
        if state.phase is Phase.FINISHED:
            raise common.WrongPhase("The game is over.")
        if isinstance(action, Move):
            return self._apply_move(state, action)
        if isinstance(action, Roll):
            return self._apply_roll(state, action)
        if isinstance(action, Resign):
            if action.seat not in (LIGHT, DARK):
                raise common.IllegalMove(f"There is no seat {action.seat}.")
            result = Outcome(1 - action.seat, ((1 - action.seat,), (action.seat,)), action.reason)
            return replace(state, phase=Phase.FINISHED, dice=(), outcome=result)
        if isinstance(action, Abandon):
            result = Outcome(None, ((LIGHT, DARK),), EndReason.ABANDON, points=0, kind="abandon")
            return replace(state, phase=Phase.FINISHED, dice=(), outcome=result)
        raise common.IllegalMove(f"{action!r} is not an Ur action.")

    def _apply_roll(self, state: UrSetState, action: Roll) -> UrSetState:
        if state.phase is not Phase.ROLL:
            raise common.WrongPhase(_phase_message(state))
        dice = action.dice
        if len(dice) != self.rules.dice or any(d not in (0, 1) for d in dice):
            raise common.IllegalMove(
                f"An Ur roll is {self.rules.dice} dice showing 0 or 1, not {action.notation()!r}."
            )
        if self.legal_moves(state.position, sum(dice)):
            return replace(
                state, phase=Phase.MOVE, dice=dice, last_roll=dice, passed=False, extra_roll=False
            )
        position = state.position
        return replace(
            state,
            position=position._replace(to_move=1 - position.to_move),
            turn=1 - state.turn,
            dice=(),
            last_roll=dice,
            passed=True,
            extra_roll=False,
        )

    def _apply_move(self, state: UrSetState, move: Move) -> UrSetState:
        if state.phase is not Phase.MOVE:
            raise common.WrongPhase(_phase_message(state))
        rolled = sum(state.dice)
        if move.target - move.source != rolled or move.off != self.rules.off:
            raise common.IllegalMove(f"You rolled {rolled}: that piece cannot go there.")
        after, again, captured = self.apply_move(state.position, move)
        last = LastMove(state.turn, move.source, move.target, captured)
        winner = self.winner(after)
        if winner is not None:
            return replace(
                state,
                position=after,
                phase=Phase.FINISHED,
                dice=(),
                outcome=Outcome(winner, ((winner,), (1 - winner,))),
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

    # -- notation ----------------------------------------------------------------------------

    def notation(self, state: UrSetState, action: UrSetAction) -> str:
        return action.notation()

    def _square(self, word: str, text: str) -> int:
        if word in ("enter", "in"):
            return START
        if word == "off":
            return self.rules.off
        try:
            return int(word)
        except ValueError as error:
            raise common.NotationError(
                f"Cannot read {text!r}: write a move like 4-8, 0-3 or {self.rules.length}-off."
            ) from error

    def parse(self, state: UrSetState, text: str) -> UrSetAction:
        shared = common.parse_common(text)
        if shared is not None:
            return shared
        words = text.strip().lower().replace(" ", "")
        if "-" in words:
            head, _, tail = words.partition("-")
            return Move(self._square(head, text), self._square(tail, text), self.rules.off)
        source = self._square(words, text)
        if state.phase is not Phase.MOVE:
            raise common.WrongPhase(f"Roll the dice before naming a piece to move ({text!r}).")
        return Move(source, source + sum(state.dice), self.rules.off)

    # -- persistence -------------------------------------------------------------------------

    def dump_state(self, state: UrSetState) -> dict[str, Any]:
        position = state.position
        last = state.last_move
        return {
            "light": list(position.light),
            "dark": list(position.dark),
            "to_move": SEATS[position.to_move],
            "phase": state.phase.value,
            "turn": state.turn,
            "dice": list(state.dice),
            "outcome": common.dump_outcome(state.outcome),
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

    def load_state(self, data: Mapping[str, Any]) -> UrSetState:
        to_move = SEATS.index(str(data["to_move"]))
        position = self.position(list(data["light"]), list(data["dark"]), to_move)
        raw_last = data["last_move"]
        return UrSetState(
            position=position,
            phase=Phase(data["phase"]),
            turn=int(data["turn"]),
            dice=tuple(int(d) for d in data["dice"]),
            outcome=common.load_outcome(data["outcome"]),
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


def _phase_message(state: UrSetState) -> str:
    if state.phase is Phase.MOVE:
        return "Move a piece first: the dice are already rolled."
    if state.phase is Phase.ROLL:
        return "Roll the dice first."
    return "The game is over."


# ---------------------------------------------------------------------------------------------
# RoyalUr.net's boards and paths


STANDARD_CELLS: Final = tuple(
    (x, y) for x in (1, 2, 3) for y in range(1, 9) if x == 2 or y not in (5, 6)
)
STANDARD_ROSETTES: Final = frozenset({(1, 1), (1, 7), (2, 4), (3, 1), (3, 7)})
MASTERS_PATHS: Final = (
    walk((1, 4), (1, 1), (2, 1), (2, 7), (3, 7), (3, 8), (1, 8), (1, 7)),
    walk((3, 4), (3, 1), (2, 1), (2, 7), (1, 7), (1, 8), (3, 8), (3, 7)),
)
ASEB_CELLS: Final = tuple((x, y) for x in (1, 2, 3) for y in range(1, 13) if x == 2 or y <= 4)
ASEB_ROSETTES: Final = frozenset({(1, 1), (2, 4), (2, 8), (2, 12), (3, 1)})
ASEB_PATHS: Final = (
    walk((1, 4), (1, 1), (2, 1), (2, 12)),
    walk((3, 4), (3, 1), (2, 1), (2, 12)),
)
