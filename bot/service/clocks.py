"""Turn clocks: which players are due a reminder, and which games ran out of time.

Deadlines are stored with every action (see :meth:`GameService.act`), so a restarted bot finds
every clock where it was; the UI's sweep asks here and says what needs saying.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

from bot import storage as store
from bot.service.games import GameService
from bot.service.models import Game

LONGEST_TIMEOUT = 30 * 24 * 3600  # the /settings maximum: bounds the reminder query


@dataclass(frozen=True, slots=True)
class Reminder:
    """A game whose player on turn has used half their time; ``deadline`` is when it ends."""

    game: Game
    deadline: float


async def claim_reminders(service: GameService, now: float) -> AsyncIterator[Reminder]:
    """The games whose player should be reminded now, each claimed as it is yielded.

    A reminder is due once less than half the guild's turn time is left (and the time has not
    run out). The claim is stored, so a second sweep, or a restarted bot, does not remind the
    same turn again; the next action resets it.
    """
    for row in await store.games_due_for_reminder(service.db, now + LONGEST_TIMEOUT / 2):
        timeout = await service.timeout_for(row.guild_id)
        deadline = row.turn_deadline
        if deadline is None or deadline - now > timeout / 2 or deadline <= now:
            continue
        if await store.mark_reminder_sent(service.db, row.id, row.version):
            yield Reminder(await service.load(row.id), deadline)


async def overdue_turns(service: GameService, now: float) -> list[tuple[str, int]]:
    """(game id, version) of the active games whose turn deadline has passed, most overdue
    first. The version tells a turn already dealt with from a new one of the same game."""
    return [(row.id, row.version) for row in await store.games_past_deadline(service.db, now)]
