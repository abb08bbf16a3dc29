"""Backgammon games as GNU Backgammon ``.mat`` files, and their reader.

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
* A game played from another starting position is written with gnubg's name for it in the
  ``Variation`` tag (gnubg reads the tag to set up each game); :func:`mat_file` makes the
  writer and reader of such a variant, and each reader refuses a file of another variant.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engines import backgammon
from bot.engines.backgammon import BackgammonState, Decision, Phase
from bot.engines.common import Abandon, EngineError, GameRecord, Replay, Resign, Roll, Rules
from bot.games.files import SITE, GameFile, GameFileError, options_of, seat_names, utc
from bot.storage import ActionRow, GameRow


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


BackgammonRules = Rules[BackgammonState, Decision]
"""The rules of backgammon or of a variant of it played from another starting position."""

STANDARD = "Backgammon"  # the Variation tag of standard backgammon, as gnubg writes it


def _collect_mat(
    game: GameRow, actions: Sequence[ActionRow], rules: BackgammonRules = backgammon
) -> tuple[list[_MatGame], bool, backgammon.BackgammonState]:
    """The games of the match as .mat cells, whether it was abandoned, and the final state."""
    steps = Replay(rules, options_of(game), [row.notation for row in actions])
    games = [_MatGame(1, (0, 0))]
    pending: tuple[int, str] | None = None  # (seat, "DD: ") rolled but not played yet
    abandoned = False
    for (state, action, after), row in zip(steps, actions, strict=True):
        cells = games[-1].records
        if isinstance(action, Roll):
            if after.phase is Phase.OPENING:
                continue  # a tied opening roll: .mat has no place for it
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
    if pending is not None:
        games[-1].records.append(_MatRecord("dice", *pending))
    final: backgammon.BackgammonState = steps.state
    return games, abandoned, final


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


def export_mat(
    game: GameRow,
    actions: Sequence[ActionRow],
    rules: BackgammonRules = backgammon,
    variation: str = STANDARD,
) -> str:
    """The match as a GNU Backgammon ``.mat`` file (see the module docstring), played by
    ``rules`` and tagged as gnubg's ``variation``."""
    games, abandoned, final = _collect_mat(game, actions, rules)
    first = next((r for r in games[0].records if r.kind in ("move", "dice")), None)
    left = first.column_seat if first is not None else 0
    names = seat_names(game, 2)
    mat_names = [_mat_name(names[0], "White"), _mat_name(names[1], "Black")]
    if mat_names[0] == mat_names[1]:
        mat_names = [f"{mat_names[0]} (white)"[:31], f"{mat_names[1]} (black)"[:31]]
    started = utc(game.created_at)
    tags = [
        ("Site", SITE),
        ("Match ID", game.id),
        ("Player 1", mat_names[left]),
        ("Player 2", mat_names[1 - left]),
        ("EventDate", started.strftime("%Y.%m.%d")),
        ("EventTime", started.strftime("%H.%M")),
        ("Variation", variation),
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
        left_score = f"{mat_names[left]} : {match_game.score[left]}"
        out.append(f" {left_score:<31}{mat_names[1 - left]} : {match_game.score[1 - left]}\n")
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
# A roll that cannot be played, as gnubg ("Cannot Move", or nothing), XG and others write it.
_NO_MOVE = re.compile(r"^\(?\s*(cannot move|can't move|no move|no legal move|no play)", re.I)


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


class MatReader:
    """Replays .mat cells through the engine, collecting engine notations."""

    def __init__(self, options: Mapping[str, Any], rules: BackgammonRules) -> None:
        self.state = rules.new_game(options)
        self.actions: list[str] = []
        self.left: int | None = None  # seat of the left column, known at the first roll
        self.game_number = 0
        self.line = 0
        self.names: tuple[str, str] | None = None  # (left, right) as game 1's score line has them

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
        if self.names is None:
            self.names = (match[1], match[3])
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
        if play and _NO_MOVE.match(play) is None:
            rolled: backgammon.BackgammonState = self.state  # a fresh name: apply() replaced it
            if rolled.phase is not Phase.MOVE or rolled.turn != seat:
                raise self.fail(f"{play!r} cannot be played: the roll has no legal move")
            try:
                action = backgammon.parse(self.state, play)
            except EngineError as error:
                raise self.fail(str(error)) from None
            self.apply(action)


def import_mat(
    text: str, rules: BackgammonRules = backgammon, variation: str = STANDARD
) -> GameRecord:
    """The engine notations of a ``.mat`` file (one match) of gnubg's ``variation`` (a file
    without the tag is standard backgammon), as a :class:`GameRecord` of ``rules``' game."""
    return read_mat(text, rules, variation)[0]


def read_mat(
    text: str, rules: BackgammonRules = backgammon, variation: str = STANDARD
) -> tuple[GameRecord, tuple[str, str], int]:
    """The match of a ``.mat`` file (as :func:`import_mat` reads it), its players' names by
    seat (white's first), as game 1's score line gives them, and the seat of the left column
    (the player named first)."""
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
    written = tags.get("Variation", STANDARD).strip()
    if written.casefold() not in {variation.casefold(), *_STANDARD_NAMES[variation.casefold()]}:
        raise GameFileError(f"A match of {written}, not of {variation}.")
    options: dict[str, Any] = {
        "match_length": length,
        "cube": tags.get("CubeLimit", "").strip() != "1",
    }
    reader = MatReader(options, rules)
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
    left, right = reader.names or ("", "")
    names = (left, right) if reader.left in (None, 0) else (right, left)
    record = GameRecord(rules.GAME, options, tuple(reader.actions))
    return record, names, reader.left or 0


# Other names gnubg and older files give standard backgammon's Variation tag.
_STANDARD_NAMES: defaultdict[str, tuple[str, ...]] = defaultdict(
    tuple, {STANDARD.casefold(): ("standard", "standard backgammon")}
)


def mat_file(rules: BackgammonRules, variation: str) -> GameFile:
    """The ``.mat`` writer and reader of a game played by ``rules`` (backgammon's, from the
    starting position its ``new_game`` sets up), tagged as gnubg's ``variation``, under the
    extension ``.<game>.mat`` (every game's files have an extension of their own; gnubg
    opens it as the ``.mat`` it is)."""

    def write(game: GameRow, actions: Sequence[ActionRow]) -> str:
        return export_mat(game, actions, rules, variation)

    def read(text: str) -> GameRecord:
        return import_mat(text, rules, variation)

    return GameFile(f".{rules.GAME}.mat", write, read)
