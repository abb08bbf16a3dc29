"""Backgammon: a whole match (or money game) as one frozen state, with the doubling cube.

Seats: ``white`` = seat 0 = gnubg's player 0, ``black`` = seat 1. ``state.position`` is the
board seen by ``state.turn`` (gnubg style: ``mine`` = the seat that must act now). In the
CUBE phase that is the seat deciding on the double, not the doubler who is on roll; use
:func:`state_board` for any fixed seat. Steps and play notation are in the mover's numbering.

Flow of one game: OPENING (each side rolls one die: ``Roll((white_die, black_die))``; a tie
rolls again) -> MOVE for the higher die, playing both numbers -> then ROLL / MOVE alternate;
in ROLL the seat on turn may ``Double`` first (CUBE phase: the other seat must ``Take`` or
``Drop``). A roll with no legal play passes the turn inside ``apply(Roll)`` (``passed``).
When a game ends and the match is not over, the score is updated, the game is recorded in
``games`` and the next game starts in OPENING with the cube centred, from the match's
starting position (``state.start``: the standard one, or the one given as the ``start``
option, a GNU Position ID, which a variant played from another set-up names).

Rules: standard rules and ../shared/rules/RULINGS.md. Matches use the Crawford rule (no
doubling in the first game after a player reaches ``match_length - 1``); no automatic
doubles, no Jacoby rule, cube at most 64. ``match_length`` 1 (default) is a single game,
0 a money game (also one game: the state holds one game's worth of points). ``Resign(seat)``
ends the game for the opponent (single x cube, or the gammon / backgammon already locked in)
and, in a match, gives up the whole match. ``Abandon()`` ends with no winner (points 0,
kind ``"abandon"``). Dice keep the order rolled (the opening: white's die, black's die).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.engines import backgammon_ids as ids
from bot.engines import common
from bot.engines.backgammon_ids import decode_match_id
from bot.engines.backgammon_notation import format_play, parse_play, read_segments
from bot.engines.backgammon_position import (
    BAR,
    CHECKERS,
    OFF,
    Play,
    Position,
    Step,
    hits_of,
    legal_plays,
    legal_steps,
    play_for_steps,
    win_kind,
)
from bot.engines.common import Abandon, EndReason, NotationError, Outcome, Resign, Roll

__all__ = [
    "BAR",
    "CHECKERS",
    "GAME",
    "MAX_CUBE",
    "OFF",
    "SEATS",
    "START",
    "Abandon",
    "Action",
    "BackgammonState",
    "Double",
    "Drop",
    "GameResult",
    "LastPlay",
    "NotationError",
    "Phase",
    "Play",
    "Position",
    "Resign",
    "Roll",
    "Step",
    "Take",
    "apply",
    "can_double",
    "decode_match_id",
    "dump_state",
    "format_play",
    "gnubg_id",
    "legal_actions",
    "legal_plays",
    "legal_plays_for",
    "legal_steps",
    "load_state",
    "match_id",
    "match_over",
    "new_game",
    "notation",
    "outcome",
    "parse",
    "parse_play",
    "play_for_steps",
    "roll",
    "state_board",
    "win_kind",
]

GAME = "backgammon"
SEATS: tuple[str, ...] = ("white", "black")
MAX_CUBE = 64
START = Position.initial()
"""The standard starting position, every game's unless the ``start`` option names another."""


class Phase(enum.StrEnum):
    """Backgammon's phases: the shared ones (:class:`bot.engines.common.Phase`'s values) and
    two of its own, which its manifest handles for the service (the opening roll is rolled
    by the table, for nobody) and its menu offers buttons for (Take and Drop)."""

    OPENING = "opening"  # each side rolls one die to decide who starts
    ROLL = "roll"  # the seat on turn must roll, or offer a double first
    MOVE = "move"
    CUBE = "cube"  # a double was offered: the seat on turn takes or drops
    FINISHED = "finished"


# ---------------------------------------------------------------------------------------------
# Actions (Roll, Resign, Abandon come from common; Play from backgammon_position)


@dataclass(frozen=True, slots=True)
class Double:
    """The seat on roll turns the cube before rolling."""

    def notation(self) -> str:
        return "double"


@dataclass(frozen=True, slots=True)
class Take:
    """The doubled seat accepts: the cube doubles and is theirs."""

    def notation(self) -> str:
        return "take"


@dataclass(frozen=True, slots=True)
class Drop:
    """The doubled seat refuses and loses the game at the cube's current value."""

    def notation(self) -> str:
        return "drop"


Decision = Double | Take | Drop | Play
"""What a seat decides, besides the actions every game shares."""
Action = Roll | Decision | Resign | Abandon


# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game of the match. ``points`` = value of ``kind`` times ``cube``."""

    winner: int
    points: int
    kind: str  # "single", "gammon" or "backgammon"
    cube: int
    reason: EndReason = EndReason.NORMAL


@dataclass(frozen=True, slots=True)
class LastPlay:
    """The latest checker play, for renderers: steps in the mover's numbering."""

    seat: int
    steps: tuple[Step, ...]
    hits: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class BackgammonState:
    """A whole match. See the module docstring for the meaning of each phase."""

    position: Position  # seen by ``turn``
    phase: Phase
    turn: int
    dice: tuple[int, ...] = ()  # the roll to play (MOVE phase only)
    cube_enabled: bool = True
    cube_value: int = 1
    cube_owner: int | None = None  # None = centred
    match_length: int = 1  # 1 = single game, 0 = money game
    score: tuple[int, int] = (0, 0)
    crawford: bool = False  # this game is the Crawford game
    post_crawford: bool = False
    game_number: int = 1
    games: tuple[GameResult, ...] = ()
    last_play: LastPlay | None = None
    last_roll: tuple[int, ...] = ()  # latest roll, for display (opening: white's, black's)
    passed: bool = False  # the latest roll could not be played; its seat is 1 - turn
    outcome: Outcome | None = None
    start: Position = START  # where each game of the match starts (the same for both sides)

    @property
    def checkers(self) -> int:
        """Each side's checkers in this match: those of its starting position."""
        return sum(self.start.mine)

    @property
    def on_roll(self) -> int:
        """The seat whose roll it is (gnubg's ``fMove``): the doubler while a double is open."""
        return 1 - self.turn if self.phase is Phase.CUBE else self.turn


# ---------------------------------------------------------------------------------------------
# The engine contract


def new_game(options: Mapping[str, Any] | None = None) -> BackgammonState:
    """Options: ``cube`` (bool, default True), ``match_length`` (int >= 0, default 1),
    ``start`` (the GNU Position ID every game of the match starts from, the same for both
    sides; default the standard position)."""
    opts = dict(options or {})
    unknown = set(opts) - {"cube", "match_length", "start"}
    if unknown:
        raise ValueError(f"unknown backgammon options: {', '.join(sorted(unknown))}")
    cube = opts.get("cube", True)
    length = opts.get("match_length", 1)
    if not isinstance(cube, bool):
        raise ValueError("option cube must be true or false")
    if type(length) is not int or not 0 <= length <= 32767:
        raise ValueError("option match_length must be a whole number from 0 to 32767")
    start = _start_option(opts.get("start"))
    return BackgammonState(
        position=start,
        phase=Phase.OPENING,
        turn=0,
        cube_enabled=cube,
        match_length=length,
        start=start,
    )


def _start_option(value: object) -> Position:
    """The starting position the ``start`` option names (a GNU Position ID of a position in
    which both sides stand alike, all their checkers on the board, none on the bar: 15, or
    fewer for a variant played with fewer)."""
    if value is None:
        return START
    if not isinstance(value, str):
        raise ValueError("option start must be a GNU Position ID")
    try:
        position = Position.from_position_id(value).checked()
    except (ValueError, common.InvalidPosition) as error:
        raise ValueError(f"option start is not a position: {error}") from None
    if position.mine != position.theirs or position.mine[BAR - 1] or not any(position.mine):
        raise ValueError(
            "option start must give both sides the same 15 checkers or fewer on the board"
        )
    return position


def match_over(state: BackgammonState) -> bool:
    """Whether ``state`` ends a whole match (of more than one game) rather than one game of
    it: the rule every result, in words and in pictures, follows before it names the match.
    The board of one finished game inside a match (:func:`finished_game`) is FINISHED too,
    but neither player has reached the length and nobody gave up."""
    outcome = state.outcome
    if state.match_length <= 1 or outcome is None or outcome.winner is None:
        return False
    return state.score[outcome.winner] >= state.match_length or outcome.reason in GAVE_UP


def can_double(state: BackgammonState) -> bool:
    """Whether the seat on turn may offer a double now."""
    return (
        state.phase is Phase.ROLL
        and state.cube_enabled
        and not state.crawford
        and state.cube_value < MAX_CUBE
        and state.cube_owner in (None, state.turn)
    )


def legal_actions(state: BackgammonState) -> list[Decision]:
    """ROLL: ``[Double()]`` when allowed (rolling is implicit); MOVE: the plays; CUBE: take/drop."""
    if state.phase is Phase.ROLL:
        return [Double()] if can_double(state) else []
    if state.phase is Phase.MOVE:
        return list(legal_plays_for(state))
    if state.phase is Phase.CUBE:
        return [Take(), Drop()]
    return []


def legal_plays_for(state: BackgammonState) -> list[Play]:
    """The plays of the MOVE phase (empty in any other phase)."""
    if state.phase is not Phase.MOVE:
        return []
    return legal_plays(state.position, (state.dice[0], state.dice[1]))


def state_board(state: BackgammonState, seat: int) -> Position:
    """The board as ``seat`` sees it (``mine`` = ``seat``'s checkers)."""
    return state.position if seat == state.turn else state.position.swapped()


def roll(state: BackgammonState, rng: random.Random) -> Roll:
    """The next roll: one die per side in OPENING (white's first), two dice in ROLL."""
    if state.phase not in (Phase.OPENING, Phase.ROLL):
        raise common.WrongPhase("Nobody can roll now.")
    return Roll(common.roll_d6(rng, 2))


def outcome(state: BackgammonState) -> Outcome | None:
    return state.outcome


def finished_game(state: BackgammonState, action: Action) -> BackgammonState | None:
    """The board at the end of the game of a match that ``action`` ends, or None when it ends
    no game or the whole match.

    Inside a match ``apply`` goes straight on to the next game's opening, which leaves no
    state to show the finished game and its result on; this is that state: the final
    position, phase FINISHED, the outcome of that one game, and the match score after it.
    """
    after = apply(state, action)
    if after.phase is Phase.FINISHED or after.game_number == state.game_number:
        return None
    ended = apply(replace(state, match_length=1), action)
    return replace(ended, match_length=state.match_length)


def apply(state: BackgammonState, action: Action) -> BackgammonState:
    """The state after ``action``; raises :class:`IllegalMove` / :class:`WrongPhase`."""
    if state.phase is Phase.FINISHED:
        raise common.WrongPhase("The match is over.")
    if isinstance(action, Resign):
        return _resign(state, action.seat, action.reason)
    if isinstance(action, Abandon):
        return replace(
            state,
            phase=Phase.FINISHED,
            dice=(),
            passed=False,
            outcome=Outcome(None, ((0, 1),), EndReason.ABANDON, points=0, kind="abandon"),
        )
    if isinstance(action, Roll):
        return _roll(state, action)
    if isinstance(action, Double):
        return _double(state)
    if isinstance(action, Take | Drop):
        if state.phase is not Phase.CUBE:
            raise common.WrongPhase("No double has been offered.")
        if isinstance(action, Drop):
            return _end_game(state, 1 - state.turn, state.cube_value, "single", EndReason.DROP)
        return replace(
            state,
            phase=Phase.ROLL,
            turn=1 - state.turn,
            position=state.position.swapped(),
            cube_value=state.cube_value * 2,
            cube_owner=state.turn,
            passed=False,
        )
    if isinstance(action, Play):
        return _play(state, action)
    raise common.IllegalMove(f"{action!r} is not a backgammon action.")


def _check_roll(dice: tuple[int, ...]) -> tuple[int, int]:
    if len(dice) != 2 or not all(type(d) is int and 1 <= d <= 6 for d in dice):
        raise common.IllegalMove("A backgammon roll is two dice from 1 to 6.")
    return dice[0], dice[1]


def _roll(state: BackgammonState, action: Roll) -> BackgammonState:
    dice = _check_roll(action.dice)
    if state.phase is Phase.OPENING:
        white, black = dice
        if white == black:
            return replace(state, last_roll=dice, passed=False)
        starter = 0 if white > black else 1
        return _start_move(state, starter, state.start, dice)
    if state.phase is not Phase.ROLL:
        raise common.WrongPhase(
            "You cannot roll now: first move."
            if state.phase is Phase.MOVE
            else "You cannot roll now: take or drop the double first."
        )
    return _start_move(state, state.turn, state.position, dice)


def _start_move(
    state: BackgammonState, seat: int, position: Position, dice: tuple[int, int]
) -> BackgammonState:
    if legal_plays(position, dice):
        return replace(
            state,
            phase=Phase.MOVE,
            turn=seat,
            position=position,
            dice=dice,
            last_roll=dice,
            passed=False,
        )
    return replace(
        state,
        phase=Phase.ROLL,
        turn=1 - seat,
        position=position.swapped(),
        dice=(),
        last_roll=dice,
        passed=True,
    )


def _double(state: BackgammonState) -> BackgammonState:
    if state.phase is not Phase.ROLL:
        raise common.WrongPhase("You can only double before you roll.")
    if not state.cube_enabled:
        raise common.IllegalMove("The cube is not used in this game.")
    if state.crawford:
        raise common.IllegalMove("Nobody may double in the Crawford game.")
    if state.cube_owner not in (None, state.turn):
        raise common.IllegalMove("Your opponent owns the cube.")
    if state.cube_value >= MAX_CUBE:
        raise common.IllegalMove(f"The cube is already at {MAX_CUBE}, its highest value.")
    return replace(
        state,
        phase=Phase.CUBE,
        turn=1 - state.turn,
        position=state.position.swapped(),
        passed=False,
    )


def _play(state: BackgammonState, play: Play) -> BackgammonState:
    if state.phase is not Phase.MOVE:
        raise common.WrongPhase(
            "Roll the dice first." if state.phase is Phase.ROLL else "You cannot move now."
        )
    plays = legal_plays_for(state)
    chosen = next((p for p in plays if p.result == play.result), None)
    if chosen is None:
        raise common.IllegalMove(f"That play is not legal with {state.dice[0]}-{state.dice[1]}.")
    last = LastPlay(state.turn, chosen.steps, hits_of(state.position, chosen.steps))
    if not any(chosen.result.mine):
        points, kind = win_kind(chosen.result, state.checkers)
        done = replace(state, position=chosen.result, last_play=last)
        return _end_game(done, state.turn, points * state.cube_value, kind, EndReason.NORMAL)
    return replace(
        state,
        phase=Phase.ROLL,
        turn=1 - state.turn,
        position=chosen.result.swapped(),
        dice=(),
        last_play=last,
        passed=False,
    )


def _resign(
    state: BackgammonState, seat: int, reason: EndReason = EndReason.RESIGN
) -> BackgammonState:
    if seat not in (0, 1):
        raise common.IllegalMove(f"There is no seat {seat}.")
    board = state_board(state, seat)
    mine_off, theirs_off = board.borne_off(state.checkers)
    kind, value = "single", 1
    # A gammon already locked in cannot be escaped by resigning.
    if mine_off == 0 and theirs_off > 0:
        kind, value = "gammon", 2
        if board.mine[BAR - 1] or any(board.mine[18:24]):
            kind, value = "backgammon", 3
    return _end_game(state, 1 - seat, value * state.cube_value, kind, reason)


# How a game ends that gives up the whole match (the bot's /resign means "I give up"; a
# player out of time loses the match on the clock).
GAVE_UP = (EndReason.RESIGN, EndReason.TIMEOUT)


def _end_game(
    state: BackgammonState, winner: int, points: int, kind: str, reason: EndReason
) -> BackgammonState:
    result = GameResult(winner, points, kind, state.cube_value, reason)
    score = list(state.score)
    score[winner] += points
    new_score = (score[0], score[1])
    games = (*state.games, result)
    length = state.match_length
    # In a match, resigning gives up the whole match (the bot's /resign means "I give up").
    if length <= 1 or new_score[winner] >= length or reason in GAVE_UP:
        return replace(
            state,
            phase=Phase.FINISHED,
            dice=(),
            score=new_score,
            games=games,
            passed=False,
            outcome=Outcome(winner, ((winner,), (1 - winner,)), reason, points, kind),
        )
    crawford = not state.crawford and not state.post_crawford and new_score[winner] == length - 1
    return BackgammonState(
        position=state.start,
        phase=Phase.OPENING,
        turn=0,
        cube_enabled=state.cube_enabled,
        match_length=length,
        score=new_score,
        crawford=crawford,
        post_crawford=state.post_crawford or state.crawford,
        game_number=state.game_number + 1,
        games=games,
        start=state.start,
    )


# ---------------------------------------------------------------------------------------------
# Notation


def notation(state: BackgammonState, action: Action) -> str:
    """One line of text for ``action`` in ``state``; plays in gnubg style, mover's numbering."""
    if isinstance(action, Play):
        if state.phase is not Phase.MOVE:
            raise common.WrongPhase("There is no roll to play.")
        return format_play(state.position, (state.dice[0], state.dice[1]), action)
    return action.notation()


_WORDS: dict[str, Action] = {
    "double": Double(),
    "take": Take(),
    "accept": Take(),
    "drop": Drop(),
    "pass": Drop(),
    "refuse": Drop(),
}


def parse(state: BackgammonState, text: str) -> Action:
    """The action ``text`` names (inverse of :func:`notation`; plain step lists also work)."""
    shared = common.parse_common(text)
    if shared is not None:
        return shared
    word = text.strip().lower()
    if word in _WORDS:
        return _WORDS[word]
    if state.phase is not Phase.MOVE:
        read_segments(text)  # a malformed play reads as a NotationError in any phase
        raise common.WrongPhase(
            "You cannot move now: roll first."
            if state.phase is Phase.ROLL
            else "You cannot move now."
        )
    return parse_play(state.position, (state.dice[0], state.dice[1]), text)


# ---------------------------------------------------------------------------------------------
# gnubg IDs


def match_id(state: BackgammonState) -> str:
    """GNU Backgammon's Match ID of ``state`` (white = player 0; no Jacoby rule).

    OPENING maps to gnubg's "no game started"; a finished match to "game over", "resigned"
    or "dropped" by how its last game ended. Resignations here are immediate, so the
    resignation-offer field is always 0.
    """
    if state.phase is Phase.OPENING:
        game_state = ids.GAME_NONE
    elif state.phase is Phase.FINISHED:
        reason = state.outcome.reason if state.outcome else EndReason.NORMAL
        game_state = {
            EndReason.RESIGN: ids.GAME_RESIGNED,
            EndReason.TIMEOUT: ids.GAME_RESIGNED,
            EndReason.DROP: ids.GAME_DROP,
        }.get(reason, ids.GAME_OVER)
    else:
        game_state = ids.GAME_PLAYING
    dice: tuple[int, int] | tuple[()] = (
        (state.dice[0], state.dice[1]) if state.phase is Phase.MOVE else ()
    )
    return ids.encode_match_id(
        cube_value=state.cube_value,
        cube_owner=state.cube_owner,
        on_roll=state.on_roll,
        crawford=state.crawford,
        game_state=game_state,
        turn=state.turn,
        double_offered=state.phase is Phase.CUBE,
        resignation=0,
        dice=dice,
        match_length=state.match_length,
        score=(min(state.score[0], 32767), min(state.score[1], 32767)),
    )


def gnubg_id(state: BackgammonState) -> str:
    """``PositionID:MatchID`` as gnubg shows it; the position from the seat on roll."""
    return f"{state_board(state, state.on_roll).position_id()}:{match_id(state)}"


# ---------------------------------------------------------------------------------------------
# Storage


def dump_state(state: BackgammonState) -> dict[str, Any]:
    """A JSON-safe dict; :func:`load_state` gives back an equal state (the starting position
    only where it is not the standard one, as its GNU Position ID)."""
    start = {} if state.start == START else {"start": state.start.position_id()}
    return start | {
        "mine": list(state.position.mine),
        "theirs": list(state.position.theirs),
        "phase": state.phase.value,
        "turn": state.turn,
        "dice": list(state.dice),
        "cube_enabled": state.cube_enabled,
        "cube_value": state.cube_value,
        "cube_owner": state.cube_owner,
        "match_length": state.match_length,
        "score": list(state.score),
        "crawford": state.crawford,
        "post_crawford": state.post_crawford,
        "game_number": state.game_number,
        "games": [
            {
                "winner": g.winner,
                "points": g.points,
                "kind": g.kind,
                "cube": g.cube,
                "reason": g.reason.value,
            }
            for g in state.games
        ],
        "last_play": None
        if state.last_play is None
        else {
            "seat": state.last_play.seat,
            "steps": [list(step) for step in state.last_play.steps],
            "hits": list(state.last_play.hits),
        },
        "last_roll": list(state.last_roll),
        "passed": state.passed,
        "outcome": common.dump_outcome(state.outcome),
    }


def load_state(data: Mapping[str, Any]) -> BackgammonState:
    """The state :func:`dump_state` wrote; raises :class:`InvalidPosition` on bad data."""
    try:
        last = data["last_play"]
        out = data["outcome"]
        owner = data["cube_owner"]
        return BackgammonState(
            position=Position(tuple(data["mine"]), tuple(data["theirs"])).checked(),
            phase=Phase(data["phase"]),
            turn=int(data["turn"]),
            dice=tuple(int(d) for d in data["dice"]),
            cube_enabled=bool(data["cube_enabled"]),
            cube_value=int(data["cube_value"]),
            cube_owner=None if owner is None else int(owner),
            match_length=int(data["match_length"]),
            score=(int(data["score"][0]), int(data["score"][1])),
            crawford=bool(data["crawford"]),
            post_crawford=bool(data["post_crawford"]),
            game_number=int(data["game_number"]),
            games=tuple(
                GameResult(
                    int(g["winner"]),
                    int(g["points"]),
                    str(g["kind"]),
                    int(g["cube"]),
                    EndReason(g["reason"]),
                )
                for g in data["games"]
            ),
            last_play=None
            if last is None
            else LastPlay(
                int(last["seat"]),
                tuple((int(a), int(b)) for a, b in last["steps"]),
                tuple(bool(h) for h in last["hits"]),
            ),
            last_roll=tuple(int(d) for d in data["last_roll"]),
            passed=bool(data["passed"]),
            outcome=common.load_outcome(out),
            start=_start_option(data.get("start")),
        )
    except (KeyError, TypeError, ValueError, IndexError) as error:
        if isinstance(error, common.InvalidPosition):
            raise
        raise common.InvalidPosition(f"Not a saved backgammon state: {error}") from error
