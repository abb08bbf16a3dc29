"""The bounds of every number a person gives the bot, defined once: the slash commands tell
Discord these (``app_commands.Range[int, B.low, B.high]``), and the service checks the same
ones itself, because a value Discord would refuse can still arrive (a second shard on an
older command definition, a changed option, a test harness, a forged request).

A value out of its bounds is refused with ``option.out_of_range`` naming the option and the
bounds; the value itself is not quoted (it may be any length)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Generic, TypeVar

from bot.vocabulary.errors import TabulaError

N = TypeVar("N", int, float)


class BadOption(TabulaError):
    """An option's value the command does not take (out of its bounds, not one of its
    choices, not of its type)."""

    key = "option.out_of_range"


@dataclass(frozen=True, slots=True)
class Bounds(Generic[N]):
    """``low <= value <= high`` for the option named ``option`` (its slash name)."""

    option: str
    low: N
    high: N

    def holds(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        if isinstance(value, float) and (
            not math.isfinite(value) or (isinstance(self.low, int) and isinstance(self.high, int))
        ):
            return False  # not a number, or a fraction where a whole number belongs
        return self.low <= value <= self.high

    def check(self, value: N) -> N:
        """``value`` if it is within the bounds, else :class:`BadOption`."""
        if not self.holds(value):
            raise BadOption(option=self.option, low=self.low, high=self.high)
        return value


TURN_LIMIT_HOURS = Bounds("turn_limit_hours", 1, 720)  # a month at most
PUZZLE_HOUR = Bounds("puzzle_hour", 0, 23)
MATCH_POINTS = Bounds("points", 1, 25)  # also the form's select: 25 options at most
TOURNAMENT_ROUNDS = Bounds("rounds", 1, 20)
ROUND_HOURS = Bounds("round_hours", 0.01, 720.0)
EXTEND_HOURS = Bounds("hours", 0.1, 168.0)
GAMES_PAGE = Bounds("page", 1, 1000)
# /stats last: the skill figures over a player's latest this many reviewed games or matches.
LATEST_GAMES = Bounds("last", 5, 500)
LEADERBOARD_PAGE = Bounds("page", 1, 100_000)  # a button's page: far past any real board
# A rating range's ends: every rating the ratings can reach lies far inside (Glicko-2 starts
# at 1500; the best players of any game stay under 3000).
RATING = Bounds("rating", 0, 4000)


def check_choice(option: str, value: object, choices: tuple[str, ...]) -> str:
    """``value`` if it is one of ``choices``, else :class:`BadOption` listing them."""
    if not isinstance(value, str) or value not in choices:
        raise BadOption("option.not_a_choice", option=option, choices=", ".join(choices))
    return value
