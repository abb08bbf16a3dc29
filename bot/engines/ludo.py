"""The four-seat Ludo variant, exactly as ``RULINGS.md`` ("Ludo variant") states it.

Board. A loop of 48 squares (0-47); orange, blue, green and yellow start on squares 0, 12, 24
and 36. (The rulings call the first seat red; the board draws it orange, so that is its name
here. ``"red"`` is still read as that seat.) A token's progress is counted in *steps*: 0 is
base (off the board), step 1 is its seat's start square, step ``s`` in 1-48 is loop square
``(start + s - 1) % 48``, steps 49-53 are the seat's private home stretch and 54 is home
(finished, never moves again).

Moves. Leaving base needs a die showing 6 and uses it (target step 1). Otherwise a token moves
exactly the die's number of steps; a move beyond step 54 is illegal. Landing on a loop square
held by exactly one opposing token (counting the tokens of every other colour together)
captures it: it goes back to base. A square holding one token each of two other colours is
therefore neither a capture nor a block. Two or more tokens of one colour on a loop square
form a block: no other colour may land on it or pass it (only loop squares, steps 1-48,
matter; the source square does not), including leaving base onto it. A colour's own tokens
pass and join its own blocks. The home stretch is private: nothing is captured or blocked
there.

Turn. The seat on turn rolls two dice (:class:`~bot.engines.common.Roll`), then picks a die
and a token and moves, then the same with the other die. In the move phase the legal actions
are the moves for each remaining die that can move now, so the player chooses the order. A
die that cannot be used when its time comes is lost: when no remaining die can move, the turn
ends (a roll where nothing moves ends it inside ``apply(Roll)``: ``passed`` says so). A 6 on
either die gives the same seat another turn after this one, also when nothing could move. The
first seat with all four tokens home wins; the other seats rank by total progress (the sum of
their steps), tied seats share a group.

Resigning. A resigned seat drops out: its tokens leave play (they neither block nor can be
captured) but keep their last steps for display, and its turns are skipped. Resigned seats
rank last, the latest resigner ahead of earlier ones. When one seat is left in play it wins.
``Abandon`` ends the game at once, ranked by progress (resigned seats last); the winner is the
best seat, or ``None`` when the best group is tied.

Notation. A move is ``"<die>:t<token> <from>-<to>"`` with tokens numbered 1-4 (as the buttons
label them) and ``from``/``to`` in steps, e.g. ``"6:t1 0-1"`` brings token 1 out with a six and
``"3:t2 17-20"`` moves token 2 three steps. :func:`parse` also reads the short ``"6:t1"`` or
``"6 t1"``, taking the steps from the state. Rolls, resignations and abandon use the common
notations (``"roll 6-3"``, ``"resign 2"``, ``"abandon"``).

The functions whose names start with ``fast_`` are the allocation-light kernel the AI's
search uses; they work on the raw 16-tuple of token steps (seat ``p`` owns indices ``4p`` to
``4p + 3``).
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.engines import common
from bot.engines.common import Abandon, EndReason, Outcome, Phase, Resign, Roll

GAME = "ludo"
SEATS: tuple[str, ...] = ("orange", "blue", "green", "yellow")
# Earlier names of seats, still accepted where a seat is given by name.
FORMER_NAMES: dict[str, str] = {"red": "orange"}

TOKENS = 4
LOOP = 48  # loop squares, and the last step that is on the loop
HOME = 54  # the last step: home
START: tuple[int, ...] = (0, 12, 24, 36)  # start square of each seat

# SQUARE[seat][step]: the loop square of that step, -1 for base and the home stretch.
SQUARE: tuple[tuple[int, ...], ...] = tuple(
    tuple((start + step - 1) % LOOP if 1 <= step <= LOOP else -1 for step in range(HOME + 1))
    for start in START
)
# STEP_AT[seat][square]: the step of ``seat``'s tokens standing on loop ``square``.
STEP_AT: tuple[tuple[int, ...], ...] = tuple(
    tuple((square - start) % LOOP + 1 for square in range(LOOP)) for start in START
)
OTHERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(other for other in range(len(START)) if other != seat) for seat in range(len(START))
)


def all_home(tokens: Sequence[int], seat: int) -> bool:
    """Whether all of ``seat``'s tokens are home."""
    base = seat * TOKENS
    return tokens[base] == tokens[base + 1] == tokens[base + 2] == tokens[base + 3] == HOME


def square_of(seat: int, step: int) -> int | None:
    """The loop square of ``seat``'s token on ``step``; ``None`` in base or the home stretch."""
    square = SQUARE[seat][step]
    return None if square < 0 else square


def seat_index(seat: str | int) -> int:
    """A seat given by name (``"blue"``) or index (1) as its index."""
    if isinstance(seat, int):
        if 0 <= seat < len(SEATS):
            return seat
    elif FORMER_NAMES.get(seat, seat) in SEATS:
        return SEATS.index(FORMER_NAMES.get(seat, seat))
    raise common.InvalidPosition(f"Unknown seat {seat!r}; the seats are {', '.join(SEATS)}.")


# ---------------------------------------------------------------------------------------------
# Fast kernel on raw token tuples


def fast_blocked(tokens: Sequence[int], seat: int, out: frozenset[int]) -> set[int]:
    """Loop squares ``seat`` may neither land on nor pass: other colours' blocks."""
    blocked: set[int] = set()
    for other in range(4):
        if other == seat or other in out:
            continue
        table = SQUARE[other]
        base = other * TOKENS
        a = table[tokens[base]]
        b = table[tokens[base + 1]]
        c = table[tokens[base + 2]]
        d = table[tokens[base + 3]]
        # Four squares: any square that occurs twice is a block.
        if a >= 0 and a in (b, c, d):
            blocked.add(a)
        if b >= 0 and b in (c, d):
            blocked.add(b)
        if c >= 0 and c == d:
            blocked.add(c)
    return blocked


def fast_targets(
    tokens: Sequence[int], seat: int, die: int, blocked: set[int]
) -> list[tuple[int, int]]:
    """``(token, target)`` for every legal move of ``seat`` with ``die``, token order."""
    table = SQUARE[seat]
    base = seat * TOKENS
    moves: list[tuple[int, int]] = []
    for token in range(TOKENS):
        step = tokens[base + token]
        if step == 0:
            if die == 6 and table[1] not in blocked:
                moves.append((token, 1))
            continue
        target = step + die
        if target > HOME:
            continue
        if blocked and step < LOOP:
            last = target if target < LOOP else LOOP
            for passed in range(step + 1, last + 1):
                if table[passed] in blocked:
                    break
            else:
                moves.append((token, target))
        else:
            moves.append((token, target))
    return moves


def fast_move(
    tokens: Sequence[int], seat: int, token: int, target: int, out: frozenset[int]
) -> tuple[tuple[int, ...], int]:
    """Move ``seat``'s ``token`` to ``target`` (assumed legal).

    Returns the new tokens and the global index of the captured token, or -1.
    """
    new = list(tokens)
    captured = move_in_place(new, seat, token, target, out)
    return tuple(new), captured


def move_in_place(
    tokens: list[int], seat: int, token: int, target: int, out: frozenset[int]
) -> int:
    """:func:`fast_move` on ``tokens`` itself (the AI's rollouts play thousands of moves):
    the global index of the captured token, or -1."""
    tokens[seat * TOKENS + token] = target
    if target > LOOP:
        return -1
    square = SQUARE[seat][target]
    count = 0
    captured = -1
    for other in OTHERS[seat]:
        if other in out:
            continue
        step = STEP_AT[other][square]
        base = other * TOKENS
        here = tokens[base : base + TOKENS].count(step)
        if here:
            count += here
            captured = tokens.index(step, base, base + TOKENS)
    if count == 1:
        tokens[captured] = 0
        return captured
    return -1


def fast_can_move(
    tokens: Sequence[int], seat: int, dice: Iterable[int], out: frozenset[int]
) -> bool:
    """Whether any of ``dice`` has a legal move for ``seat``."""
    blocked = fast_blocked(tokens, seat, out)
    return any(fast_targets(tokens, seat, die, blocked) for die in set(dice))


# ---------------------------------------------------------------------------------------------
# Positions and moves (the stable public API tools use)


@dataclass(frozen=True, slots=True)
class Position:
    """Where every token stands and whose move it is.

    ``tokens`` holds 16 steps, seat ``p``'s four tokens at ``4p .. 4p + 3``. ``out`` holds the
    resigned seats, whose tokens are out of play (kept for display only).
    """

    tokens: tuple[int, ...]
    to_move: int = 0
    out: frozenset[int] = frozenset()

    @classmethod
    def from_steps(cls, steps: Mapping[str, Sequence[int]], to_move: str) -> Position:
        """Build a position from each seat's four token steps; validates the shape."""
        given = len(steps)
        steps = {FORMER_NAMES.get(name, name): value for name, value in steps.items()}
        to_move = FORMER_NAMES.get(to_move, to_move)
        if set(steps) != set(SEATS) or given != len(SEATS):
            raise common.InvalidPosition(f"Give the steps of exactly the seats {', '.join(SEATS)}.")
        tokens: list[int] = []
        for name in SEATS:
            seat_steps = list(steps[name])
            if len(seat_steps) != TOKENS:
                raise common.InvalidPosition(f"{name.capitalize()} needs exactly {TOKENS} tokens.")
            for step in seat_steps:
                if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= HOME:
                    raise common.InvalidPosition(f"Step {step!r} of {name} is not in 0..{HOME}.")
            tokens.extend(seat_steps)
        if to_move not in SEATS:
            raise common.InvalidPosition(f"Unknown seat {to_move!r} to move.")
        return cls(tuple(tokens), SEATS.index(to_move))

    def steps(self, seat: str | int) -> tuple[int, ...]:
        """That seat's four token steps, in token order."""
        base = seat_index(seat) * TOKENS
        return self.tokens[base : base + TOKENS]

    def progress(self, seat: str | int) -> int:
        """Total progress of a seat: the sum of its token steps."""
        return sum(self.steps(seat))

    def square_holders(self, square: int) -> tuple[tuple[int, int], ...]:
        """``(seat, token)`` of every in-play token on a loop square."""
        return tuple(
            (index >> 2, index & 3)
            for index, step in enumerate(self.tokens)
            if SQUARE[index >> 2][step] == square and (index >> 2) not in self.out
        )


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``token`` (0-3) of the seat on turn from step ``source`` to ``target`` with ``die``."""

    die: int
    token: int
    source: int
    target: int

    def notation(self) -> str:
        return f"{self.die}:t{self.token + 1} {self.source}-{self.target}"


def legal_moves(position: Position, die: int) -> list[Move]:
    """The legal moves of ``position.to_move`` with one die (1-6), by token."""
    if not 1 <= die <= 6:
        raise ValueError(f"A die shows 1 to 6, not {die}.")
    seat = position.to_move
    tokens = position.tokens
    blocked = fast_blocked(tokens, seat, position.out)
    base = seat * TOKENS
    return [
        Move(die, token, tokens[base + token], target)
        for token, target in fast_targets(tokens, seat, die, blocked)
    ]


def apply_move(position: Position, move: Move) -> Position:
    """The position after ``move`` by ``position.to_move``, captures applied; validates it."""
    if move not in legal_moves(position, move.die):
        raise common.IllegalMove(_why_illegal(position, move))
    tokens, _ = fast_move(position.tokens, position.to_move, move.token, move.target, position.out)
    return replace(position, tokens=tokens)


def _why_illegal(position: Position, move: Move) -> str:
    """A sentence saying why ``move`` is not legal in ``position``."""
    seat = position.to_move
    if not 0 <= move.token < TOKENS:
        return f"There is no token {move.token + 1}; tokens are numbered 1 to {TOKENS}."
    step = position.tokens[seat * TOKENS + move.token]
    label = f"Token {move.token + 1}"
    if move.source != step:
        return f"{label} is on step {step}, not step {move.source}."
    if step == HOME:
        return f"{label} is already home."
    blocked = fast_blocked(position.tokens, seat, position.out)
    table = SQUARE[seat]
    if step == 0:
        if move.die != 6:
            return f"{label} is in base: only a 6 brings it out."
        if move.target != 1:
            return f"{label} comes out onto step 1, its start square."
        return (
            f"{label} cannot come out: square {table[1]}, your start square, "
            f"is blocked by {_blocker(position, table[1])}."
        )
    if move.target != step + move.die:
        return f"A {move.die} takes {label.lower()} from step {step} to step {step + move.die}."
    if move.target > HOME:
        return f"{label} cannot move {move.die}: it is {HOME - step} steps from home."
    for passed in range(step + 1, min(move.target, LOOP) + 1):
        if table[passed] in blocked:
            verb = "lands on" if passed == move.target else "would pass"
            return (
                f"{label} cannot move {move.die}: it {verb} square {table[passed]}, "
                f"blocked by {_blocker(position, table[passed])}."
            )
    return f"{label} cannot move {move.die}."


def _blocker(position: Position, square: int) -> str:
    """Who blocks ``square``, e.g. ``"the blue block"``."""
    colours = [seat for seat, _ in position.square_holders(square)]
    owners = sorted({SEATS[seat] for seat in colours if colours.count(seat) >= 2})
    return "the " + " and ".join(owners) + (" blocks" if len(owners) > 1 else " block")


# ---------------------------------------------------------------------------------------------
# Game state


@dataclass(frozen=True, slots=True)
class Capture:
    """A token sent back to base: its seat, token index and the step it was on."""

    seat: int
    token: int
    step: int


@dataclass(frozen=True, slots=True)
class LastMove:
    """The most recent move, for renderers and the move log."""

    seat: int
    token: int
    die: int
    source: int
    target: int
    captured: Capture | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LudoState:
    """A Ludo game. Built by keyword only: ten fields, several of the same type, are easy to
    misplace by position.

    ``dice`` are the dice of the current roll not yet used or lost; ``rolled`` is the whole
    latest roll. ``passed`` is true when that roll could not move anything at all, ``lost``
    holds the dice of it that were lost, and ``extra_turn`` is true when the seat on turn is
    rolling again because its previous roll had a 6. ``resigned`` lists resigned seats in the
    order they resigned.
    """

    position: Position
    phase: Phase = Phase.ROLL
    dice: tuple[int, ...] = ()
    rolled: tuple[int, ...] = ()
    outcome: Outcome | None = None
    last_move: LastMove | None = None
    passed: bool = False
    lost: tuple[int, ...] = ()
    extra_turn: bool = False
    resigned: tuple[int, ...] = ()

    @property
    def turn(self) -> int:
        """The seat that must act now (the last seat that acted once the game is over)."""
        return self.position.to_move


LudoAction = Move | Roll | Resign | Abandon


def new_game(options: Mapping[str, Any] | None = None) -> LudoState:
    """A new game: every token in base, orange to roll. There are no options."""
    if options:
        raise ValueError(f"Ludo has no options; got {', '.join(sorted(map(str, options)))}.")
    return LudoState(position=Position((0,) * (TOKENS * len(SEATS)), 0))


def legal_actions(state: LudoState) -> list[Move]:
    """The legal moves: those of every distinct remaining die that can move now."""
    if state.phase is not Phase.MOVE:
        return []
    return list(_listed_actions(state.position, state.dice))


@functools.lru_cache(maxsize=64)
def _listed_actions(position: Position, dice: tuple[int, ...]) -> tuple[Move, ...]:
    # One redraw lists the same moves for the die and token buttons, their labels and the
    # image, and the click that follows lists them again: computed once per position while
    # its game is on screen. The AI's search works on the fast_ kernel, not through here.
    seat = position.to_move
    tokens = position.tokens
    blocked = fast_blocked(tokens, seat, position.out)
    base = seat * TOKENS
    actions: list[Move] = []
    for die in dict.fromkeys(dice):
        actions.extend(
            Move(die, token, tokens[base + token], target)
            for token, target in fast_targets(tokens, seat, die, blocked)
        )
    return tuple(actions)


def roll(state: LudoState, rng: random.Random) -> Roll:
    """Two dice for the seat on turn, drawn from ``rng``."""
    return Roll(common.roll_d6(rng, 2))


def outcome(state: LudoState) -> Outcome | None:
    return state.outcome


def apply(state: LudoState, action: LudoAction) -> LudoState:
    """The state after ``action``; raises :class:`IllegalMove` or :class:`WrongPhase`."""
    if state.phase is Phase.FINISHED:
        raise common.WrongPhase("The game is over.")
    if isinstance(action, Roll):
        return _apply_roll(state, action)
    if isinstance(action, Move):
        return _apply_move(state, action)
    if isinstance(action, Resign):
        return _apply_resign(state, action.seat, action.reason)
    if isinstance(action, Abandon):
        return _finish(state, None, EndReason.ABANDON)
    raise common.IllegalMove(f"{action!r} is not a Ludo action.")


def _apply_roll(state: LudoState, action: Roll) -> LudoState:
    if state.phase is not Phase.ROLL:
        raise common.WrongPhase("Move first: you still have dice to play.")
    dice = action.dice
    if len(dice) != 2 or any(type(die) is not int or not 1 <= die <= 6 for die in dice):
        raise common.IllegalMove("A Ludo roll is two dice showing 1 to 6.")
    position = state.position
    if fast_can_move(position.tokens, position.to_move, dice, position.out):
        return LudoState(
            position=position,
            phase=Phase.MOVE,
            dice=dice,
            rolled=dice,
            last_move=state.last_move,
            resigned=state.resigned,
        )
    return _turn_over(state, position.tokens, dice, state.last_move, lost=dice, passed=True)


def _apply_move(state: LudoState, move: Move) -> LudoState:
    if state.phase is not Phase.MOVE:
        raise common.WrongPhase("Roll the dice first.")
    if move.die not in state.dice:
        left = " and ".join(str(die) for die in state.dice)
        raise common.IllegalMove(f"You have no {move.die} to play; your dice: {left}.")
    position = state.position
    seat = position.to_move
    before = position.tokens
    blocked = fast_blocked(before, seat, position.out)
    if (move.token, move.target) not in fast_targets(
        before, seat, move.die, blocked
    ) or move.source != before[seat * TOKENS + move.token]:
        raise common.IllegalMove(_why_illegal(position, move))
    tokens, captured_index = fast_move(before, seat, move.token, move.target, position.out)
    captured = None
    if captured_index >= 0:
        captured = Capture(captured_index >> 2, captured_index & 3, before[captured_index])
    last_move = LastMove(seat, move.token, move.die, move.source, move.target, captured)
    remaining = list(state.dice)
    remaining.remove(move.die)
    moved = LudoState(
        position=Position(tokens, seat, position.out),
        phase=Phase.MOVE,
        dice=tuple(remaining),
        rolled=state.rolled,
        last_move=last_move,
        resigned=state.resigned,
    )
    if all_home(tokens, seat):
        return _finish(moved, seat, EndReason.NORMAL)
    # Our move cannot change other colours' blocks (a captured token was alone on its
    # square), so the blocked squares found before the move still hold.
    for die in remaining:
        if fast_targets(tokens, seat, die, blocked):
            return moved
    return _turn_over(state, tokens, state.rolled, last_move, lost=tuple(remaining), passed=False)


def _turn_over(
    state: LudoState,
    tokens: tuple[int, ...],
    rolled: tuple[int, ...],
    last_move: LastMove | None,
    lost: tuple[int, ...],
    passed: bool,
) -> LudoState:
    """Close the turn of the seat on turn: it rolls again after a 6, else the next seat does."""
    seat = state.position.to_move
    out = state.position.out
    again = 6 in rolled
    following = seat if again else next_seat(seat, out)
    return LudoState(
        position=Position(tokens, following, out),
        rolled=rolled,
        last_move=last_move,
        passed=passed,
        lost=lost,
        extra_turn=again,
        resigned=state.resigned,
    )


def next_seat(seat: int, out: frozenset[int]) -> int:
    """The seat in play after ``seat``."""
    for offset in range(1, len(SEATS) + 1):
        candidate = (seat + offset) % len(SEATS)
        if candidate not in out:
            return candidate
    return seat


def _apply_resign(state: LudoState, seat: int, reason: EndReason = EndReason.RESIGN) -> LudoState:
    if type(seat) is not int or not 0 <= seat < len(SEATS):
        raise common.IllegalMove(f"There is no seat {seat}.")
    if seat in state.resigned:
        raise common.IllegalMove(f"{SEATS[seat].capitalize()} has already resigned.")
    resigned = (*state.resigned, seat)
    out = frozenset(resigned)
    position = replace(state.position, out=out)
    state = replace(state, position=position, resigned=resigned)
    in_play = [other for other in range(len(SEATS)) if other not in out]
    if len(in_play) == 1:
        return _finish(state, in_play[0], reason)
    if seat == position.to_move:
        # The resigner's turn ends with it; any dice left on the table go with it.
        return replace(
            state,
            position=replace(position, to_move=next_seat(seat, out)),
            phase=Phase.ROLL,
            dice=(),
            lost=(),
            passed=False,
            extra_turn=False,
        )
    return state


def _finish(state: LudoState, winner: int | None, reason: EndReason) -> LudoState:
    """End the game. ``winner=None`` (abandon): the best seat wins unless the best are tied."""
    position = state.position
    in_play = [seat for seat in range(len(SEATS)) if seat not in position.out]
    if winner is not None:
        in_play.remove(winner)
    groups = _rank_by_progress(position, in_play)
    if winner is None:
        winner = groups[0][0] if groups and len(groups[0]) == 1 else None
    else:
        groups.insert(0, (winner,))
    groups.extend((seat,) for seat in reversed(state.resigned))
    result = Outcome(winner, tuple(groups), reason)
    return replace(state, phase=Phase.FINISHED, dice=(), outcome=result)


def _rank_by_progress(position: Position, seats: Sequence[int]) -> list[tuple[int, ...]]:
    """``seats`` grouped by total progress, best first; equal progress shares a group."""
    by_progress: dict[int, list[int]] = {}
    for seat in seats:
        by_progress.setdefault(position.progress(seat), []).append(seat)
    return [tuple(by_progress[total]) for total in sorted(by_progress, reverse=True)]


# ---------------------------------------------------------------------------------------------
# Notation


_MOVE_TEXT = re.compile(r"^([1-6])\s*[: ]\s*t([1-4])(?:\s+(\d+)\s*-\s*(\d+))?$")


def notation(state: LudoState, action: LudoAction) -> str:
    """The one-line text of ``action`` (see the module docstring)."""
    return action.notation()


def parse(state: LudoState, text: str) -> LudoAction:
    """The action written as ``text``; the inverse of :func:`notation`.

    The short move form (``"6:t1"``) takes the token's steps from ``state``. Whether the
    action is legal is for :func:`apply` to say.
    """
    shared = common.parse_common(text)
    if shared is not None:
        return shared
    match = _MOVE_TEXT.match(text.strip().lower())
    if match is None:
        raise common.NotationError(
            f"Cannot read {text!r}; write a move as die:token from-to, e.g. 6:t1 0-1."
        )
    die, token = int(match[1]), int(match[2]) - 1
    if match[3] is not None:
        return Move(die, token, int(match[3]), int(match[4]))
    source = state.position.tokens[state.position.to_move * TOKENS + token]
    target = 1 if source == 0 else source + die
    return Move(die, token, source, target)


# ---------------------------------------------------------------------------------------------
# Saving


def dump_state(state: LudoState) -> dict[str, Any]:
    """A JSON-safe dict that :func:`load_state` turns back into an equal state."""
    move = state.last_move
    result = state.outcome
    return {
        "game": GAME,
        "tokens": list(state.position.tokens),
        "to_move": state.position.to_move,
        "phase": state.phase.value,
        "dice": list(state.dice),
        "rolled": list(state.rolled),
        "passed": state.passed,
        "lost": list(state.lost),
        "extra_turn": state.extra_turn,
        "resigned": list(state.resigned),
        "last_move": None
        if move is None
        else {
            "seat": move.seat,
            "token": move.token,
            "die": move.die,
            "source": move.source,
            "target": move.target,
            "captured": None
            if move.captured is None
            else [move.captured.seat, move.captured.token, move.captured.step],
        },
        "outcome": common.dump_outcome(result),
    }


def load_state(data: Mapping[str, Any]) -> LudoState:
    """The state :func:`dump_state` saved as ``data``."""
    if data.get("game", GAME) != GAME:
        raise common.InvalidPosition(f"Not a Ludo state: {data.get('game')!r}.")
    tokens = tuple(int(step) for step in data["tokens"])
    if len(tokens) != TOKENS * len(SEATS) or not all(0 <= step <= HOME for step in tokens):
        raise common.InvalidPosition("A Ludo state needs 16 token steps in 0..54.")
    resigned = tuple(int(seat) for seat in data["resigned"])
    move_data = data["last_move"]
    last_move = None
    if move_data is not None:
        captured_data = move_data["captured"]
        last_move = LastMove(
            int(move_data["seat"]),
            int(move_data["token"]),
            int(move_data["die"]),
            int(move_data["source"]),
            int(move_data["target"]),
            None if captured_data is None else Capture(*(int(x) for x in captured_data)),
        )
    result = common.load_outcome(data["outcome"])
    return LudoState(
        position=Position(tokens, int(data["to_move"]), frozenset(resigned)),
        phase=Phase(data["phase"]),
        dice=tuple(int(die) for die in data["dice"]),
        rolled=tuple(int(die) for die in data["rolled"]),
        outcome=result,
        last_move=last_move,
        passed=bool(data["passed"]),
        lost=tuple(int(die) for die in data["lost"]),
        extra_turn=bool(data["extra_turn"]),
        resigned=resigned,
    )
