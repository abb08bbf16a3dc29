"""Turn clocks in Discord: a reminder at half time, and what happens when time runs out.

Deadlines live in the database (set with every action), so a restarted bot picks up every
clock where it was; this sweep only looks at them.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from bot import storage
from bot.i18n import tr
from bot.ui.names import game_locale

if TYPE_CHECKING:
    from bot.client import TabulaBot

log = logging.getLogger(__name__)

LONGEST_TIMEOUT = 30 * 24 * 3600  # the /settings maximum: bounds the reminder query


class ClockUI:
    def __init__(self, bot: TabulaBot, *, every: float) -> None:
        self.bot = bot
        self.every = every
        self._task: asyncio.Task[None] | None = None
        self._announced: set[tuple[str, int]] = set()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._forever(), name="turn-clocks")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _forever(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:
                log.exception("turn clock sweep failed")
            await asyncio.sleep(self.every)

    async def sweep(self) -> None:
        service = self.bot.service
        now = service.clock()
        for row in await storage.games_due_for_reminder(service.db, now + LONGEST_TIMEOUT / 2):
            timeout = await service.timeout_for(row.guild_id)
            deadline = row.turn_deadline
            if deadline is None or deadline - now > timeout / 2 or deadline <= now:
                continue
            if await storage.mark_reminder_sent(service.db, row.id, row.version):
                game = await service.load(row.id)
                user = game.seat_on_turn.user_id
                if user is not None:
                    await self._say(
                        game.channel_id,
                        tr(
                            "clock.reminder",
                            game_locale(game),
                            user=f"<@{user}>",
                            deadline=f"<t:{int(deadline)}:R>",
                        ),
                    )
        for row in await storage.games_past_deadline(service.db, now):
            if (row.id, row.version) in self._announced:
                continue
            self._announced.add((row.id, row.version))
            game = await service.load(row.id)
            idle = game.seat_on_turn
            if len(game.seats) > 2:
                result = await service.hand_idle_seats_to_ai(game.id)
                if result is not None:
                    await self._say(
                        game.channel_id,
                        tr("clock.stand_in", game_locale(game), user=f"<@{idle.user_id}>"),
                    )
                    await self.bot.driver.publish(result)
                continue
            waiting = [s.user_id for s in game.seats if s.seat != idle.seat and s.user_id]
            await self._say(
                game.channel_id,
                tr(
                    "clock.expired",
                    game_locale(game),
                    idle=f"<@{idle.user_id}>",
                    others=" ".join(f"<@{u}>" for u in waiting),
                ),
            )
            await self.bot.driver.show(game)  # redraw with the Claim button

    async def _say(self, channel_id: int, text: str) -> None:
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            await channel.send(
                text, allowed_mentions=discord.AllowedMentions(users=True, roles=False)
            )
        except discord.HTTPException:
            log.info("could not post a clock notice in %s", channel_id)
