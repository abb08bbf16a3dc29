"""Who sits where when a challenge becomes a game: the seating rule, the AI that fills the
seats nobody took, and whether the game is rated. A rematch's options carry its seating (the
seats moved one place on, so two players swap colours), its AI levels and its rating.

Plain functions of the stored challenge: the UI asks, and never decides, any of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot import games
from bot.service.challenges import NAMES, OPEN, Challenge
from bot.service.models import Game, SeatInfo
from bot.vocabulary.options import HINTS, TUTOR

# Challenge options the start reads and the game does not keep:
SEAT_ORDER = "seat_order"  # who sits where (a rematch swaps colours); None: an AI seat
AI_LEVELS = "ai_levels"  # a rematch's AI level per seat (None: a person)
RATED = "rated"  # a rematch is rated as its game was
DEFAULT_AI_LEVEL = "hard"  # the AI filling the seats nobody was invited to


@dataclass(frozen=True, slots=True)
class Table:
    """The game a challenge asks for: its seats, the game's own options, whether it is rated,
    and the names of the people in seat order."""

    seats: list[SeatInfo]
    options: dict[str, Any]
    rated: bool
    people: list[str]


def table_for(challenge: Challenge, name_of: Callable[[int], str]) -> Table:
    """The table of ``challenge``'s game. ``name_of``: a person's display name now, for those
    whose name the challenge did not store (without the members intent the bot cannot look up
    a member who is not the one clicking, so the names it had are kept with it)."""
    options = dict(challenge.options)
    known: dict[str, str] = options.pop(NAMES, {})
    options.pop(OPEN, None)
    # A rematch fixes who sits where (colours swapped) and keeps the AI's levels; a fresh
    # challenge seats the challenger first (then those named, or those who joined an open
    # one in the order they joined) and fills the seats nobody took with the AI.
    order: list[int | None] = options.pop(SEAT_ORDER, None) or [
        challenge.challenger_id,
        *(challenge.invitee_ids or challenge.accepted_ids),
    ]
    levels: list[str | None] = options.pop(AI_LEVELS, None) or []
    rated = options.pop(RATED, None)
    seat_count = len(games.get(challenge.game).seats)
    order = (order + [None] * seat_count)[:seat_count]
    levels = (levels + [None] * seat_count)[:seat_count]
    names = {uid: known.get(str(uid)) or name_of(uid) for uid in order if uid is not None}
    return Table(
        seats=[
            SeatInfo(i, uid, names[uid])
            if uid is not None
            else SeatInfo(i, None, "AI", levels[i] or DEFAULT_AI_LEVEL)
            for i, uid in enumerate(order)
        ],
        options=options,
        # games with hints or a tutor are practice, never rated; nor are games outside a
        # server unless asked with rated:yes (RATED) and accepted: both agreed
        rated=bool(rated)
        if rated is not None
        else not options.get(HINTS) and not options.get(TUTOR) and challenge.guild_id is not None,
        people=[names[uid] for uid in order if uid is not None],
    )


def rotated_seats(game: Game) -> list[SeatInfo]:
    """The seats of ``game`` moved one place on: in two-seat games the colours swap."""
    count = len(game.seats)
    return [
        SeatInfo((s.seat + 1) % count, s.user_id, s.name, s.ai_level)
        for s in sorted(game.seats, key=lambda s: (s.seat + 1) % count)
    ]


def rematch_options(game: Game) -> tuple[dict[str, Any], list[SeatInfo]]:
    """The options of ``game``'s rematch (its own, with the rotated seating, the AI levels and
    the rating it was played with) and the rotated seats."""
    rotated = rotated_seats(game)
    options = dict(game.options)
    options[SEAT_ORDER] = [s.user_id for s in rotated]
    options[AI_LEVELS] = [s.ai_level for s in rotated]
    options[RATED] = game.rated
    return options, rotated


__all__ = [
    "AI_LEVELS",
    "DEFAULT_AI_LEVEL",
    "RATED",
    "SEAT_ORDER",
    "Table",
    "rematch_options",
    "rotated_seats",
    "table_for",
]
