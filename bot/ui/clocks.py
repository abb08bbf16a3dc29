"""Turn clocks in Discord: a reminder at half time, and what happens when time runs out.

Deadlines live in the database (set with every action), so a restarted bot picks up every
clock where it was; this sweep only looks at them, and only at the games of this process's
servers (``bot.shards``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from bot.i18n import tr
from bot.service.clocks import claim_reminders, overdue_turns
from bot.shards import ShardPlan
from bot.ui.names import game_locale

if TYPE_CHECKING:
    from bot.ui.driver import GameDriver
    from bot.ui.services import Services

log = logging.getLogger(__name__)


class ClockUI:
    def __init__(self, services: Services, driver: GameDriver, *, every: float) -> None:
        self.services = services
        self.driver = driver
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
        service = self.services.games
        now = service.clock()
        owned = ShardPlan.of_client(self.services.client).owns
        async for reminder in claim_reminders(service, now, owned):
            game = reminder.game
            user = game.seat_on_turn.user_id
            if user is not None:
                log.info("clock: reminding the player on turn in game %s", game.id)
                await self._say(
                    game.channel_id,
                    tr(
                        "clock.reminder",
                        game_locale(game),
                        user=f"<@{user}>",
                        deadline=f"<t:{int(reminder.deadline)}:R>",
                    ),
                )
        for turn in await overdue_turns(service, now, owned):
            if turn in self._announced:
                continue
            self._announced.add(turn)
            game = await service.load(turn[0])
            if game.timer is not None:  # a match clock: out of reserve is out of the match
                lost = await service.lose_on_time(game.id)
                if lost is not None:
                    log.info("clock: game %s lost on time", game.id)
                    await self.driver.publish(lost)
                continue
            idle = game.seat_on_turn
            if len(game.seats) > 2:
                result = await service.hand_idle_seats_to_ai(game.id)
                if result is not None:
                    await self._say(
                        game.channel_id,
                        tr("clock.stand_in", game_locale(game), user=f"<@{idle.user_id}>"),
                    )
                    await self.driver.publish(result)
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
            await self.driver.show(game)  # redraw with the Claim button

    async def _say(self, channel_id: int, text: str) -> None:
        # No interaction asked for it: a bot-token post, paced within the budgets.
        await self.services.pacer.post(channel_id)
        channel = self.services.client.get_partial_messageable(channel_id)
        try:
            await channel.send(
                text, allowed_mentions=discord.AllowedMentions(users=True, roles=False)
            )
        except discord.HTTPException:
            log.info("could not post a clock notice in %s", channel_id)
