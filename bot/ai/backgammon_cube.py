"""Doubling-cube decisions of the hard level, from cubeless chances.

:class:`Chances` are the doubler's (the side on roll): winning, winning a gammon, losing a
gammon (backgammons are counted as gammons).

Money play uses Janowski's model: the cubeful equity is a mix, by the cube efficiency ``x``,
of the cubeless (dead cube) equity and the fully live-cube equity, which is linear between
the take point and the cash point (per unit of the current cube, with ``W`` and ``L`` the
average values of a win and of a loss)::

    take point  TP = (L - 1/2) / (W + L + 1/2)      cash point  CP = (L + 1) / (W + L + 1/2)

Double when doubling beats not doubling (``min(double/take, double/pass) > no double``; "too
good" positions, where playing on for a gammon is worth more than a cash, fail this test);
take when the taker's equity after taking is at least -1. With no gammons and ``x = 0.68``
that doubles from about 70% and takes down to about 21.5%, the textbook figures.

Match play uses the Kazaross-XG2 table (:mod:`bot.ai.backgammon_met`): the taker's take point
is the dead-cube one from the match equities after the game at the doubled cube, less the
recube vig when the taker could redouble usefully (``TP * (1 - x * TP')``, TP' the doubler's
take point of that redouble). The doubler doubles inside a window below the taker's drop
point, cashes when the taker should drop unless playing on wins more (too good), never
doubles when a win at the current cube already wins the match, and doubles at once as the
trailer after the Crawford game. Nobody doubles in the Crawford game (the engine forbids it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.ai.backgammon_met import match_equity

CONTACT_EFFICIENCY: Final = 0.68
RACE_EFFICIENCY: Final = 0.78
# How far below the taker's drop point a match-play double starts: a centred cube gives up
# more market than a redouble of an owned cube does.
MATCH_WINDOW_CENTRED: Final = 0.10
MATCH_WINDOW_OWNED: Final = 0.06


@dataclass(frozen=True, slots=True)
class Chances:
    """Cubeless chances of the side on roll; ``win_gammon <= win`` and ``lose_gammon <= 1-win``."""

    win: float
    win_gammon: float
    lose_gammon: float

    def flipped(self) -> Chances:
        """The same chances seen by the other side."""
        return Chances(1.0 - self.win, self.lose_gammon, self.win_gammon)


@dataclass(frozen=True, slots=True)
class CubeSituation:
    """The cube and score from the doubler's side. ``owner``: 'centre', 'doubler', 'taker'."""

    cube: int
    owner: str
    match_length: int  # 0 = money
    doubler_away: int
    taker_away: int
    post_crawford: bool
    race: bool


# ---------------------------------------------------------------------------------------------
# Money: Janowski


def _values(chances: Chances) -> tuple[float, float]:
    """Average value of a win and of a loss (1 for a single game, 2 for a gammon)."""
    win, lose = chances.win, 1.0 - chances.win
    value_win = 1.0 + (chances.win_gammon / win if win > 1e-9 else 0.0)
    value_loss = 1.0 + (chances.lose_gammon / lose if lose > 1e-9 else 0.0)
    return value_win, value_loss


def money_equities(chances: Chances, owner: str, efficiency: float) -> tuple[float, float]:
    """(no double, double/take) cubeful equities per current cube unit, doubler's side."""
    p = chances.win
    win_value, loss_value = _values(chances)
    dead = p * win_value - (1.0 - p) * loss_value
    total = win_value + loss_value + 0.5
    own_take = (loss_value - 0.5) / total  # the doubler's take point of a redouble
    cash = (loss_value + 1.0) / total
    if owner == "doubler":
        live = -loss_value + p * (1.0 + loss_value) / cash if p < cash else 1.0
    else:  # centred (the taker cannot double now: it is our turn)
        live = -1.0 + 2.0 * (p - own_take) / (cash - own_take)
        live = max(-1.0, min(1.0, live))
    no_double = efficiency * live + (1.0 - efficiency) * dead
    # After the take the taker owns the cube at twice the value.
    taker_owns = -1.0 + (win_value + 1.0) * (p - own_take) / (1.0 - own_take)
    taker_owns = max(-1.0, taker_owns)
    double_take = 2.0 * (efficiency * taker_owns + (1.0 - efficiency) * dead)
    return no_double, double_take


# ---------------------------------------------------------------------------------------------
# Match play


def _mwc(points_doubler: int, points_taker: int, situation: CubeSituation) -> float:
    return match_equity(
        situation.doubler_away - points_doubler,
        situation.taker_away - points_taker,
        situation.post_crawford,
    )


def _average_mwc(chances: Chances, cube: int, situation: CubeSituation) -> tuple[float, float]:
    """The doubler's match winning chances averaged over its wins and over its losses."""
    win, lose = chances.win, 1.0 - chances.win
    gammon_share = chances.win_gammon / win if win > 1e-9 else 0.0
    lose_gammon_share = chances.lose_gammon / lose if lose > 1e-9 else 0.0
    if_win = (1.0 - gammon_share) * _mwc(cube, 0, situation) + gammon_share * _mwc(
        2 * cube, 0, situation
    )
    if_lose = (1.0 - lose_gammon_share) * _mwc(0, cube, situation) + lose_gammon_share * _mwc(
        0, 2 * cube, situation
    )
    return if_win, if_lose


def _dead_take_point(chances: Chances, cube: int, situation: CubeSituation) -> float:
    """The taker's take point (its winning chances) for a double to ``2 * cube``."""
    if_win, if_lose = _average_mwc(chances, 2 * cube, situation)
    drop = _mwc(cube, 0, situation)  # the doubler's chances after a drop
    if if_win - if_lose < 1e-9:
        return 0.0
    return max(0.0, min(1.0, (if_win - drop) / (if_win - if_lose)))


def match_take_point(chances: Chances, situation: CubeSituation) -> float:
    """The taker's take point (its winning chances) at this score, with the recube vig."""
    cube = situation.cube
    point = _dead_take_point(chances, cube, situation)
    # The taker owns the cube at 2 * cube: it is worth something only while a win at that
    # cube does not already win the match for the taker.
    if situation.taker_away > 2 * cube:
        flipped = CubeSituation(
            2 * cube,
            "centre",
            situation.match_length,
            situation.taker_away,
            situation.doubler_away,
            situation.post_crawford,
            situation.race,
        )
        recube = _dead_take_point(chances.flipped(), 2 * cube, flipped)
        efficiency = RACE_EFFICIENCY if situation.race else CONTACT_EFFICIENCY
        point *= 1.0 - efficiency * recube
    return point


# ---------------------------------------------------------------------------------------------
# Decisions


def should_double(chances: Chances, situation: CubeSituation) -> bool:
    """Whether the side on roll should offer the cube (the caller checks it may)."""
    efficiency = RACE_EFFICIENCY if situation.race else CONTACT_EFFICIENCY
    if situation.match_length == 0:
        no_double, double_take = money_equities(chances, situation.owner, efficiency)
        return min(double_take, 1.0) > no_double
    if situation.doubler_away <= situation.cube:
        return False  # a win at this cube already wins the match: doubling only risks more
    if (
        situation.post_crawford
        and situation.taker_away == 1
        and situation.owner == "centre"
        and situation.doubler_away > 1
    ):
        return True  # the trailer after the Crawford game doubles at once
    take_point = match_take_point(chances, situation)
    if_win, if_lose = _average_mwc(chances, situation.cube, situation)
    no_double = chances.win * if_win + (1.0 - chances.win) * if_lose
    cash = _mwc(situation.cube, 0, situation)
    if 1.0 - chances.win < take_point:
        return cash > no_double  # the taker should drop: cash unless too good
    window = MATCH_WINDOW_OWNED if situation.owner == "doubler" else MATCH_WINDOW_CENTRED
    if chances.win < 1.0 - take_point - window:
        return False
    take_win, take_lose = _average_mwc(chances, 2 * situation.cube, situation)
    double_take = chances.win * take_win + (1.0 - chances.win) * take_lose
    return double_take >= no_double


def should_take(chances: Chances, situation: CubeSituation) -> bool:
    """Whether the doubled side takes. ``chances`` and ``situation`` are the DOUBLER's."""
    efficiency = RACE_EFFICIENCY if situation.race else CONTACT_EFFICIENCY
    if situation.match_length == 0:
        _, double_take = money_equities(chances, situation.owner, efficiency)
        return double_take <= 1.0
    if situation.doubler_away <= situation.cube:
        return True  # a drop loses the match: nothing to save by dropping
    return 1.0 - chances.win >= match_take_point(chances, situation)
