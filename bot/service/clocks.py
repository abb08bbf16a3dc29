"""Turn clocks: which players are due a reminder, and which games ran out of time.

Deadlines are stored with every action (see :meth:`GameService.act`), so a restarted bot finds
every clock where it was; the UI's sweep asks here and says what needs saying. With several
bot processes (``bot.shards``) each sweeps only the games of its own servers (``owned``): the
one that gets their clicks.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from bot import storage as store
from bot.service.games import GameService
from bot.service.models import Game
from bot.vocabulary.options import CLOCK

LONGEST_TIMEOUT = 30 * 24 * 3600  # the /settings maximum: bounds the reminder query

Owned = Callable[[int | None], bool]  # whether a server (None: a direct message) is ours


def everything(guild_id: int | None) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class Reminder:
    """A game whose player on turn has used half their time; ``deadline`` is when it ends."""

    game: Game
    deadline: float


async def claim_reminders(
    service: GameService, now: float, owned: Owned = everything
) -> AsyncIterator[Reminder]:
    """The games of ``owned`` servers whose player should be reminded now, each claimed as it
    is yielded.

    A reminder is due once less than half the guild's turn time is left (and the time has not
    run out). The claim is stored (a version-checked update), so a second sweep, a restarted
    bot, or a second process on the same shards does not remind the same turn again; the next
    action resets it.
    """
    for row in await store.games_due_for_reminder(service.db, now + LONGEST_TIMEOUT / 2):
        if not owned(row.guild_id) or CLOCK in json.loads(row.options_json):
            continue  # a match clock runs in minutes: the board shows it, no reminders
        timeout = await service.timeout_for(row.guild_id)
        deadline = row.turn_deadline
        if deadline is None or deadline - now > timeout / 2 or deadline <= now:
            continue
        if await store.mark_reminder_sent(service.db, row.id, row.version):
            yield Reminder(await service.load(row.id), deadline)


async def overdue_turns(
    service: GameService, now: float, owned: Owned = everything
) -> list[tuple[str, int]]:
    """(game id, version) of the active games of ``owned`` servers whose turn deadline has
    passed, most overdue first. The version tells a turn already dealt with from a new one of
    the same game."""
    rows = await store.games_past_deadline(service.db, now)
    return [(row.id, row.version) for row in rows if owned(row.guild_id)]


async def claim_notice(service: GameService, game_id: str, kind: str, version: int) -> bool:
    """Claim the ``kind`` notice (``"timeout"``, ``"stand_in"``) about ``game_id`` at
    ``version``: True for the one caller that should post it, across restarts and processes
    (the claim is stored). Give it back with :func:`release_notice` when posting fails."""
    return await store.claim_notice(service.db, game_id, kind, version, service.clock())


async def release_notice(service: GameService, game_id: str, kind: str, version: int) -> None:
    await store.release_notice(service.db, game_id, kind, version)
