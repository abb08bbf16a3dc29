"""A Hypergammon game judged from the solved table: every decision's exact equity loss and
every roll's exact luck, in the shape backgammon's review reads
(:class:`bot.ai.backgammon_analysis.GameAnalysis`), so that its page and figures (PR,
errors, blunders, luck) are backgammon's.

Equity is the table's cubeful money equity, normalised to the cube (cubeless where the game
is played without a cube). What counts as a decision is backgammon's: every checker play
with a choice, every take or drop, and a double / no-double that was a double, a mistake or
close. Luck of a roll: the equity after the best play with it minus the average over all
rolls (the opening roll: over the 15 non-doubles). The table holds equities, not winning
chances, so the review has no chart of them (``series`` is empty).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from bot.ai.backgammon_analysis import Decision, GameAnalysis, LuckEntry
from bot.ai.hypergammon import (
    CubeDecision,
    Scored,
    cube_decision,
    position_values,
    scored_plays,
)
from bot.ai.hypergammon_table import HyperTable
from bot.engines import backgammon as bg
from bot.engines import hypergammon
from bot.engines.backgammon import BackgammonState, Phase, Play
from bot.engines.common import Replay, Roll, Rules

BackgammonRules = Rules[BackgammonState, bg.Decision]

__all__ = ["CLOSE_CUBE", "analyse_game", "judge_play", "roll_luck"]

CLOSE_CUBE: Final = 0.16  # as backgammon's review: a no-double this close to doubling counts
_ROLLS: Final = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def _best_after(state: BackgammonState, dice: tuple[int, int], table: HyperTable) -> float:
    """The mover's equity after its best play of ``dice`` (the turn passes if none)."""
    rolled = bg.apply(state, Roll(dice)) if state.phase is Phase.ROLL else state
    if rolled.phase is not Phase.MOVE:  # no legal play: the opponent rolls next
        if rolled.phase is Phase.FINISHED:
            return 0.0
        return -_cubeful_to_roll(rolled, table)
    best = scored_plays(rolled, table)[0]
    return best.cubeful if state.cube_enabled else best.cubeless


def _cubeful_to_roll(state: BackgammonState, table: HyperTable) -> float:
    """The equity of the seat to roll in ``state``, with its best cube action."""
    if not state.cube_enabled:
        return position_values(state.position, table).cubeless
    found = cube_decision(state, table)
    doubling = bg.can_double(state)
    return max(found.no_double, min(found.double_take, 1.0)) if doubling else found.no_double


def roll_luck(state: BackgammonState, dice: tuple[int, int], table: HyperTable) -> float:
    """The luck of rolling ``dice`` in ``state`` (ROLL, not doubling): its best play's equity
    minus the average over every roll."""
    average = sum(
        (1.0 if a == b else 2.0) / 36.0 * _best_after(state, (a, b), table) for a, b in _ROLLS
    )
    return _best_after(state, dice, table) - average


def _decision(
    index: int,
    state: BackgammonState,
    kind: str,
    played: str,
    best: str,
    loss: float,
    counted: bool,
    dice: tuple[int, ...] = (),
    steps: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = ((), ()),
) -> Decision:
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
        played_steps=steps[0],
        best_steps=steps[1],
    )


def judge_play(
    state: BackgammonState, action: Play, table: HyperTable, index: int = 0
) -> Decision | None:
    """The checker play ``action`` in ``state`` judged from the table; ``None`` if forced."""
    scored = scored_plays(state, table)
    if len(scored) < 2:
        return None
    mine = next(s for s in scored if s.play.result == action.result)
    best = scored[0]

    def value(s: Scored) -> float:
        return s.cubeful if state.cube_enabled else s.cubeless

    dice = (state.dice[0], state.dice[1])
    return _decision(
        index,
        state,
        "move",
        bg.format_play(state.position, dice, mine.play),
        bg.format_play(state.position, dice, best.play),
        value(best) - value(mine),
        True,
        dice,
        (mine.play.steps, best.play.steps),
    )


def _double(index: int, state: BackgammonState, c: CubeDecision, doubled: bool) -> Decision:
    doubling = min(c.double_take, 1.0)
    best_value = max(doubling, c.no_double)
    loss = best_value - (doubling if doubled else c.no_double)
    close = abs(doubling - c.no_double) <= CLOSE_CUBE
    played = "double" if doubled else "no double"
    best = "double" if c.double else "no double"
    return _decision(index, state, "double", played, best, loss, doubled or close or loss > 0.0005)


def _take(index: int, state: BackgammonState, c: CubeDecision, took: bool) -> Decision:
    # The taker minimises the doubler's equity: taking gives it 2 x ND_X, dropping 1.
    chosen = c.double_take if took else 1.0
    loss = chosen - min(c.double_take, 1.0)
    best = "take" if c.take else "drop"
    return _decision(index, state, "take", "take" if took else "drop", best, loss, True)


def analyse_game(
    options: Mapping[str, Any],
    notations: Sequence[str],
    table: HyperTable,
    level: str,
    rules: BackgammonRules = hypergammon,
) -> GameAnalysis:
    """Replay a Hypergammon record (``rules``: backgammon's engine with a start of as many
    checkers as the table has, for tables of fewer) and judge every decision and roll."""
    decisions: list[Decision] = []
    lucks: list[LuckEntry] = []
    steps: Replay[BackgammonState, bg.Decision] = Replay(rules, options, notations)
    for index, (state, action, _after) in enumerate(steps):
        seat = state.turn
        if state.phase is Phase.OPENING and isinstance(action, Roll):
            white, black = action.dice[0], action.dice[1]
            if white != black:
                starter = 0 if white > black else 1
                lucks.append(
                    LuckEntry(
                        index,
                        starter,
                        (white, black),
                        _opening_luck(state, (white, black), starter, table),
                        state.game_number,
                    )
                )
        elif state.phase is Phase.ROLL and isinstance(action, Roll | bg.Double):
            if state.cube_enabled and bg.can_double(state):
                found = cube_decision(state, table)
                decisions.append(_double(index, state, found, isinstance(action, bg.Double)))
            if isinstance(action, Roll):
                dice = (action.dice[0], action.dice[1])
                luck = roll_luck(state, dice, table)
                lucks.append(LuckEntry(index, seat, dice, luck, state.game_number))
        elif state.phase is Phase.CUBE and isinstance(action, bg.Take | bg.Drop):
            found = cube_decision(state, table)
            decisions.append(_take(index, state, found, isinstance(action, bg.Take)))
        elif state.phase is Phase.MOVE and isinstance(action, Play):
            judged = judge_play(state, action, table, index)
            if judged is not None:
                decisions.append(judged)
    return GameAnalysis(level, tuple(decisions), tuple(lucks), (), len(notations))


def _opening_luck(
    state: BackgammonState, dice: tuple[int, int], starter: int, table: HyperTable
) -> float:
    """The starter's luck with its opening roll: its best play's equity minus the average
    over the 15 rolls an opening can be."""

    def best(roll: tuple[int, int]) -> float:  # (white's die, black's die)
        moving = bg.apply(state, Roll(roll))
        if moving.phase is not Phase.MOVE:
            return 0.0
        top = scored_plays(moving, table)[0]
        return top.cubeful if state.cube_enabled else top.cubeless

    # The starter's die is the higher: white's first when white starts.
    openings = [(a, b) if starter == 0 else (b, a) for a, b in _ROLLS if a != b]
    average = sum(best(roll) for roll in openings) / len(openings)
    return best(dice) - average
