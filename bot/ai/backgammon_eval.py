"""The hard level's static evaluation of a backgammon position.

Boards are the engine's 25-tuples (index i = point i + 1 in that side's own numbering, index
24 = its bar). Every function here takes ``(mine, theirs)`` with ``mine`` ON ROLL, and the
scores are for ``mine``. The heart is :func:`score`, a logit (log-odds of winning):

* no contact (the sides have passed each other): the race formulas of
  :mod:`bot.ai.backgammon_race` (exact for small bear-offs, Keith count + Kleinman else);
* contact: a damped race term plus hand-weighted positional terms, computed for both sides
  with the same code and subtracted: home-board points (they count when the other side still
  has checkers to come past them), checkers on the bar (worse against a strong board), the
  longest prime with opposing checkers behind it, anchors in the opponent's home board, back
  checkers still to escape, stacks and checkers dead on the low points, builders; then the
  exact shots of :mod:`bot.ai.backgammon_shots`: the side on roll gains the value of its best
  hit on each of the 36 rolls, and loses a smaller share of what the other side could hit
  next turn (it moves first and can still tidy up).

The weights are in logits: 1.0 moves an even game to about 73%.
"""

from __future__ import annotations

import math
from typing import Final, NamedTuple

from bot.ai.backgammon_race import (
    expected_rolls,
    keith_count,
    race_gammon_chance,
    race_win_chance,
)
from bot.ai.backgammon_shots import blot_targets, closed_points, hit_masks_from, source_bits
from bot.engines.backgammon_position import CHECKERS

Board = tuple[int, ...]

MAX_LOGIT: Final = 9.0

# Race term inside contact: Kleinman's z times this (a logit is about 1.7 z), damped because
# contact positions are decided by much more than the pip count.
CONTACT_RACE: Final = 0.55 * 1.7
RACE_TIE_BREAK: Final = 0.02  # logits per roll of expected bear-off length
# Home-board points 1-6, then the bar point, when the other side still has to come past.
HOME_POINTS: Final = (0.04, 0.07, 0.12, 0.18, 0.26, 0.22, 0.16)
HOME_POINTS_PASSED: Final = 0.25  # share that remains when nothing is left to block
BAR_BASE: Final = 0.35  # each opposing checker on the bar ...
BAR_PER_POINT: Final = 0.13  # ... plus this per point we hold in our home board
CLOSED_OUT: Final = 0.6  # extra per checker on the bar against a closed board
PRIME: Final = (0.0, 0.0, 0.0, 0.12, 0.35, 0.7, 1.15)  # by length, with checkers behind it
ANCHORS: Final = {19: 0.22, 20: 0.32, 21: 0.27, 22: 0.16, 23: 0.1, 24: 0.05}
SECOND_ANCHOR: Final = 0.4
BACK_CHECKER: Final = 0.06  # each checker still in the opponent's home board or on the bar
STACK: Final = 0.035  # each checker beyond the third on one point
DEAD: Final = 0.06  # each checker on our 1- or 2-point while the game is still on
BUILDER: Final = 0.03  # each distinct point 4-11 with a checker: flexibility to make points
# A hit costs the victim a base (tempo), its pips, and more against a strong home board.
HIT_BASE: Final = 0.3
HIT_PIP: Final = 0.022
HIT_PER_POINT: Final = 0.08
ATTACK_SHARE: Final = 0.85  # the side on roll realises most of its shots
EXPOSURE_SHARE: Final = 0.3  # and suffers part of the other side's next-turn shots


def has_contact(mine: Board, theirs: Board) -> bool:
    """Whether some checker of one side still has to pass a checker of the other."""
    return _side(mine).rear + _side(theirs).rear > 25


def _logit(chance: float) -> float:
    if chance <= 0.0:
        return -MAX_LOGIT
    if chance >= 1.0:
        return MAX_LOGIT
    return max(-MAX_LOGIT, min(MAX_LOGIT, math.log(chance / (1.0 - chance))))


def sigmoid(value: float) -> float:
    return 1.0 / (1.0 + math.exp(-value))


class _Side(NamedTuple):
    """What the evaluation needs of one side's board on its own, memoised per board."""

    keith: int
    rear: int  # highest occupied point in its own numbering (25 = bar, 0 = none left)
    sources: int  # bit p: a checker on point p (1-24)
    on_bar: int
    blots: tuple[int, ...]  # its blots as points of the OTHER side (ascending)
    closed: int  # bits of the points it holds, as points of the OTHER side
    home_made: int  # points 1-6 held with two or more
    home_value: float
    prime: int  # length of the longest run of held points
    prime_low: int  # its lowest point
    fixed: float  # the terms that do not depend on the other side


_SIDES: dict[Board, _Side] = {}
_SIDES_MAX: Final = 60_000


def _side(board: Board) -> _Side:
    known = _SIDES.get(board)
    if known is not None:
        return known
    if len(_SIDES) >= _SIDES_MAX:
        _SIDES.clear()  # a plain bound: one decision never needs anywhere near this many
    rear = 25
    while rear > 0 and not board[rear - 1]:
        rear -= 1
    run = best = best_low = 0
    for index in range(23):
        if board[index] >= 2:
            run += 1
            if run > best:
                best, best_low = run, index + 2 - run
        else:
            run = 0
    home_value = 0.0
    home_made = 0
    for index in range(7):
        if board[index] >= 2:
            home_value += HOME_POINTS[index]
            if index < 6:
                home_made += 1
    anchors = sorted(
        (ANCHORS[point] for point in range(19, 25) if board[point - 1] >= 2), reverse=True
    )
    fixed = 0.0
    if anchors:
        fixed += anchors[0] + (SECOND_ANCHOR * anchors[1] if len(anchors) > 1 else 0.0)
    fixed -= BACK_CHECKER * (board[24] + sum(board[18:24]))
    fixed -= STACK * sum(count - 3 for count in board[:24] if count > 3)
    fixed += BUILDER * sum(1 for index in range(3, 11) if board[index])
    side = _Side(
        keith=keith_count(board),
        rear=rear,
        sources=source_bits(board),
        on_bar=board[24],
        blots=blot_targets(board),
        closed=closed_points(board),
        home_made=home_made,
        home_value=home_value,
        prime=best,
        prime_low=best_low,
        fixed=fixed,
    )
    _SIDES[board] = side
    return side


def _structure(me: Board, mine: _Side, opp: _Side) -> float:
    """Positional value of ``me``'s checkers against the other side (whoever rolls)."""
    # The opponent's rearmost checker in my numbering (its bar is my point 0).
    opp_rear = 25 - opp.rear
    value = mine.fixed
    # Points only block checkers that still have to come past them.
    value += mine.home_value if opp_rear <= 12 else mine.home_value * HOME_POINTS_PASSED
    if opp.on_bar:
        value += opp.on_bar * (BAR_BASE + BAR_PER_POINT * mine.home_made)
        if mine.home_made == 6:
            value += opp.on_bar * CLOSED_OUT
    if mine.prime >= 3 and opp_rear < mine.prime_low:
        value += PRIME[min(mine.prime, 6)]
    if opp_rear < 12:
        value -= DEAD * (me[0] + me[1])
    return value


def _hit_value(attacker: _Side, defender: _Side) -> float:
    """Expected value (logits) of the attacker's best hit over its 36 rolls."""
    if not defender.blots:
        return 0.0
    masks = hit_masks_from(attacker.on_bar, attacker.sources, defender.blots, defender.closed)
    if not masks:
        return 0.0
    extra = HIT_BASE + HIT_PER_POINT * attacker.home_made
    # The best hit of each roll: take blots from the most valuable down, each claiming the
    # rolls no more valuable blot already claimed. A blot on point q loses 25 - q pips, and
    # the masks come highest point (fewest pips lost) first.
    covered = 0
    total = 0.0
    for point, rolls in reversed(masks):
        fresh = rolls & ~covered
        if fresh:
            total += fresh.bit_count() * (extra + HIT_PIP * (25 - point))
            covered |= rolls
    return total / 36.0


def score(mine: Board, theirs: Board) -> float:
    """Log-odds that ``mine`` (on roll) wins. Both sides must still have checkers."""
    if not has_contact(mine, theirs):
        # When the chances saturate (a race long won or lost) the expected rolls still tell
        # the plays apart: bear off efficiently even when it no longer changes the result.
        tie_break = RACE_TIE_BREAK * (expected_rolls(theirs) - expected_rolls(mine))
        return _logit(race_win_chance(mine, theirs)) + tie_break
    me, opp = _side(mine), _side(theirs)
    total = max(me.keith + opp.keith, 8)
    value = CONTACT_RACE * (opp.keith - me.keith + 4) / math.sqrt(2.0 * (total - 4))
    value += _structure(mine, me, opp) - _structure(theirs, opp, me)
    value += ATTACK_SHARE * _hit_value(me, opp)
    value -= EXPOSURE_SHARE * _hit_value(opp, me)
    return max(-MAX_LOGIT, min(MAX_LOGIT, value))


def win_chance(mine: Board, theirs: Board) -> float:
    """Chance that ``mine`` (on roll) wins the game."""
    if not any(theirs):
        return 0.0
    if not any(mine):
        return 1.0
    return sigmoid(score(mine, theirs))


def _checkers_back(side: Board) -> int:
    """Checkers of ``side`` still in the far half (its points 13-24) or on its bar."""
    return sum(side[12:])


def gammon_chances(
    mine: Board, theirs: Board, win: float, checkers: int = CHECKERS
) -> tuple[float, float]:
    """Rough (we win a gammon, they win a gammon) chances given our winning chance ``win``.

    Races use the race formula. In contact, the share of wins that are gammons grows with
    the loser's checkers on the bar or still far from home, and with the winner's board.
    ``checkers``: each side's checkers in the match; a side that has borne one off is safe.
    """
    if not has_contact(mine, theirs):
        return race_gammon_chance(mine, theirs, checkers), 0.0
    mine_gammon = win * _gammon_share(mine, theirs) if sum(theirs) == checkers else 0.0
    theirs_gammon = (1.0 - win) * _gammon_share(theirs, mine) if sum(mine) == checkers else 0.0
    return mine_gammon, theirs_gammon


def _gammon_share(winner: Board, loser: Board) -> float:
    board_points = sum(1 for index in range(6) if winner[index] >= 2)
    share = 0.06 + 0.02 * _checkers_back(loser) + 0.05 * loser[24] * (1 + board_points / 3)
    share += 0.015 * board_points
    return min(share, 0.65)
