"""The options a challenge offers (points, cube, hints, clock, who may join), turned into
the options it stores: read the same way from ``/challenge`` and from the invitation's
**More options** form, so the cogs and the form (``bot.ui.more_options``) share one rule.

The keys the start reads from a challenge (who sits where, the AI's levels, whether it is
rated) are the seating rule's (:mod:`bot.service.seating`); those of an open invitation and
of the names it keeps are the challenge's own (:mod:`bot.service.challenges`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot import games
from bot.games.spec import Asked
from bot.service.challenges import NAMES, OPEN, Challenge, OpenSeats
from bot.service.time_control import CONTROLS, CORRESPONDENCE
from bot.vocabulary.bounds import MATCH_POINTS, check_choice
from bot.vocabulary.errors import ChallengeRefused
from bot.vocabulary.options import CLOCK, HINTS, TUTOR

POINTS = range(MATCH_POINTS.low, MATCH_POINTS.high + 1)  # the slash option's bounds
CLOCKS = ("correspondence", "casual", "normal")


@dataclass(frozen=True, slots=True)
class Wanted:
    """What the form or the slash command asked for."""

    points: int = 1
    cube: bool = True
    hints: bool = False
    clock: str = CORRESPONDENCE
    tutor: bool = False  # tutor mode (bot.service.tutor): games whose review offers one


def table_options(game: str, wanted: Wanted) -> dict[str, Any]:
    """The stored options of a challenge of ``game``; refuses what the game does not offer,
    and values outside the bounds the slash command gives Discord (checked here again: a
    value Discord would refuse can still arrive)."""
    MATCH_POINTS.check(wanted.points)
    check_choice("clock", wanted.clock, CLOCKS)
    spec = games.get(game)
    if wanted.hints and spec.hint is None:
        raise ChallengeRefused("hint.not_offered", games=games.titles(lambda g: g.hint))
    if wanted.hints and spec.solved and not spec.table_ready():
        raise ChallengeRefused("hint.no_table", **spec.table_missing)
    options = spec.options.parse(Asked(wanted.points, wanted.cube, wanted.hints))
    options.update(tutor_option(game, wanted.tutor))
    if wanted.clock != CORRESPONDENCE:
        if not spec.time_controls:
            raise ChallengeRefused(
                "clock.not_offered", games=games.titles(lambda g: g.time_controls)
            )
        control = CONTROLS[wanted.clock]
        reserve = control.reserve_per_point * wanted.points
        options[CLOCK] = {"name": wanted.clock, "delay": control.delay, "reserve": reserve}
    return options


def tutor_option(game: str, wanted: bool) -> dict[str, Any]:
    """The stored option of tutor mode (``/play`` and ``/challenge``'s ``tutor``), refused
    for a game whose review offers none or cannot judge here (Ur without its table)."""
    if not wanted:
        return {}
    spec = games.get(game)
    if spec.review is None or spec.review.tutor is None:
        raise ChallengeRefused("tutor.not_offered", games=games.titles(tutored))
    if spec.review.needs_table and not spec.table_ready():
        raise ChallengeRefused("tutor.no_table", **spec.table_missing)
    return {TUTOR: True}


def tutored(spec: games.AnyGame) -> bool:
    return spec.review is not None and spec.review.tutor is not None


def open_seats_option(seat_count: int, low: int | None, high: int | None) -> dict[str, Any]:
    """The option that opens a challenge to anyone: one seat to fill in a duel, every seat
    but the challenger's in a multi-seat game (whose creator may start earlier)."""
    return {OPEN: OpenSeats(seat_count - 1, low, high).as_option()}


@dataclass(frozen=True, slots=True)
class Fields:
    """Which of the rare options ``game`` reads (a game ignores the others)."""

    points: bool
    cube: bool
    hints: bool
    clock: bool

    @classmethod
    def of(cls, game: str) -> Fields:
        spec = games.get(game)
        return cls(
            points=spec.options.points is not None,
            cube=spec.options.cube is not None,
            hints=spec.hint is not None,
            clock=bool(spec.time_controls),
        )

    @property
    def any(self) -> bool:
        return self.points or self.cube or self.hints or self.clock


def form_keys(game: str) -> frozenset[str]:
    """The stored options the form sets (and replaces), with the names the invitation keeps
    by whom it names (made again)."""
    return games.get(game).options.keys | {HINTS, CLOCK, NAMES}


def has_more_options(game: str) -> bool:
    return Fields.of(game).any


def wanted_of(challenge: Challenge) -> Wanted:
    """The options a pending challenge was made with, to fill the form in with."""
    clock = challenge.options.get(CLOCK)
    name = str(clock["name"]) if isinstance(clock, dict) else CORRESPONDENCE
    asked = games.get(challenge.game).options.read(challenge.options)
    return Wanted(asked.points, asked.cube, asked.hints, name)


__all__ = [
    "CLOCKS",
    "POINTS",
    "Fields",
    "Wanted",
    "form_keys",
    "has_more_options",
    "open_seats_option",
    "table_options",
    "tutor_option",
    "tutored",
    "wanted_of",
]
