"""Turn clocks in Discord: a reminder at half time, and what happens when time runs out.

Deadlines live in the database (set with every action), so a restarted bot picks up every
clock where it was; this sweep only looks at them, and only at the games of this process's
servers (``bot.shards``). Its notices are claimed in the database before they are posted
(reminders on the game row, the others in ``notices``), so each is posted once across
restarts and processes; one that could not be posted is given back for the next sweep.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.i18n import tr
from bot.periodic import Periodic
from bot.service.clocks import claim_notice, claim_reminders, overdue_turns, release_notice
from bot.service.outages import transient
from bot.shards import ShardPlan
from bot.ui.board_view import interaction_only
from bot.ui.component import Component
from bot.ui.mentions import pinging
from bot.ui.names import game_locale

if TYPE_CHECKING:
    from bot.ui.driver import GameDriver
    from bot.ui.services import Services

log = logging.getLogger(__name__)


class ClockUI(Component):
    def __init__(self, services: Services, driver: GameDriver, *, every: float) -> None:
        self.services = services
        self.driver = driver
        self.every = every
        self.periodic = Periodic("turn-clocks", self.sweep, every=every, expected=transient)
        # Turns dealt with by this process: skipped without asking the database again.
        self._announced: set[tuple[str, int]] = set()

    def start(self) -> None:
        self.periodic.start()

    async def stop(self) -> None:
        await self.periodic.stop()

    async def sweep(self) -> None:
        service = self.services.games
        now = service.clock()
        owned = ShardPlan.of_client(self.services.client).owns
        async for reminder in claim_reminders(service, now, owned):
            game = reminder.game
            user = game.seat_on_turn.user_id
            if user is not None and not interaction_only(game.guild_id):  # DMs: no reminders
                log.info("clock: reminding the player on turn in game %s", game.id)
                await self._say(
                    game.channel_id,
                    tr(
                        "clock.reminder",
                        game_locale(game),
                        user=f"<@{user}>",
                        deadline=f"<t:{int(reminder.deadline)}:R>",
                    ),
                    [user],
                )
        for turn in await overdue_turns(service, now, owned):
            if turn in self._announced:
                continue
            game_id, version = turn
            game = await service.load(game_id)
            if game.timer is not None:  # a match clock: out of reserve is out of the match
                lost = await service.lose_on_time(game.id)
                self._announced.add(turn)
                if lost is not None:
                    log.info("clock: game %s lost on time", game.id)
                    await self.driver.publish(lost)
                continue
            if interaction_only(game.guild_id):
                # A DM game: the bot token cannot post there, and its board has offered the
                # Claim button from the start (``GameDriver._buttons``).
                self._announced.add(turn)
                continue
            idle = game.seat_on_turn
            if len(game.seats) > 2:
                # The hand-over is stored first (a game once handed over is not overdue any
                # more, so a failure here is simply tried again next round); its notice is
                # claimed before it is posted, so a twin process does not post it too.
                result = await service.hand_idle_seats_to_ai(game.id)
                self._announced.add(turn)
                if result is None:
                    continue
                if await claim_notice(service, game_id, "stand_in", version):
                    await self._say(
                        game.channel_id,
                        tr("clock.stand_in", game_locale(game), user=f"<@{idle.user_id}>"),
                        [idle.user_id],
                    )
                await self.driver.publish(result)
                continue
            if await claim_notice(service, game_id, "timeout", version):
                waiting = [s.user_id for s in game.seats if s.seat != idle.seat and s.user_id]
                posted = await self._say(
                    game.channel_id,
                    tr(
                        "clock.expired",
                        game_locale(game),
                        idle=f"<@{idle.user_id}>",
                        others=" ".join(f"<@{u}>" for u in waiting),
                    ),
                    [idle.user_id, *waiting],
                )
                if not posted:  # Discord refused: the next round tries again
                    await release_notice(service, game_id, "timeout", version)
                    continue
            # Posted now or before (a previous run of the bot): the board must offer the Claim
            # button either way; a board Discord did not take is drawn again next round.
            if await self.driver.show(game) is None:
                self._announced.add(turn)

    async def _say(self, channel_id: int, text: str, pinged: Sequence[int | None]) -> bool:
        """Post ``text``, pinging ``pinged`` only; False when Discord did not take it."""
        # No interaction asked for it: a bot-token post, paced within the budgets.
        try:
            await self.services.outbox.post(
                channel_id, content=text, allowed_mentions=pinging(pinged)
            )
        except discord.HTTPException:
            log.info("could not post a clock notice in %s", channel_id)
            return False
        return True
