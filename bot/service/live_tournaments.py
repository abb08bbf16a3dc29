"""The owner of each tournament this process is working on, as ``LiveGame`` is a game's: the
lock its rounds are opened under, what its announcement shows, whether an edit of it is under
way, its scheduled event's status and the rounds whose organiser was told of a refusal, in one
place, let go when the tournament is over and its announcement says so.

Nothing here lives only in memory: a new owner knows nothing yet, and so edits the
announcement once more, reads the event as scheduled (a step it cannot take is refused by
Discord and logged) and may tell the organiser once more.
"""

from __future__ import annotations

import asyncio

from bot.service.owners import Owners


class LiveTournament:
    """One tournament's runtime state (see the module)."""

    __slots__ = (
        "dirty",
        "event_status",
        "id",
        "refreshing",
        "round_lock",
        "shown",
        "told",
        "used",
    )

    def __init__(self, tournament_id: int, now: float) -> None:
        self.id = tournament_id
        self.used = now
        self.round_lock = asyncio.Lock()  # one opening of a round at a time in this process
        self.shown: int | None = None  # the version the announcement shows, if known
        self.refreshing = False  # an edit of the announcement is under way
        self.dirty = False  # changed again meanwhile: one more edit to come
        self.event_status: int | None = None  # the scheduled event's, as last moved
        self.told: set[int] = set()  # rounds whose organiser was told of a refusal

    @property
    def busy(self) -> bool:
        return self.refreshing or self.round_lock.locked()


# Tournaments are few: none is let go for being idle, only once over (:meth:`release`).
MOST_KEPT = 10_000


class LiveTournaments(Owners[int, LiveTournament]):
    """The owners of the tournaments this process has in hand."""

    def __init__(self) -> None:
        super().__init__(LiveTournament, most=MOST_KEPT)

    def release(self, tournament_id: int) -> bool:
        """Let the owner of a tournament that is over go, unless work on it is under way
        (that work lets it go when it ends). True when it went."""
        owner = self.peek(tournament_id)
        if owner is None or owner.busy:
            return False
        return self.let_go(tournament_id, owner)

    def forget_shown(self) -> None:
        """Every announcement is edited at the next refresh (a start-up's sweep)."""
        for owner in self:
            owner.shown = None


__all__ = ["LiveTournament", "LiveTournaments"]
