"""Time controls: a delay per move plus a reserve for the whole match, computed from stored facts.

A simple delay (not Fischer): each turn the player first has ``delay`` seconds that cost
nothing, and unused delay is lost; after it their reserve counts down; a reserve below zero
loses the match. The clock of a turn runs from the moment its board was shown (``started``),
so neither Discord's 3 s nor the board's edit eats a player's time. Everything here is a pure
function of the stored :class:`MatchClock` and a time, so a restarted bot finds every clock to
the second where it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

CORRESPONDENCE = "correspondence"  # the server's hours per move; no match clock
# Tutor mode's "Are you sure?" stops the clock of the one it asks (``MatchClock.pause``); an
# open question gives back at most this much, so one left unanswered cannot hold a match.
QUESTION_GRACE = 600.0


@dataclass(frozen=True, slots=True)
class TimeControl:
    name: str
    delay: float  # seconds per move that cost nothing
    reserve_per_point: float  # seconds of reserve per match point

    def clock(self, seats: int, points: int) -> MatchClock:
        reserve = self.reserve_per_point * max(1, points)
        return MatchClock(self.delay, (reserve,) * seats)


CONTROLS: dict[str, TimeControl] = {
    "casual": TimeControl("casual", 15.0, 180.0),
    "normal": TimeControl("normal", 10.0, 60.0),
}


@dataclass(frozen=True, slots=True)
class MatchClock:
    """Reserves left per seat (as of the start of the running turn), whose clock runs, since
    when, and from which game version on that turn was played."""

    delay: float
    reserves: tuple[float, ...]
    seat: int | None = None
    started: float | None = None
    turn_version: int = 0
    shown: bool = False  # ``started`` is the board's showing, not yet the commit's time
    paused: float | None = None  # since when a tutor's question stops the running clock

    def flag_at(self) -> float | None:
        """When the player on turn loses on time (None: no clock runs)."""
        if self.seat is None or self.started is None:
            return None
        grace = 0.0 if self.paused is None else QUESTION_GRACE
        return self.started + self.delay + self.reserves[self.seat] + grace

    def pause(self, now: float) -> MatchClock:
        """A tutor's question is open from ``now``: the running clock stops (no change when it
        is stopped already or none runs)."""
        if self.seat is None or self.started is None or self.paused is not None:
            return self
        return replace(self, paused=now)

    def resume(self, now: float) -> MatchClock:
        """The question was answered at ``now``: the clock runs on as if it had not been asked
        (up to :data:`QUESTION_GRACE` given back)."""
        if self.paused is None:
            return self
        gone = min(max(0.0, now - self.paused), QUESTION_GRACE)
        started = None if self.started is None else self.started + gone
        return replace(self, started=started, paused=None)

    def left(self, now: float) -> tuple[tuple[float, float], ...]:
        """Per seat, (delay left, reserve left) at ``now``; only the seat on turn's run."""
        if self.paused is not None:
            # Stopped while a tutor's question is open (for up to QUESTION_GRACE).
            stopped = now - self.paused <= QUESTION_GRACE
            now = min(now, self.paused) if stopped else now - QUESTION_GRACE
        out = []
        for seat, reserve in enumerate(self.reserves):
            if seat != self.seat or self.started is None:
                out.append((0.0, reserve))
                continue
            used = max(0.0, now - self.started)
            out.append((max(0.0, self.delay - used), reserve - max(0.0, used - self.delay)))
        return tuple(out)

    def end_turn(self, now: float) -> MatchClock:
        """The seat on turn acted at ``now``: its reserve pays what went past the delay."""
        if self.paused is not None:
            return self.resume(now).end_turn(now)
        if self.seat is None or self.started is None:
            return self
        reserves = list(self.reserves)
        used = max(0.0, now - self.started)
        reserves[self.seat] -= max(0.0, used - self.delay)
        return replace(self, reserves=tuple(reserves), seat=None, started=None, shown=False)

    def begin_turn(self, seat: int | None, now: float, version: int) -> MatchClock:
        """A new turn (``seat`` None: nobody's clock runs, the game is over or the AI is on);
        ``now`` stands until the board is shown (:meth:`shown_at`)."""
        return replace(self, seat=seat, started=now, turn_version=version, shown=False)

    def shown_at(self, version: int, at: float) -> MatchClock | None:
        """The board of ``version`` was shown at ``at``: the running turn's clock starts then,
        once (later boards of the same turn, after a roll say, change nothing). None: no
        change."""
        if self.seat is None or self.shown or version < self.turn_version:
            return None
        started = at if self.started is None else max(self.started, at)
        return replace(self, started=started, shown=True)

    def to_json(self) -> dict[str, Any]:
        return {
            "delay": self.delay,
            "reserves": list(self.reserves),
            "seat": self.seat,
            "started": self.started,
            "turn_version": self.turn_version,
            "shown": self.shown,
            **({} if self.paused is None else {"paused": self.paused}),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> MatchClock:
        return MatchClock(
            delay=float(data["delay"]),
            reserves=tuple(float(r) for r in data["reserves"]),
            seat=None if data.get("seat") is None else int(data["seat"]),
            started=None if data.get("started") is None else float(data["started"]),
            turn_version=int(data.get("turn_version", 0)),
            shown=bool(data.get("shown", False)),
            paused=None if data.get("paused") is None else float(data["paused"]),
        )


def format_seconds(seconds: float) -> str:
    """``m:ss`` (rounded down; never negative)."""
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"
