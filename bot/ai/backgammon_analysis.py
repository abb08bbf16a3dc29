"""Backgammon analysis by bgsage: what the hints and the review compute from its equities.

:func:`hint` lists the best plays or cube actions of a position; :func:`analyse_game`
replays a record and judges every decision, every roll's luck and the winning chances
along the way (the raw material :mod:`bot.service.review` turns into a review). Both ask
bgsage through :mod:`bot.ai.bgsage_engine`.

"Millipoints" elsewhere are the equities here times 1000: normalised to a cube of 1 (money)
or bgsage's match equity (EMG) in a match.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.ai import backgammon as hard
from bot.ai.backgammon_cube import should_double, should_take
from bot.ai.bgsage_engine import (
    PLAY_LEVEL,
    CubeContext,
    CubeVerdict,
    Engine,
    Probs,
    cube_context,
    engine,
)
from bot.engines import backgammon as bg
from bot.engines.backgammon import BackgammonState, Phase, Play, Position
from bot.engines.common import Replay, Roll

__all__ = [
    "REVIEW_LEVEL",
    "CubeLines",
    "Decision",
    "GameAnalysis",
    "HintLine",
    "LuckEntry",
    "PlayLine",
    "PositionVerdict",
    "WinPoint",
    "analyse_game",
    "analyse_position",
    "hard_position",
    "hint",
    "judge_play",
]

REVIEW_LEVEL: Final = "2ply"  # a whole game in a few seconds; luck needs at least 2ply
# A double / no-double decision counts (in the PR denominator) when the player doubled or
# doubling was at most this far from not doubling: the "close" decisions.
CLOSE_CUBE: Final = 0.16


@dataclass(frozen=True, slots=True)
class HintLine:
    """One line of a hint: a play (or cube action) and what it is worth."""

    text: str
    equity: float
    loss: float  # behind the best line, >= 0
    win: float  # the deciding side's cubeless chance of winning after it


# ---------------------------------------------------------------------------------------------
# Hints


def hint(
    state: BackgammonState, level: str = PLAY_LEVEL, limit: int = 5, eng: Engine | None = None
) -> list[HintLine]:
    """The best few plays (MOVE) or the cube actions (ROLL / CUBE) for the seat on turn."""
    eng = eng or engine()
    if state.phase is Phase.MOVE:
        dice = (state.dice[0], state.dice[1])
        ranked = eng.rank_plays(state.position, dice, cube_context(state, state.turn), level)
        best = ranked[0].equity if ranked else 0.0
        return [
            HintLine(
                bg.format_play(state.position, dice, r.play),
                r.equity,
                max(0.0, best - r.equity),
                r.probs[0],
            )
            for r in ranked[:limit]
        ]
    if state.phase in (Phase.ROLL, Phase.CUBE):
        doubler = state.turn if state.phase is Phase.ROLL else 1 - state.turn
        board = bg.state_board(state, doubler)
        v = eng.cube(board, cube_context(state, doubler), level)
        if state.phase is Phase.ROLL:
            lines = [("no double", v.no_double), ("double", v.doubled)]
            win = v.probs[0]
        else:  # the taker's view: its equity is minus the doubler's
            lines = [("take", -v.double_take), ("drop", -v.double_pass)]
            win = 1.0 - v.probs[0]
        top = max(e for _, e in lines)
        return sorted((HintLine(text, e, top - e, win) for text, e in lines), key=lambda h: h.loss)
    return []


# ---------------------------------------------------------------------------------------------
# Game analysis (the raw material of a review)


@dataclass(frozen=True, slots=True)
class Decided:
    """Where a decision was taken and what was played there against the best: what a
    :class:`Decision` and a stored review's decision both hold.

    ``index`` is the position of the decision's action in the game's action log (0-based;
    the board before it is ``replay(options, actions[:index])``). ``kind``: ``"move"``,
    ``"double"`` (the double / no-double choice before a roll) or ``"take"``. ``played`` and
    ``best`` are notation (``"double"``, ``"no double"``, ``"take"``, ``"drop"`` for the
    cube); the steps draw a checker play's arrows.
    """

    index: int
    seat: int
    kind: str
    game_number: int
    position_id: str  # gnubg Position ID of the board seen by the decider, before it
    dice: tuple[int, ...]
    played: str
    best: str
    played_steps: tuple[tuple[int, int], ...] = ()
    best_steps: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision(Decided):
    """One decision of a player, judged by bgsage. ``loss`` is the equity given up, >= 0.
    ``counted``: the decision is in the PR denominator (a checker play with a choice, a close
    or wrong cube decision, every take / drop)."""

    loss: float
    counted: bool


@dataclass(frozen=True, slots=True)
class LuckEntry:
    """How much a roll gained its roller over an average roll (equity), in which game of the
    match (1 for the first)."""

    index: int
    seat: int
    dice: tuple[int, int]
    luck: float
    game_number: int = 1


@dataclass(frozen=True, slots=True)
class WinPoint:
    """White's (seat 0's) cubeless chance to win the current game, before action ``index``."""

    index: int
    game_number: int
    white_win: float


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    level: str
    decisions: tuple[Decision, ...]
    luck: tuple[LuckEntry, ...]
    series: tuple[WinPoint, ...]
    actions: int  # length of the analysed log


def analyse_game(
    options: Mapping[str, Any],
    notations: Sequence[str],
    level: str = REVIEW_LEVEL,
    eng: Engine | None = None,
) -> GameAnalysis:
    """Replay a backgammon record and judge every decision, every roll's luck and the chances.

    Deterministic: the same record gives the same numbers (bgsage's search has no randomness
    at the N-ply levels).
    """
    eng = eng or engine()
    decisions: list[Decision] = []
    lucks: list[LuckEntry] = []
    series: list[WinPoint] = []
    verdicts: dict[tuple[Position, CubeContext], CubeVerdict] = {}

    def verdict(board: Position, ctx: CubeContext) -> CubeVerdict:
        key = (board, ctx)
        found = verdicts.get(key)
        if found is None:
            found = verdicts[key] = eng.cube(board, ctx, level, details=True)
        return found

    # A stored log ends where the match does (the engine applies nothing after it).
    for index, (state, action, after) in enumerate(Replay(bg, options, notations)):
        seat = state.turn
        if state.phase is Phase.OPENING and isinstance(action, Roll):
            white, black = action.dice[0], action.dice[1]
            if white != black:
                series.append(WinPoint(index, state.game_number, 0.5))
                starter = 0 if white > black else 1
                v = verdict(state.start, cube_context(state, starter))
                luck = v.luck((white, black), opening=True)
                lucks.append(LuckEntry(index, starter, (white, black), luck, state.game_number))
        elif state.phase is Phase.ROLL and isinstance(action, Roll | bg.Double):
            ctx = cube_context(state, seat)
            v = verdict(state.position, ctx)
            series.append(WinPoint(index, state.game_number, _white(seat, v.probs[0])))
            if bg.can_double(state):
                decisions.append(_double_decision(index, state, v, isinstance(action, bg.Double)))
            if isinstance(action, Roll):
                dice = (action.dice[0], action.dice[1])
                lucks.append(LuckEntry(index, seat, dice, v.luck(dice), state.game_number))
        elif state.phase is Phase.CUBE and isinstance(action, bg.Take | bg.Drop):
            doubler = 1 - seat
            v = verdict(state.position.swapped(), cube_context(state, doubler))
            decisions.append(_take_decision(index, state, v, isinstance(action, bg.Take)))
        elif state.phase is Phase.MOVE and isinstance(action, Play):
            found = _move_decision(index, state, action, level, eng)
            if found is not None:
                decisions.append(found)
        if len(after.games) > len(state.games):  # a game just ended: its last point is certain
            final = 1.0 if after.games[-1].winner == 0 else 0.0
            series.append(WinPoint(index + 1, len(state.games) + 1, final))
    return GameAnalysis(level, tuple(decisions), tuple(lucks), tuple(series), len(notations))


def _white(seat: int, win: float) -> float:
    return win if seat == 0 else 1.0 - win


def _decision(
    index: int,
    state: BackgammonState,
    kind: str,
    played: str,
    best: str,
    loss: float,
    counted: bool,
    dice: tuple[int, ...] = (),
    played_steps: tuple[tuple[int, int], ...] = (),
    best_steps: tuple[tuple[int, int], ...] = (),
) -> Decision:
    """A decision of the seat on turn in ``state``, whose board it was taken on."""
    return Decision(
        index=index,
        seat=state.turn,
        kind=kind,
        game_number=state.game_number,
        position_id=state.position.position_id(),
        dice=dice,
        played=played,
        best=best,
        loss=max(0.0, loss),
        counted=counted,
        played_steps=played_steps,
        best_steps=best_steps,
    )


def _double_decision(index: int, state: BackgammonState, v: CubeVerdict, doubled: bool) -> Decision:
    loss = v.best - (v.doubled if doubled else v.no_double)
    close = abs(v.doubled - v.no_double) <= CLOSE_CUBE
    played = "double" if doubled else "no double"
    best = "double" if v.doubled > v.no_double else "no double"
    return _decision(index, state, "double", played, best, loss, doubled or close or loss > 0.0005)


def _take_decision(index: int, state: BackgammonState, v: CubeVerdict, took: bool) -> Decision:
    # The taker minimises the doubler's equity.
    loss = (v.double_take if took else v.double_pass) - v.doubled
    best = "take" if v.double_take <= v.double_pass else "drop"
    return _decision(index, state, "take", "take" if took else "drop", best, loss, True)


def judge_play(
    state: BackgammonState, action: Play, level: str = REVIEW_LEVEL, eng: Engine | None = None
) -> Decision | None:
    """The checker play ``action`` in ``state`` judged as the review judges it (tutor mode asks
    before it is stored); ``None`` for a forced play."""
    return _move_decision(0, state, action, level, eng or engine())


def _move_decision(
    index: int, state: BackgammonState, action: Play, level: str, eng: Engine
) -> Decision | None:
    dice = (state.dice[0], state.dice[1])
    plays = bg.legal_plays(state.position, dice)
    if len(plays) < 2:
        return None  # forced: not a decision
    played = next(p for p in plays if p.result == action.result)
    ranked = eng.rank_plays(state.position, dice, cube_context(state, state.turn), level, [played])
    best = ranked[0]
    mine = next(r for r in ranked if r.play.result == played.result)
    return _decision(
        index,
        state,
        "move",
        bg.format_play(state.position, dice, played),
        bg.format_play(state.position, dice, best.play),
        best.equity - mine.equity,
        True,
        dice,
        played.steps,
        best.play.steps,
    )


# ---------------------------------------------------------------------------------------------
# One position (/analyze, puzzles)


@dataclass(frozen=True, slots=True)
class PlayLine:
    """A ranked play: its notation, the mover's equity after it, what it gives up against the
    best (>= 0), and the mover's cubeless chances after it."""

    text: str
    equity: float
    loss: float
    probs: Probs
    steps: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class CubeLines:
    """The cube decision of the side on roll (the doubler); equities from its side, ``None``
    where the level gives only the verdict."""

    no_double: float | None
    double_take: float | None
    double_pass: float | None
    should_double: bool
    should_take: bool


@dataclass(frozen=True, slots=True)
class PositionVerdict:
    """What a level says of one position: the best plays with dice (``plays``), else the cube
    decision (``cube``; ``None`` where the cube cannot be turned). ``probs``: the chances of
    the side on roll before its roll, or after the best play."""

    level: str
    plays: tuple[PlayLine, ...]
    cube: CubeLines | None
    probs: Probs
    legal: int = 0


def analyse_position(
    state: BackgammonState, level: str = PLAY_LEVEL, limit: int = 5, eng: Engine | None = None
) -> PositionVerdict:
    """The expert's verdict on the decision in ``state`` (MOVE: plays; ROLL / CUBE: the cube)."""
    eng = eng or engine()
    if state.phase is Phase.MOVE:
        dice = (state.dice[0], state.dice[1])
        ranked = eng.rank_plays(state.position, dice, cube_context(state, state.turn), level)
        if len(ranked) == 1:  # forced: rank_plays does not search it, so search it here
            ranked = eng.rank_plays(
                state.position, dice, cube_context(state, state.turn), level, [ranked[0].play]
            )
        best = ranked[0].equity if ranked else 0.0
        # Only plays searched at the full depth are shown: a 1-ply value is not comparable.
        shown = [r for r in ranked if r.deep] or ranked[:1]
        lines = tuple(
            PlayLine(
                bg.format_play(state.position, dice, r.play),
                r.equity,
                max(0.0, best - r.equity),
                r.probs,
                r.play.steps,
            )
            for r in shown[:limit]
        )
        probs = ranked[0].probs if ranked else _NO_PROBS
        return PositionVerdict(level, lines, None, probs, len(ranked))
    doubler = state.on_roll
    board = bg.state_board(state, doubler)
    v = eng.cube(board, cube_context(state, doubler), level)
    cube = CubeLines(
        v.no_double,
        v.double_take,
        v.double_pass,
        v.should_double,
        v.double_take <= v.double_pass,
    )
    return PositionVerdict(level, (), cube if _cube_turnable(state) else None, v.probs)


_NO_PROBS: Probs = (0.0, 0.0, 0.0, 0.0, 0.0)


def _cube_turnable(state: BackgammonState) -> bool:
    if state.phase is Phase.CUBE:
        return True
    return bg.can_double(state) or (
        state.phase is Phase.OPENING and state.cube_enabled and not state.crawford
    )


def hard_position(state: BackgammonState, limit: int = 5) -> PositionVerdict:
    """The ``hard`` level's verdict, where the expert engine is not installed: plays ranked by
    its search (equities cubeless, from its own winning and gammon estimates)."""
    if state.phase is Phase.MOVE:
        dice = (state.dice[0], state.dice[1])
        values = hard.play_values(state.position, dice)
        lines: list[PlayLine] = []
        for play, _, two_ply in values:
            # the mover's, after
            after = hard.chances(play.result.swapped(), state.checkers).flipped()
            win = two_ply if two_ply >= 0.0 else after.win
            if not any(play.result.mine):
                win = 1.0
            probs: Probs = (win, after.win_gammon, 0.0, after.lose_gammon, 0.0)
            equity = 2.0 * win - 1.0 + after.win_gammon - after.lose_gammon
            lines.append(
                PlayLine(bg.format_play(state.position, dice, play), equity, 0.0, probs, play.steps)
            )
        best = lines[0].equity if lines else 0.0
        ranked = tuple(
            PlayLine(line.text, line.equity, max(0.0, best - line.equity), line.probs, line.steps)
            for line in lines[:limit]
        )
        return PositionVerdict(
            "hard", ranked, None, ranked[0].probs if ranked else _NO_PROBS, len(lines)
        )
    doubler = state.on_roll
    board = bg.state_board(state, doubler)
    chances = hard.chances(board, state.checkers)
    situation = hard.cube_situation(state, doubler)
    cube = CubeLines(
        None, None, None, should_double(chances, situation), should_take(chances, situation)
    )
    probs = (chances.win, chances.win_gammon, 0.0, chances.lose_gammon, 0.0)
    return PositionVerdict("hard", (), cube if _cube_turnable(state) else None, probs)
