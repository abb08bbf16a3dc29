"""Hypergammon played from the solved table (:mod:`bot.ai.hypergammon_table`): the
``perfect`` level's checker plays and cube actions, the equities /hint and the review show.

The table holds money equities (cube normalised to 1; gammons and backgammons count, no
Jacoby rule, no beavers). A single game and a money game are played perfectly from it; in a
match of more points it plays the money play (the table knows no score). The other levels
are backgammon's own AI (:mod:`bot.ai.backgammon`), which plays any number of checkers.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.ai import backgammon as own
from bot.ai import hypergammon_table as table
from bot.ai.hypergammon_table import HyperTable, Values, cube_values
from bot.ai.levels import PERFECT, Level
from bot.engines.backgammon import (
    BackgammonState,
    Double,
    Drop,
    Phase,
    Play,
    Position,
    Take,
    can_double,
    legal_plays_for,
    win_kind,
)
from bot.engines.common import WrongPhase

__all__ = [
    "Cube",
    "CubeDecision",
    "Scored",
    "choose_action",
    "cube_decision",
    "position_values",
    "scored_plays",
    "side_of",
]

Cube = str  # "centred", "owned" (by the seat on roll) or "theirs"


def side_of(board: tuple[int, ...], checkers: int) -> tuple[int, ...]:
    """A side's checkers as the table numbers them (0 off, 1-24, 25 the bar), from its
    25-tuple board (index 24 the bar)."""
    on_board = [index + 1 for index, count in enumerate(board) for _ in range(count)]
    return tuple(sorted([0] * (checkers - len(on_board)) + on_board))


def position_values(position: Position, found: HyperTable) -> Values:
    """The table's values of ``position`` for its ``mine`` side, about to roll."""
    checkers = found.checkers
    return found.values(side_of(position.mine, checkers), side_of(position.theirs, checkers))


def cube_of(state: BackgammonState) -> Cube:
    """The cube's state as seen by the seat on roll."""
    if state.cube_owner is None:
        return "centred"
    return "owned" if state.cube_owner == state.on_roll else "theirs"


@dataclass(frozen=True, slots=True)
class Scored:
    """A legal play and the mover's equity after it (cubeless, and cubeful with the cube as
    it stands; cube normalised to 1)."""

    play: Play
    cubeless: float
    cubeful: float


def _after(play: Play, found: HyperTable, cube: Cube, checkers: int) -> tuple[float, float]:
    """(cubeless, cubeful) for the mover after ``play``: the opponent is then to roll, with
    the cube seen from its side."""
    if not any(play.result.mine):
        won = float(win_kind(play.result, checkers)[0])
        return won, won
    values = position_values(play.result.swapped(), found)
    centred, owned, theirs = cube_values(values)
    cubeful = {"centred": -centred, "owned": -theirs, "theirs": -owned}[cube]
    return -values.cubeless, cubeful


def scored_plays(state: BackgammonState, found: HyperTable) -> list[Scored]:
    """Every legal play of the roll in ``state`` (MOVE), best first for the mover: by cubeful
    equity where the cube is in play, else by cubeless equity."""
    if state.phase is not Phase.MOVE:
        raise WrongPhase("There is no roll to play.")
    cube = cube_of(state)
    scored = [
        Scored(play, *_after(play, found, cube, state.checkers)) for play in legal_plays_for(state)
    ]
    cubeful = state.cube_enabled
    return sorted(scored, key=lambda s: -(s.cubeful if cubeful else s.cubeless))


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """The cube from the doubler's side: its equity if it does not double, if it doubles and
    is taken, and the drop's (1); whether a double is right and whether to take it."""

    no_double: float
    double_take: float
    double: bool
    take: bool


def cube_decision(state: BackgammonState, found: HyperTable) -> CubeDecision:
    """The doubling decision of the seat on roll (ROLL phase) or the take of the doubled seat
    (CUBE phase), from the doubler's side of the board."""
    board = state.position if state.phase is Phase.ROLL else state.position.swapped()
    values = position_values(board, found)
    no_double = values.owned if cube_of(state) == "owned" else values.centred
    double_take = 2.0 * values.theirs
    return CubeDecision(
        no_double=no_double,
        double_take=double_take,
        double=min(double_take, 1.0) > no_double,
        take=double_take <= 1.0,
    )


def choose_action(
    state: BackgammonState, level: Level, rng: random.Random
) -> Play | Double | Take | Drop | None:
    """The action of the seat on turn; ``perfect`` from the installed table (where there is
    none, or it is of another number of checkers, the hard AI plays), the other levels
    backgammon's own."""
    found = table.installed()
    if level != PERFECT or found is None or found.checkers != state.checkers:
        return own.choose_action(state, "hard" if level == PERFECT else level, rng)
    if state.phase is Phase.MOVE:
        return scored_plays(state, found)[0].play
    if state.phase is Phase.CUBE:
        return Take() if cube_decision(state, found).take else Drop()
    if state.phase is Phase.ROLL:
        if can_double(state) and cube_decision(state, found).double:
            return Double()
        return None
    if state.phase is Phase.OPENING:
        return None
    raise WrongPhase("The game is over.")
