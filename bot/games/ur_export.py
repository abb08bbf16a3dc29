"""Ur games as RGN files, and their reader.

Ur, RGN (the Royal Game Notation of RoyalUr.net, as its Java library's encoder writes it; that
library has no reader, so this module's reader is its own):

* ``[Key "value"]`` tag pairs (``\\`` and ``"`` escaped), a blank line, then one line per round:
  ``N. <light's turn> / <dark's turn>``. A turn is its actions separated by spaces (a rosette
  gives the same player more actions). A move is ``<from><to>`` in board coordinates
  (columns a-c, rows 1-8; light walks a4 a3 a2 a1 b1..b8 a8 a7, dark the same on column c;
  pieces enter from a5/c5 and bear off to a6/c6), then ``x`` for a capture and ``+`` for a
  rosette; the roll is implied by the distance. A roll without a move is ``<roll>-``. ``#``
  follows the last action of a game won by play.
* Tags written: Rules "Finkel", Light, Dark, StartTime, EndTime, Site, GameID, Result
  ("Light", "Dark" or "None"), Termination ("normal", "resignation", "timeout",
  "abandoned"), and Dice: every roll's four binary dice in order (``1010 0111 ...``), which
  RGN itself does not keep but an exact replay needs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from bot.engines import ur
from bot.engines.common import Abandon, EngineError, GameRecord, Replay, Resign, Roll
from bot.games.files import SITE, GameFileError, options_of, seat_names, termination, utc
from bot.storage import ActionRow, GameRow

_UR_PATHS: Final = tuple(
    (
        f"{col}5",
        *(f"{col}{row}" for row in (4, 3, 2, 1)),
        *(f"b{row}" for row in range(1, 9)),
        f"{col}8",
        f"{col}7",
        f"{col}6",
    )
    for col in ("a", "c")
)
"""_UR_PATHS[seat][square]: the tile of each path square, 0 (the start) to 15 (off)."""
_UR_SQUARES: Final = tuple({tile: square for square, tile in enumerate(path)} for path in _UR_PATHS)
_RGN_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_RGN_MOVE = re.compile(r"^([a-c][1-8])([a-c][1-8])(x?)(\+?)(#?)$")
_RGN_ROLL = re.compile(r"^([0-4])-(#?)$")
_RGN_ESCAPES: Final = {"\\": "\\\\", '"': '\\"', "\r": "\\r", "\n": "\\n"}
_RGN_UNESCAPES: Final = {value[1]: key for key, value in _RGN_ESCAPES.items()}


def _rgn_escape(value: str) -> str:
    return "".join(_RGN_ESCAPES.get(ch, ch) for ch in value)


def _rgn_unescape(value: str) -> str:
    return re.sub(r"\\(.)", lambda m: _RGN_UNESCAPES.get(m[1], m[1]), value)


def export_rgn(game: GameRow, actions: Sequence[ActionRow]) -> str:
    """The game in RGN (see the module docstring)."""
    steps = Replay(ur, options_of(game), [row.notation for row in actions])
    turns: list[tuple[int, list[str]]] = []
    dice: list[str] = []
    pending: tuple[int, int] | None = None  # (seat, roll) rolled but not moved

    def add(seat: int, token: str) -> None:
        if turns and turns[-1][0] == seat:
            turns[-1][1].append(token)
        else:
            turns.append((seat, [token]))

    for state, action, after in steps:
        if isinstance(action, Roll):
            dice.append("".join(str(d) for d in action.dice))
            if after.passed:
                add(state.turn, f"{sum(action.dice)}-")
            else:
                pending = (state.turn, sum(action.dice))
        elif isinstance(action, ur.Move):
            path = _UR_PATHS[state.turn]
            token = path[action.source] + path[action.target]
            token += "x" if ur.is_capture(state.position, action) else ""
            token += "+" if action.lands_on_rosette else ""
            won = after.outcome is not None and after.outcome.winner is not None
            add(state.turn, token + ("#" if won else ""))
            pending = None
        elif pending is not None:  # a resignation or an abandon after a roll
            add(pending[0], f"{pending[1]}-")
            pending = None
    if pending is not None:
        add(pending[0], f"{pending[1]}-")

    outcome = ur.outcome(steps.state)
    names = seat_names(game, 2)
    tags = [
        ("Rules", "Finkel"),
        ("Light", names[0]),
        ("Dark", names[1]),
        ("StartTime", utc(game.created_at).isoformat(timespec="seconds")),
    ]
    if game.finished_at is not None:
        tags.append(("EndTime", utc(game.finished_at).isoformat(timespec="seconds")))
    tags += [("Site", SITE), ("GameID", game.id)]
    if outcome is not None:
        winner = "None" if outcome.winner is None else ur.SEATS[outcome.winner].capitalize()
        tags.append(("Result", winner))
    tags.append(("Termination", termination(outcome, actions)))
    tags.append(("Dice", " ".join(dice)))
    lines = [f'[{key} "{_rgn_escape(value)}"]' for key, value in tags]
    lines.append("")
    # Light moves first and turns alternate, so each line is one round: light / dark.
    round_number = 0
    for seat, tokens in turns:
        text = " ".join(tokens)
        if seat == ur.LIGHT:
            round_number += 1
            lines.append(f"{round_number}. {text}")
        else:
            lines[-1] += f" / {text}"
    return "\n".join(lines) + "\n"


def _rgn_dice(value: int, given: list[tuple[int, ...]], index: int) -> tuple[int, ...]:
    if index < len(given):
        if sum(given[index]) != value:
            raise GameFileError(f"roll {index + 1}: the Dice tag does not add up to {value}")
        return given[index]
    return (1,) * value + (0,) * (ur.DICE - value)  # a file without the Dice tag


def import_rgn(text: str) -> GameRecord:
    """The engine notations of an RGN game (see the module docstring)."""
    tags: dict[str, str] = {}
    body: list[str] = []
    for line in text.splitlines():
        tag = _RGN_TAG.match(line.strip())
        if tag is not None and not body:
            tags[tag[1]] = _rgn_unescape(tag[2])
        elif line.strip():
            body.append(line)
    if tags.get("Rules", "Finkel") != "Finkel":
        raise GameFileError(f"Only the Finkel rules are supported, not {tags['Rules']!r}.")
    given = [tuple(int(ch) for ch in word) for word in tags.get("Dice", "").split()]
    if any(len(d) != ur.DICE or set(d) - {0, 1} for d in given):
        raise GameFileError("The Dice tag must list rolls of four 0/1 dice, like 1010.")
    state = ur.new_game()
    out: list[str] = []

    def apply(action: ur.UrAction) -> None:
        nonlocal state
        try:
            text = ur.notation(state, action)
            state = ur.apply(state, action)
        except EngineError as error:
            raise GameFileError(f"action {len(out) + 1}: {error}") from None
        out.append(text)

    rolls = 0
    expected_seat = ur.LIGHT
    for token in " ".join(body).split():
        if re.fullmatch(r"\d+\.", token):
            expected_seat = ur.LIGHT
            continue
        if token == "/":
            expected_seat = ur.DARK
            continue
        if state.turn != expected_seat:
            raise GameFileError(f"{token!r}: it is {ur.SEATS[state.turn]}'s turn")
        moved = _RGN_MOVE.match(token)
        rolled = _RGN_ROLL.match(token)
        if moved is not None:
            squares = _UR_SQUARES[state.turn]
            if moved[1] not in squares or moved[2] not in squares:
                raise GameFileError(f"{token!r} is not on {ur.SEATS[state.turn]}'s path")
            move = ur.Move(squares[moved[1]], squares[moved[2]])
            apply(Roll(_rgn_dice(move.target - move.source, given, rolls)))
            rolls += 1
            if bool(moved[3]) != ur.is_capture(state.position, move) or bool(moved[4]) != (
                move.target in ur.ROSETTE_SQUARES
            ):
                raise GameFileError(f"{token!r}: the capture or rosette mark is wrong")
            apply(move)
        elif rolled is not None:
            apply(Roll(_rgn_dice(int(rolled[1]), given, rolls)))
            rolls += 1
        else:
            raise GameFileError(f"Cannot read {token!r}.")
    termination = tags.get("Termination", "normal").lower()
    if termination in ("resignation", "timeout"):
        winner = tags.get("Result", "").lower()
        if winner not in ur.SEATS:
            raise GameFileError("A resigned game needs its Result tag.")
        apply(Resign(1 - ur.SEATS.index(winner)))
    elif termination == "abandoned":
        apply(Abandon())
    return GameRecord(ur.GAME, {}, tuple(out))
