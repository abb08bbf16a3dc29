"""Game files for other programs: backgammon as a GNU Backgammon ``.mat``, Ur as RGN, Ludo as
JSON, each with a reader that turns the file back into engine notations.

Every export is built by replaying the action log through the engine, and every reader
rebuilds a :class:`~bot.engines.common.GameRecord` whose replay reaches the same final state
(the tests check this on seeded games).

Backgammon, ``.mat`` (Jellyfish match format as GNU Backgammon writes and reads it; layout
copied from gnubg's ``ExportGameJF`` and checked against its reader ``import.c``):

* ``; [Tag "value"]`` comment lines (Site, Match ID, Player 1/2, EventDate, Variation, ...),
  a blank line, then `` N point match`` (0: a money game; our single game is a 1 point
  match). ``; [CubeLimit "1"]`` marks a game played without the cube;
  ``; [Termination "Abandoned"]`` a game stopped before its end (gnubg keeps both as comments).
* Per game `` Game N`` and the score line `` left : 0                      right : 0`` (the
  left name padded to 31 columns), then numbered lines ``%3d) `` with the left player's
  action padded to 27 columns and the right player's after it. The left column belongs to
  the player who started game 1, for the whole file (the score line's order must not change
  between games); when the right player starts a later game its first line has an empty left
  cell, exactly as gnubg writes it.
* A turn is ``DD: from/to from/to ...`` from the mover's side: points 24..1, the bar as 25,
  off as 0, one ``from/to`` per die (a double's four steps written out), ``*`` on the first
  step landing on a blot, steps in gnubg's canonical order (highest point first), a space
  after each of the first three steps. A roll that cannot be played is ``DD: Cannot Move``; a
  roll followed by a resignation is ``DD:`` alone. The opening roll is written as the
  engine's dice (white's die first).
* Cube: `` Doubles => 2``, `` Takes``, `` Drops`` followed by ``Wins N point(s)``; a game
  won by bearing off or by resignation ends with ``Wins N point(s)`` in the winner's column.
* Opening rolls that tied are not in the format; the reader gives every other action back.

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

Ludo, JSON: ``{"format": "tabula-ludo", "version": 1, ...}`` with the seats, every action
with its seat, kind and engine notation, the result and the final engine state.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

from bot.engines import backgammon, ludo, rules_for, ur
from bot.engines.common import (
    Abandon,
    EngineError,
    GameRecord,
    Outcome,
    Phase,
    Resign,
    Roll,
)
from bot.service.options import engine_options
from bot.storage import ActionRow, GameRow

SITE: Final = "Tabula"


class GameFileError(ValueError):
    """A file could not be read as a game; the message says where and why."""


def export_game(game: GameRow, actions: Sequence[ActionRow]) -> tuple[str, bytes]:
    """(file name, UTF-8 content) of ``game`` in its game's exchange format."""
    ordered = sorted(actions, key=lambda a: a.seq)
    if game.game == "backgammon":
        return f"tabula-backgammon-{game.id}.mat", export_mat(game, ordered).encode()
    if game.game == "ur":
        return f"tabula-ur-{game.id}.rgn", export_rgn(game, ordered).encode()
    if game.game == "ludo":
        return f"tabula-ludo-{game.id}.json", export_ludo_json(game, ordered).encode()
    raise ValueError(f"No export format for {game.game!r}.")


def import_game(filename: str, content: bytes) -> GameRecord:
    """Read a file written by :func:`export_game` (chosen by its extension)."""
    text = content.decode("utf-8-sig")
    if filename.endswith(".mat"):
        return import_mat(text)
    if filename.endswith(".rgn"):
        return import_rgn(text)
    if filename.endswith(".json"):
        return import_ludo_json(text)
    raise GameFileError(f"Unknown game file type: {filename}")


def _options(game: GameRow) -> dict[str, Any]:
    options: dict[str, Any] = engine_options(json.loads(game.options_json or "{}"))
    return options


def _names(game: GameRow, seats: int) -> list[str]:
    names = [f"Seat {i + 1}" for i in range(seats)]
    for seat in game.seats:
        if 0 <= seat.seat < seats:
            names[seat.seat] = seat.display_name
    return names


def _utc(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp, UTC)


def _termination(outcome: Outcome | None, log: Sequence[ActionRow]) -> str:
    if outcome is None:
        return "unfinished"
    if log and log[-1].kind == "timeout":
        return "timeout"
    return {"resign": "resignation", "abandon": "abandoned"}.get(
        str(outcome.reason), str(outcome.reason)
    )


# =============================================================================================
# Backgammon: GNU Backgammon / Jellyfish .mat


@dataclass(frozen=True, slots=True)
class _MatRecord:
    """One cell of the move list. ``column_seat`` is the seat whose column it is in."""

    kind: str  # move | dice | double | take | drop | resign
    column_seat: int
    text: str = ""
    points: int = 0
    ends_game: bool = False  # a move that bore off the last checker


@dataclass(slots=True)
class _MatGame:
    number: int
    score: tuple[int, int]  # per seat, before the game
    records: list[_MatRecord] = field(default_factory=list)


def _mat_steps(position: backgammon.Position, steps: Sequence[tuple[int, int]]) -> str:
    """gnubg's FormatMovePlain: canonical order, ``*`` on the first landing on a blot."""
    ordered = sorted(steps, key=lambda step: (-step[0], -step[1]))
    parts: list[str] = []
    landed: set[int] = set()
    for index, (frm, to) in enumerate(ordered):
        hit = to != backgammon.OFF and position.theirs[24 - to] > 0 and to not in landed
        landed.add(to)
        parts.append(f"{frm}/{to}{'*' if hit else ''}{' ' if index < 3 else ''}")
    return "".join(parts)


def _collect_mat(
    game: GameRow, actions: Sequence[ActionRow]
) -> tuple[list[_MatGame], bool, backgammon.BackgammonState]:
    """The games of the match as .mat cells, whether it was abandoned, and the final state."""
    state = backgammon.new_game(_options(game))
    games = [_MatGame(1, (0, 0))]
    pending: tuple[int, str] | None = None  # (seat, "DD: ") rolled but not played yet
    abandoned = False
    for row in actions:
        action = backgammon.parse(state, row.notation)
        cells = games[-1].records
        after = backgammon.apply(state, action)
        if isinstance(action, Roll):
            if after.phase is Phase.OPENING:
                state = after  # a tied opening roll: .mat has no place for it
                continue
            seat = after.turn if state.phase is Phase.OPENING else state.turn
            dice = f"{action.dice[0]}{action.dice[1]}: "
            if after.passed:
                cells.append(_MatRecord("move", seat, dice + "Cannot Move"))
            else:
                pending = (seat, dice)
        elif isinstance(action, backgammon.Play):
            if pending is None:
                raise ValueError(f"action {row.seq}: a play without a roll")
            seat, dice = pending
            pending = None
            ended = after.game_number > state.game_number or after.phase is Phase.FINISHED
            cells.append(
                _MatRecord(
                    "move",
                    seat,
                    dice + _mat_steps(state.position, action.steps),
                    points=after.games[-1].points if ended else 0,
                    ends_game=ended,
                )
            )
        elif isinstance(action, backgammon.Double):
            cells.append(_MatRecord("double", state.turn, f" Doubles => {state.cube_value * 2}"))
        elif isinstance(action, backgammon.Take):
            cells.append(_MatRecord("take", state.turn, " Takes"))
        elif isinstance(action, backgammon.Drop):
            cells.append(_MatRecord("drop", state.turn, points=state.cube_value))
        elif isinstance(action, Resign | Abandon):
            if pending is not None:
                cells.append(_MatRecord("dice", *pending))
                pending = None
            if isinstance(action, Resign):
                cells.append(_MatRecord("resign", 1 - action.seat, points=after.games[-1].points))
            else:
                abandoned = True
        if after.phase is Phase.OPENING and after.game_number > state.game_number:
            games.append(_MatGame(after.game_number, after.score))
        state = after
    if pending is not None:
        games[-1].records.append(_MatRecord("dice", *pending))
    return games, abandoned, state


def _wins(points: int) -> str:
    return f"Wins {points} point{'' if points == 1 else 's'}"


class _MatLayout:
    """The two-column move list, byte for byte as gnubg's ExportGameJF lays it out.

    ``slot`` is gnubg's counter: even slots are the left column, odd the right. Records
    alternate between the players, so after the first one the parity always matches.
    """

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.slot = 0
        self.open: str | None = None  # None | "left" | "left_dice" | "right_dice"

    def _number(self) -> str:
        return f"{self.slot // 2 + 1:3d}) "

    def end_line(self) -> None:
        if self.open is not None:
            self.parts.append("\n")
            self.open = None

    def cell(self, column: int, text: str, *, dice_only: bool = False) -> None:
        if self.slot % 2 != column:
            if column == 1:  # the right player acts first: an empty left cell, as gnubg does
                self.parts.append(f"{self._number()}{'':27} ")
                self.open = "left"
            else:
                self.end_line()
            self.slot += 1
        if column == 1:
            self.parts.append(text)
            if dice_only:
                self.open = "right_dice"
            else:
                self.parts.append("\n")
                self.open = None
        elif dice_only:
            self.parts.append(f"{self._number()}{text:<3}")
            self.open = "left_dice"
        else:
            self.parts.append(f"{self._number()}{text:<27} ")
            self.open = "left"
        self.slot += 1

    def drop(self, column: int, points: int) -> None:
        gap = "\n      " if column == 1 else " " * 23
        self.cell(column, f" Drops{gap}{_wins(points)}")
        self.parts.append("\n\n" if column == 0 else "\n")
        self.open = None

    def won_by_move(self, column: int, points: int) -> None:
        self.parts.append((" " * 34 if column == 1 else "\n      ") + _wins(points) + "\n\n")
        self.open = None

    def resign(self, winner_column: int, points: int) -> None:
        # gnubg's own rule misplaces "Wins" after a roll by the other player; this one puts
        # it in the winner's column in every case, where gnubg's reader looks for it.
        if self.open == "right_dice":
            self.end_line()
        if winner_column == 0:
            self.end_line()
            self.parts.append("      ")
        elif self.open == "left":
            self.parts.append(" ")
        elif self.open == "left_dice":
            self.parts.append(" " * 24)
        else:
            self.parts.append(" " * 34)
        self.parts.append(_wins(points) + "\n\n")
        self.open = None


_MAT_NAME_JUNK = re.compile(r'[:,"\s]+')


def _mat_name(name: str, fallback: str) -> str:
    # gnubg reads a name up to the colon and treats ",<number>" as a rating: keep both out.
    return _MAT_NAME_JUNK.sub(" ", name).strip()[:31].strip() or fallback


def export_mat(game: GameRow, actions: Sequence[ActionRow]) -> str:
    """The match as a GNU Backgammon ``.mat`` file (see the module docstring)."""
    games, abandoned, final = _collect_mat(game, actions)
    first = next((r for r in games[0].records if r.kind in ("move", "dice")), None)
    left = first.column_seat if first is not None else 0
    names = _names(game, 2)
    seat_names = [_mat_name(names[0], "White"), _mat_name(names[1], "Black")]
    if seat_names[0] == seat_names[1]:
        seat_names = [f"{seat_names[0]} (white)"[:31], f"{seat_names[1]} (black)"[:31]]
    started = _utc(game.created_at)
    tags = [
        ("Site", SITE),
        ("Match ID", game.id),
        ("Player 1", seat_names[left]),
        ("Player 2", seat_names[1 - left]),
        ("EventDate", started.strftime("%Y.%m.%d")),
        ("EventTime", started.strftime("%H.%M")),
        ("Variation", "Backgammon"),
        ("Jacoby", "Off"),
    ]
    if final.match_length > 1:
        tags.append(("Crawford", "On"))
    tags.append(("CubeLimit", str(backgammon.MAX_CUBE) if final.cube_enabled else "1"))
    if abandoned:
        tags.append(("Termination", "Abandoned"))
    out = [f'; [{key} "{value}"]\n' for key, value in tags]
    out.append(f"\n {final.match_length} point match\n\n")
    for match_game in games:
        if not match_game.records and match_game.number > 1:
            continue  # the match ended before this game's first roll
        out.append(f" Game {match_game.number}\n")
        left_score = f"{seat_names[left]} : {match_game.score[left]}"
        out.append(f" {left_score:<31}{seat_names[1 - left]} : {match_game.score[1 - left]}\n")
        layout = _MatLayout()
        for record in match_game.records:
            column = 0 if record.column_seat == left else 1
            if record.kind == "drop":
                layout.drop(column, record.points)
            elif record.kind == "resign":
                layout.resign(column, record.points)
            else:
                layout.cell(column, record.text, dice_only=record.kind == "dice")
                if record.ends_game:
                    layout.won_by_move(column, record.points)
        layout.end_line()
        out.extend(layout.parts)
    return "".join(out)


_MAT_HEADER = re.compile(r"^\s*(\d+)\s+[Pp]oint\s+[Mm]atch")
_MAT_TAG = re.compile(r'^[;#]\s*\[([A-Za-z][A-Za-z0-9 ]*?)\s+"(.*)"\]\s*$')
_MAT_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$")
_MAT_SCORE = re.compile(r"^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$")
_MAT_ROLL = re.compile(r"^([1-6])([1-6]):\s*(.*)$")


def split_mat_line(line: str) -> tuple[str, str | None]:
    """The (left, right) cells of a move line, split the way gnubg's ImportGame splits it."""
    first = line.find(":")
    second = line.find(":", first + 1) if first >= 0 else -1
    left: str
    right: str | None
    if first >= 0 and second > 3:
        left, right = line[: second - 3], line[second - 2 :]
    elif len(line) > 15 and (gap := line.find("  ", 15)) >= 0:
        left, right = line[:gap], line[gap + 1 :]
    else:
        left, right = line, None
    paren = left.find(")")
    return (left[paren + 1 :] if paren >= 0 else left), right


class _MatReader:
    """Replays .mat cells through the engine, collecting engine notations."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.state = backgammon.new_game(options)
        self.actions: list[str] = []
        self.left: int | None = None  # seat of the left column, known at the first roll
        self.game_number = 0
        self.line = 0

    def fail(self, why: str) -> GameFileError:
        return GameFileError(f"line {self.line}: {why}")

    def seat(self, column: int) -> int:
        left = 0 if self.left is None else self.left
        return left if column == 0 else 1 - left

    def apply(self, action: backgammon.Action) -> None:
        try:
            text = backgammon.notation(self.state, action)
            self.state = backgammon.apply(self.state, action)
        except EngineError as error:
            raise self.fail(str(error)) from None
        self.actions.append(text)

    def start_game(self, number: int) -> None:
        self.game_number = number
        if self.state.phase is not Phase.OPENING or self.state.game_number != number:
            raise self.fail(f"game {number} does not follow the end of the previous one")

    def check_score(self, line: str) -> None:
        match = _MAT_SCORE.match(line)
        if match is None:
            raise self.fail(f"not a score line: {line.strip()!r}")
        shown = (int(match[2]), int(match[4]))
        score = self.state.score
        expected = score if self.left in (None, 0) else (score[1], score[0])
        if shown != expected:
            raise self.fail(f"the score should be {expected[0]} : {expected[1]}")

    def game_on(self) -> bool:
        return self.state.phase is not Phase.FINISHED and self.state.game_number == self.game_number

    def cell(self, column: int, text: str) -> None:
        lower = text.lower()
        rolled = _MAT_ROLL.match(text)
        if rolled is not None:
            self.roll(column, int(rolled[1]), int(rolled[2]), rolled[3].strip())
        elif lower.startswith(("double", "beaver", "raccoon")):
            self.cube(column, backgammon.Double())
        elif lower.startswith(("take", "accept")):
            self.cube(column, backgammon.Take())
        elif lower.startswith(("drop", "pass", "refuse")):
            self.cube(column, backgammon.Drop())
        elif lower.startswith("win"):
            if self.game_on():  # not after a bear-off or a drop: the loser resigned
                self.apply(Resign(1 - self.seat(column)))
        else:
            raise self.fail(f"unrecognised move {text!r}")

    def cube(self, column: int, action: backgammon.Action) -> None:
        if self.state.turn != self.seat(column) or self.state.phase is Phase.OPENING:
            what = type(action).__name__.lower()
            raise self.fail(f"{backgammon.SEATS[self.seat(column)]} cannot {what} now")
        self.apply(action)

    def roll(self, column: int, first: int, second: int, play: str) -> None:
        if self.state.phase is Phase.OPENING:
            if first == second:
                raise self.fail("an opening roll cannot be a double")
            if self.left is None:
                starter = 0 if first > second else 1
                self.left = starter if column == 0 else 1 - starter
            seat = self.seat(column)
            high, low = max(first, second), min(first, second)
            # White's die comes first in the engine's opening roll; the starter has the higher.
            self.apply(Roll((high, low) if seat == 0 else (low, high)))
        else:
            seat = self.seat(column)
            if self.state.phase is not Phase.ROLL or self.state.turn != seat:
                raise self.fail(f"{backgammon.SEATS[seat]} is not on roll")
            self.apply(Roll((first, second)))
        if play and not play.lower().startswith("cannot move"):
            rolled: backgammon.BackgammonState = self.state  # a fresh name: apply() replaced it
            if rolled.phase is not Phase.MOVE or rolled.turn != seat:
                raise self.fail(f"{play!r} cannot be played: the roll has no legal move")
            try:
                action = backgammon.parse(self.state, play)
            except EngineError as error:
                raise self.fail(str(error)) from None
            self.apply(action)


def import_mat(text: str) -> GameRecord:
    """The engine notations of a ``.mat`` file (one match), as a :class:`GameRecord`."""
    lines = text.splitlines()
    tags: dict[str, str] = {}
    length: int | None = None
    start = 0
    for index, line in enumerate(lines):
        tag = _MAT_TAG.match(line)
        if tag is not None:
            tags[tag[1]] = tag[2]
            continue
        header = _MAT_HEADER.match(line)
        if header is not None:
            length, start = int(header[1]), index + 1
            break
    if length is None:
        raise GameFileError("Not a .mat file: no 'N point match' line.")
    options: dict[str, Any] = {
        "match_length": length,
        "cube": tags.get("CubeLimit", "").strip() != "1",
    }
    reader = _MatReader(options)
    expect_score = False
    for number, line in enumerate(lines[start:], start=start + 1):
        reader.line = number
        if not line.strip():
            continue
        game = _MAT_GAME.match(line)
        if game is not None:
            reader.start_game(int(game[1]))
            expect_score = True
        elif expect_score:
            reader.check_score(line)
            expect_score = False
        else:
            left, right = split_mat_line(line)
            for column, cell in ((0, left), (1, right)):
                if cell is not None and cell.strip():
                    reader.cell(column, cell.strip())
    if tags.get("Termination", "").strip().lower() == "abandoned":
        reader.apply(Abandon())
    return GameRecord("backgammon", options, tuple(reader.actions))


# =============================================================================================
# Ur: RGN


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
    state = ur.new_game(_options(game))
    turns: list[tuple[int, list[str]]] = []
    dice: list[str] = []
    pending: tuple[int, int] | None = None  # (seat, roll) rolled but not moved

    def add(seat: int, token: str) -> None:
        if turns and turns[-1][0] == seat:
            turns[-1][1].append(token)
        else:
            turns.append((seat, [token]))

    for row in actions:
        action = ur.parse(state, row.notation)
        after = ur.apply(state, action)
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
        state = after
    if pending is not None:
        add(pending[0], f"{pending[1]}-")

    outcome = ur.outcome(state)
    names = _names(game, 2)
    tags = [
        ("Rules", "Finkel"),
        ("Light", names[0]),
        ("Dark", names[1]),
        ("StartTime", _utc(game.created_at).isoformat(timespec="seconds")),
    ]
    if game.finished_at is not None:
        tags.append(("EndTime", _utc(game.finished_at).isoformat(timespec="seconds")))
    tags += [("Site", SITE), ("GameID", game.id)]
    if outcome is not None:
        winner = "None" if outcome.winner is None else ur.SEATS[outcome.winner].capitalize()
        tags.append(("Result", winner))
    tags.append(("Termination", _termination(outcome, actions)))
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
    return GameRecord("ur", {}, tuple(out))


# =============================================================================================
# Ludo: JSON

LUDO_FORMAT: Final = "tabula-ludo"
LUDO_FORMAT_VERSION: Final = 1


def export_ludo_json(game: GameRow, actions: Sequence[ActionRow]) -> str:
    """Setup, seats, every action and the result, as indented JSON."""
    options = _options(game)
    state = ludo.new_game(options)
    logged: list[dict[str, Any]] = []
    for row in actions:
        state = ludo.apply(state, ludo.parse(state, row.notation))
        logged.append(
            {"seq": row.seq, "seat": row.seat, "kind": row.kind, "notation": row.notation}
        )
    outcome = ludo.outcome(state)
    names = _names(game, len(ludo.SEATS))
    levels = {seat.seat: seat.ai_level for seat in game.seats}
    document = {
        "format": LUDO_FORMAT,
        "version": LUDO_FORMAT_VERSION,
        "game": "ludo",
        "id": game.id,
        "site": SITE,
        "rules": "Tabula Ludo variant (four seats, two dice)",
        "options": options,
        "status": str(game.status),
        "started_at": _utc(game.created_at).isoformat(timespec="seconds"),
        "finished_at": None
        if game.finished_at is None
        else _utc(game.finished_at).isoformat(timespec="seconds"),
        "seats": [
            {"seat": i, "color": color, "name": names[i], "ai_level": levels.get(i)}
            for i, color in enumerate(ludo.SEATS)
        ],
        "actions": logged,
        "result": None
        if outcome is None
        else {
            "winner": outcome.winner,
            "ranking": [list(group) for group in outcome.ranking],
            "places": {ludo.SEATS[s]: outcome.place_of(s) for s in range(len(ludo.SEATS))},
            "reason": str(outcome.reason),
            "termination": _termination(outcome, actions),
        },
        "final_state": ludo.dump_state(state),
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def import_ludo_json(text: str) -> GameRecord:
    """The engine notations of a Ludo JSON export."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise GameFileError(f"Not JSON: {error}") from None
    if not isinstance(document, dict) or document.get("format") != LUDO_FORMAT:
        raise GameFileError("Not a Tabula Ludo export.")
    if document.get("version") != LUDO_FORMAT_VERSION:
        raise GameFileError(f"Unknown Ludo export version {document.get('version')!r}.")
    try:
        notations = tuple(str(action["notation"]) for action in document["actions"])
        options = dict(document.get("options") or {})
    except (KeyError, TypeError) as error:
        raise GameFileError(f"Malformed Ludo export: {error}") from None
    return GameRecord("ludo", options, notations)


def replay_record(record: GameRecord) -> Any:
    """The final state of an imported record (raises GameFileError if it does not replay)."""
    rules = rules_for(record.game)
    state = rules.new_game(record.options)
    for number, text in enumerate(record.actions, start=1):
        try:
            state = rules.apply(state, rules.parse(state, text))
        except EngineError as error:
            raise GameFileError(f"action {number} ({text!r}): {error}") from None
    return state
