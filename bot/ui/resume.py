"""The resume sweep: games whose next step is the bot's get it, whatever fault cut it short.

Every few seconds (``RESUME_SWEEP_SECONDS``) the sweep asks the service which active games of
this process's servers wait for the bot (``bot.service.resume``) and, for those nothing in
this process is driving now (no AI turn running, no board being drawn):

- a board behind the stored version for a while is drawn again (its drawing failed after
  the change was stored: Discord refused, the database went away before its id was saved,
  or the change's COMMIT answer was lost);
- an AI seat on turn gets its AI task again (a step that failed for good, a task that ended
  on a stale game).

The AI task itself tries a step again after a transient database fault (``GameDriver``), so
the sweep is the net under it, not the first line. Exactly once still holds: every step and
every board carry the version they are for.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.periodic import Periodic
from bot.service.outages import transient
from bot.service.resume import waiting_games
from bot.shards import ShardPlan
from bot.ui.component import Component

if TYPE_CHECKING:
    from bot.ui.driver import GameDriver
    from bot.ui.services import Services

log = logging.getLogger(__name__)

# A board behind for less than this is probably being drawn right now (a click's board
# between its COMMIT and its lock): left to whoever drives it.
SETTLE_SECONDS = 2.0


class Resumer(Component):
    def __init__(self, services: Services, driver: GameDriver, *, every: float) -> None:
        self.services = services
        self.driver = driver
        self.periodic = Periodic(
            "resume-sweep", self.sweep, every=every, first_delay=every, expected=transient
        )
        self.resumed = 0  # games resumed since start (for tests and logs)

    async def recover(self) -> None:
        # Its first round after the start-up's own redraw (GameDriver.recover, listed before
        # it), which it would repeat; also when that failed (the database away): the sweep
        # then does its work.
        self.periodic.start()

    async def stop(self) -> None:
        await self.periodic.stop()

    async def sweep(self) -> None:
        await self.services.shown.flush()  # boards drawn since the last flush are not behind
        owned = ShardPlan.of_client(self.services.client).owns
        for waiting in await waiting_games(self.services.games, owned):
            game = waiting.game
            if self.driver.busy(game.id):
                continue
            if waiting.board_behind and waiting.idle_seconds >= SETTLE_SECONDS:
                log.info(
                    "resume: redrawing the board of game %s (version %d)", game.id, game.version
                )
                self.resumed += 1
                trouble = await self.driver.show(game)  # starts the AI too, if on turn
                if trouble is not None:
                    log.warning("resume: game %s still not shown: %s", game.id, trouble.reason)
            elif waiting.ai_on_turn:
                log.info("resume: the AI seat on turn in game %s moves again", game.id)
                self.resumed += 1
                self.driver.ai.schedule(game)
