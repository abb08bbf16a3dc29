"""The owner of each live game in this process: its lock, its cached game, the events played
on its current board and its AI task, in one place, dropped when the game ends or idles.

Nothing here lives only in memory: the game is stored, and the events since its board are
the logged actions after the board's ``message_seq``, rebuilt from the log (one replay) when
they are not known (after a restart, an eviction, or a fault that left the cache in doubt).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Protocol

from bot.engines.common import Replay
from bot.service.models import Event, Game
from bot.service.owners import Owners
from bot.vocabulary.options import engine_options

# A game nobody touched for this long, or the least recently used past this many, is read
# from the database again when next used (and its board's events from the log, once).
IDLE_SECONDS = 60 * 60
MOST_KEPT = 2000


class LoggedAction(Protocol):
    """One stored action as the log holds it (``bot.storage.ActionRow`` is one)."""

    @property
    def seat(self) -> int | None: ...

    @property
    def kind(self) -> str: ...

    @property
    def notation(self) -> str: ...


def events_from_log(game: Game, log: Sequence[LoggedAction], since: int = 0) -> list[Event]:
    """The events of ``log[since:]``, ``log`` being the game's whole action log, from one
    replay of it. The log does not say what was played for a player, so no rebuilt event is
    ``automatic``."""
    steps = Replay(game.rules, engine_options(game.options), [row.notation for row in log])
    events = []
    for row, (before, action, after) in zip(log, steps, strict=True):
        if steps.done > since:
            seat = -1 if row.seat is None else row.seat
            events.append(Event(seat, row.notation, False, row.kind, before, action, after))
    return events


class LiveGame:
    """One game's runtime state. ``lock`` serialises its changes (the service's), ``board``
    the drawing of its boards (the driver's publisher): a board is drawn while the next
    change is being stored, and the drawing checks it still shows the newest version."""

    __slots__ = ("_events", "_since", "ai_task", "board", "game", "id", "lock", "replaced", "used")

    def __init__(self, game_id: str, now: float) -> None:
        self.id = game_id
        self.lock = asyncio.Lock()
        self.board = asyncio.Lock()
        self.game: Game | None = None
        self.ai_task: asyncio.Task[None] | None = None
        self.used = now
        # The logged events after action number ``_since`` (the board's ``message_seq``, or
        # older while a new board's id is being stored); None: not known, read from the log.
        self._events: list[Event] | None = None
        self._since = 0
        self.replaced: tuple[Event, ...] = ()  # what was played on the board before this one

    @property
    def busy(self) -> bool:
        """Whether a change, a board or an AI turn of the game is under way."""
        running = self.ai_task is not None and not self.ai_task.done()
        return running or self.lock.locked() or self.board.locked()

    def remember(self, game: Game) -> None:
        """Cache ``game``, keeping the newest message id: a board may have been posted (and
        its id recorded) while this change was being applied."""
        cached = self.game
        if cached is not None and cached.message_id != game.message_id:
            game = replace(game, message_id=cached.message_id, message_seq=cached.message_seq)
        self.game = game

    def played(self, after: Game, events: Sequence[Event]) -> None:
        """``events`` were stored, ``after.logged`` being the log's length after them."""
        logged = [e for e in events if e.kind != "stand_in"]  # a hand-over is not logged
        if self._events is not None and self._since + len(self._events) + len(logged) == (
            after.logged
        ):
            self._events.extend(logged)
        else:  # a change this process did not see came between: read the log when needed
            self._events = None
        self.remember(after)

    def forget(self) -> None:
        """The cached game may be wrong (changed elsewhere, a COMMIT whose answer was lost)."""
        self.game = None
        self._events = None

    def known_since(self, seq: int) -> list[Event] | None:
        """The events after action number ``seq``, if this owner holds them all."""
        if self._events is None or seq < self._since:
            return None
        return self._events[seq - self._since :]

    def rebuilt(self, seq: int, events: Sequence[Event]) -> None:
        """The events after action number ``seq``, as read back from the log."""
        self._since, self._events = seq, list(events)

    def board_posted(self, old_seq: int, new_seq: int) -> list[Event] | None:
        """A new board took over at action number ``new_seq``: the events played on the old
        one (from ``old_seq``), if known; those after ``new_seq`` stay for the new board."""
        known = self.known_since(old_seq)
        if known is None or new_seq < old_seq:
            self._events = None
            return None
        cut = new_seq - old_seq
        if cut > len(known):  # actions stored elsewhere meanwhile: not all of them are here
            self._events = None
            return None
        self._since, self._events = new_seq, known[cut:]
        return known[:cut]


class LiveGames(Owners[str, LiveGame]):
    """The owners of the games this process has in hand, least recently used first. An owner
    nobody used for ``idle_seconds``, or the least recently used beyond ``most``, goes when
    the next one comes (unless it is busy); a finished game's goes once its final board is
    shown (:meth:`drop`)."""

    def __init__(
        self,
        *,
        idle_seconds: float = IDLE_SECONDS,
        most: int = MOST_KEPT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(LiveGame, idle_seconds=idle_seconds, most=most, clock=clock)

    def cached(self, game_id: str) -> Game | None:
        owner = self.peek(game_id)
        return None if owner is None else owner.game


__all__ = ["IDLE_SECONDS", "MOST_KEPT", "LiveGame", "LiveGames", "LoggedAction", "events_from_log"]
