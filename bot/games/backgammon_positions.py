"""Backgammon positions as text: ``/analyze`` reads a GNU Backgammon ID or an XGID and words
the expert's verdict; Share position prints a board's IDs."""

from __future__ import annotations

import asyncio

from bot.ai.backgammon_analysis import CubeLines, PositionVerdict, hard_position
from bot.ai.bgsage_engine import ExpertUnavailable, Probs
from bot.ai.pool import ExpertPool
from bot.engines import backgammon as bg
from bot.engines.backgammon import BackgammonState, Phase
from bot.engines.backgammon_setup import ids_of, parse_position
from bot.engines.backgammon_xgid import BadId
from bot.games.spec import PositionTools
from bot.i18n import tr
from bot.vocabulary.errors import TabulaError, msg
from bot.vocabulary.markup import escape_markdown

ANALYSIS_LINES = 5


def read(text: str) -> BackgammonState:
    try:
        return parse_position(text)
    except BadId as error:
        raise TabulaError("analyze.bad_id", reason=msg(error.key, **error.params)) from None


async def verdict(state: BackgammonState, expert: ExpertPool | None) -> PositionVerdict:
    """The expert's verdict, or hard's where the expert engine does not run here."""
    if expert is not None and expert.available:
        try:
            return await expert.position(state)
        except (ExpertUnavailable, TimeoutError):
            pass
    return await asyncio.to_thread(hard_position, state, ANALYSIS_LINES)


async def analyze(state: BackgammonState, expert: ExpertPool | None, locale: str | None) -> str:
    return words(state, await verdict(state, expert), locale)


def _signed(value: float) -> str:
    return f"{value:+.3f}".replace("-", "\u2212")


def _pct(value: float) -> str:
    return f"{100 * value:.1f}"


def situation(state: BackgammonState, locale: str | None) -> str:
    """Who is to do what, the cube and the score."""
    on_roll = tr(f"colour.{('white', 'black')[state.on_roll]}", locale).capitalize()
    if state.phase is Phase.MOVE:
        what = tr("analyze.to_play", locale, player=on_roll, a=state.dice[0], b=state.dice[1])
    elif state.phase is Phase.CUBE:
        what = tr("analyze.doubled", locale, player=on_roll, value=state.cube_value * 2)
    else:
        what = tr("analyze.to_roll", locale, player=on_roll)
    if state.match_length > 1 or not state.cube_enabled:  # a single game without a cube is
        a, b = state.score  # the 1-point match, not a money game
        score = tr("analyze.match", locale, length=state.match_length, a=a, b=b)
        if state.crawford:
            score += " · " + tr("analyze.crawford", locale)
    else:
        score = tr("analyze.money", locale)
    parts = [what, score]
    if state.cube_value > 1 or state.cube_owner is not None:
        owner = (
            tr("text.centred", locale)
            if state.cube_owner is None
            else tr(f"colour.{('white', 'black')[state.cube_owner]}", locale)
        )
        parts.append(tr("analyze.cube", locale, value=state.cube_value, owner=owner))
    return " · ".join(parts)


def chances(probs: Probs, locale: str | None) -> str:
    win, gammon, backgammon, lose_gammon, lose_backgammon = probs
    return tr(
        "analyze.chances",
        locale,
        win=_pct(win),
        gammon=_pct(gammon),
        backgammon=_pct(backgammon),
        lose=_pct(1.0 - win),
        lose_gammon=_pct(lose_gammon),
        lose_backgammon=_pct(lose_backgammon),
    )


def cube_words(cube: CubeLines, locale: str | None) -> list[str]:
    lines = []
    rows = (
        ("analyze.cube.no_double", cube.no_double),
        ("analyze.cube.double_take", cube.double_take),
        ("analyze.cube.double_pass", cube.double_pass),
    )
    best = 0.0
    if cube.no_double is not None and cube.double_take is not None and cube.double_pass is not None:
        best = max(min(cube.double_take, cube.double_pass), cube.no_double)
    for key, value in rows:
        if value is not None:
            behind = f" ({_signed(value - best)})" if abs(value - best) > 5e-4 else ""
            lines.append(
                tr(
                    "analyze.cube.line",
                    locale,
                    action=tr(key, locale),
                    equity=_signed(value),
                    behind=behind,
                )
            )
    double = "double" if cube.should_double else "no_double"
    take = "take" if cube.should_take else "pass"
    lines.append(
        tr("analyze.cube.verdict", locale, action=tr(f"analyze.action.{double}_{take}", locale))
    )
    return lines


def words(state: BackgammonState, found: PositionVerdict, locale: str | None) -> str:
    """The verdict as the reply prints it."""
    lines = [situation(state, locale)]
    if state.phase is Phase.MOVE:
        if not found.plays:
            lines.append(tr("analyze.no_play", locale))
        for rank, line in enumerate(found.plays[:ANALYSIS_LINES], start=1):
            behind = f" ({_signed(-line.loss)})" if rank > 1 else ""
            lines.append(
                tr(
                    "analyze.play",
                    locale,
                    rank=rank,
                    move=escape_markdown(line.text),
                    equity=_signed(line.equity),
                    behind=behind,
                )
            )
            lines.append("\u2003" + chances(line.probs, locale))
    else:
        if found.cube is None:
            lines.append(tr("analyze.no_cube", locale))
        else:
            lines.extend(cube_words(found.cube, locale))
        lines.append(chances(found.probs, locale))
    level = "analyze.level_expert" if found.level != "hard" else "analyze.level_hard"
    lines.append(tr(level, locale))
    return "\n".join(lines)


def share(state: BackgammonState, locale: str | None) -> str:
    shared = ids_of(state)
    return tr(
        "share.ids",
        locale,
        gnubg=shared.gnubg,
        position_id=shared.position_id,
        match_id=shared.match_id,
        xgid=shared.xgid,
    )


def perspective(state: BackgammonState) -> int:
    return state.on_roll


def key(state: BackgammonState) -> str:
    """Board, cube and score seen by the player on roll, the dice left out (rolled or not,
    a double on offer or not: the same position): the board's GNU Position ID, then the
    match (length, the two scores, Crawford) and the cube (value; centred, on roll's or the
    opponent's). The GNU ID and the XGID of a position read to the same key, whichever
    colour is on roll."""
    me = state.on_roll
    board = bg.state_board(state, me).position_id()
    owner = "c" if state.cube_owner is None else "m" if state.cube_owner == me else "o"
    mine, theirs = state.score[me], state.score[1 - me]
    match = f"{state.match_length}:{mine}-{theirs}:{int(state.crawford)}"
    return f"{board}|{match}|{state.cube_value}{owner}"


TOOLS = PositionTools(read=read, analyze=analyze, share=share, perspective=perspective, key=key)
