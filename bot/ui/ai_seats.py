"""The AI seats of the games in this process: one task per game whose AI is on turn (kept on
the game's owner, ``LiveGame.ai_task``), making one step at a time through the game service
and handing each stored step to the driver to show.

A step is its own tracked task, shielded from a shutdown: once started it is stored and shown
in full. A database fault retries the same step later (it carries the version it was
computed for, so a step stored after all is refused, never made twice); a step made first by
another process on the same shard ends the task, and the resume sweep picks the game up
should the AI still be on turn.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import random
from collections.abc import Awaitable, Callable

from bot.service.models import ActionResult, Game
from bot.service.outages import transient
from bot.ui.board_view import interaction_only
from bot.ui.clicks import Clicks
from bot.ui.delivery import Courier
from bot.ui.services import Services
from bot.ui.summaries import part_end
from bot.vocabulary.errors import StaleAction

log = logging.getLogger(__name__)

AI_RETRY_FIRST, AI_RETRY_MOST = 0.25, 2.0  # seconds: an AI step tried again after a fault


class AiSeats:
    """Runs the AI seats on turn. ``publish`` shows a stored step (the driver's)."""

    def __init__(
        self,
        services: Services,
        clicks: Clicks,
        courier: Courier,
        publish: Callable[[ActionResult], Awaitable[object]],
        *,
        delay: float,
    ) -> None:
        self.service = services.games
        self.live = services.games.live
        self.clicks = clicks
        self.courier = courier
        self.publish = publish
        self.delay = delay

    def schedule(self, game: Game) -> None:
        """Start the AI's task for ``game`` if an AI seat is on turn and none runs yet."""
        if game.finished or not game.seat_on_turn.is_ai:
            return
        owner = self.live.get(game.id)
        if owner.ai_task is not None and not owner.ai_task.done():
            return
        owner.ai_task = asyncio.create_task(
            self._run(game.id, away=interaction_only(game.guild_id)),
            name=f"ai-{game.id}",
            context=contextvars.Context(),
        )

    async def _run(self, game_id: str, *, away: bool = False) -> None:
        """``away``: a game outside any server, shown through interactions only: the AI moves
        while one is usable, else it waits for the next click (the board says so)."""
        failures = 0
        try:
            while True:
                await asyncio.sleep(self.delay if not failures else ai_backoff(failures))
                if self.clicks.draining:
                    return
                if away and self.courier.reach(game_id) is None:
                    log.info("AI turn in game %s waits for a click (no interaction)", game_id)
                    return
                # Its own tracked task, shielded from stop(): a move once started is stored and
                # shown in full (cut between posting a board and storing its id, it would leave
                # two live boards behind).
                step = asyncio.create_task(self._move(game_id), name=f"ai-move-{game_id}")
                self.clicks.track(step)
                try:
                    result = await asyncio.shield(step)
                except Exception as error:
                    if not transient(error):
                        raise
                    # The database is away, busy or silent: the same step again, later.
                    failures += 1
                    log.log(
                        logging.WARNING if failures == 1 else logging.DEBUG,
                        "AI turn in game %s failed (%s); trying again (attempt %d)",
                        game_id,
                        error,
                        failures + 1,
                    )
                    continue
                if failures:
                    log.info("AI turn in game %s went through after %d failures", game_id, failures)
                    failures = 0
                if result is None or result.after.finished or not result.after.seat_on_turn.is_ai:
                    return
        except asyncio.CancelledError:
            raise
        except StaleAction:
            # The game moved on under this move: another process on the same shard (during a
            # rolling deploy, or started by mistake) made it first. It carries on from there,
            # and the resume sweep picks the game up should the AI still be on turn.
            log.info("AI turn in game %s was made elsewhere first; stopping here", game_id)
        except Exception:
            log.exception("AI turn failed in game %s", game_id)

    async def _move(self, game_id: str) -> ActionResult | None:
        result = await self.service.ai_step(game_id)
        if result is not None and not self._shown_at_turns_end(result):
            await self.publish(result)
        return result

    def _shown_at_turns_end(self, result: ActionResult) -> bool:
        if part_end(result.after, result.events) is not None:
            return False  # a game of the match ended: its result is shown now, in its place
        return board_waits_for_run_end(
            result, reachable=self.courier.reach(result.after.id) is not None
        )

    async def stop(self) -> None:
        """Cancel the AI tasks (a step under way finishes: it is tracked by the clicks)."""
        tasks = [owner.ai_task for owner in self.live if owner.ai_task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def board_waits_for_run_end(result: ActionResult, *, reachable: bool) -> bool:
    """Whether an AI move's board waits for the end of the AI's run: another AI move follows
    and no click's interaction could show it (``reachable``), so each board would cost the bot
    token. Without it a Ludo table whose person cannot move (their roll is automatic) spent
    one bot-token edit per AI move, 0.2 a click under load; the run's board comes when a
    person is on turn or the game ends (the AI task counts as drawing it), or when the step
    rolled for a person who then had no move: they see their own dice once a round, not a
    board that stands still while the table plays on without them."""
    after = result.after
    rolled_for_a_person = any(
        0 <= event.seat < len(after.seats) and not after.seats[event.seat].is_ai
        for event in result.events
    )
    return (
        not after.finished
        and after.seat_on_turn.is_ai
        and not rolled_for_a_person
        and not reachable
    )


def ai_backoff(failures: int) -> float:
    """The pause before the next try of an AI step that failed ``failures`` times: doubling,
    at most a few seconds (so a game is moving again soon after the database is back), and
    jittered, so the games stuck in one outage do not all knock at once."""
    return random.uniform(0.5, 1.0) * min(AI_RETRY_MOST, AI_RETRY_FIRST * 2.0 ** (failures - 1))


__all__ = ["AI_RETRY_FIRST", "AI_RETRY_MOST", "AiSeats", "ai_backoff", "board_waits_for_run_end"]
