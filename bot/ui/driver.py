"""Drives games in Discord: answers clicks, keeps each game's message current, runs AI seats.

A click is acknowledged first (a deferred update, within milliseconds), then the service
applies it, the board is rendered in a worker thread and the game message is edited. When the
turn passes to another person a new message mentions them (edits do not notify) and the old
message loses its buttons. All of it goes through the click's own interaction while its
token works, the AI's moves after the click too; the bot token only where none does
(``bot.ui.delivery``).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import time
from typing import Any

import discord

from bot.i18n import tr
from bot.service.models import ActionResult, Game
from bot.shards import ShardPlan
from bot.ui import texts
from bot.ui.ai_seats import AiSeats
from bot.ui.board_messages import (
    BoardMessages,
    BoardTrouble,
    board_trouble_text,
    log_board_failure,
    trouble_for,
)
from bot.ui.board_view import GO_ON
from bot.ui.buttons import GAME, GameClick, Route
from bot.ui.clicks import Clicks, book
from bot.ui.component import Component
from bot.ui.delivery import Courier
from bot.ui.replies import follow_up, locale_of, send_ephemeral
from bot.ui.services import Services
from bot.ui.summaries import after_part_end
from bot.ui.tutor_question import ask_privately
from bot.ui.venues import viewer_of
from bot.vocabulary.errors import WrongChannel

log = logging.getLogger(__name__)

REFRESH_CONCURRENCY = 4  # boards redrawn at once after a restart
SHOW_TRIES = 5  # a board drawn again while another process keeps changing its game


class GameDriver(Component):
    def __init__(self, services: Services, clicks: Clicks, *, ai_delay: float) -> None:
        self.services = services
        self.client = services.client
        self.service = services.games
        self.shown = services.shown
        self.clicks = clicks
        self.live = services.games.live  # each game's owner: its locks and its AI task
        self.courier = Courier(services.outbox, services.clock)
        self.boards = BoardMessages(services, self.courier)
        self.ai = AiSeats(services, clicks, self.courier, self.publish, delay=ai_delay)
        self.routes = [Route(GAME, clicks.guard(self.on_action, kind="game action"))]

    # --------------------------------------------------------------------------- clicks

    async def on_action(
        self, interaction: discord.Interaction[Any], fields: GameClick, on_message: bool
    ) -> None:
        """A click on a game's board. ``on_message``: the button is on the clicked message,
        so that message may become the game's board (see ``_adopt_and_publish``)."""
        started = time.perf_counter()
        await interaction.response.defer()  # acknowledge first: well inside 3 s
        mark = book("ack", started)
        warn_if_late(interaction, self.services.clock.now_utc())
        if fields.token == GO_ON:
            await self._go_on(interaction, fields.game_id, fields.version)
            return
        result = await self.service.act(
            fields.game_id,
            interaction.user.id,
            fields.version,
            fields.token,
            channel_id=interaction.channel_id,
            viewer=viewer_of(interaction),
        )
        book("store", mark)
        if result.question is not None:  # tutor mode: "Are you sure?", nothing was stored
            self.courier.keep(result.after.id, interaction)  # the answer's board goes here
            await ask_privately(interaction, result.after, result.question, locale_of(interaction))
            return
        # This click's interaction shows the game from now on (the AI's moves after it too),
        # so its boards cost nothing of the bot token's budget while the token works.
        self.courier.keep(result.after.id, interaction)
        # Stored: from here on the player hears what happened, never "nothing changed".
        trouble = await self._adopt_and_publish(interaction, result, adopt=on_message)
        if trouble is not None:
            await send_ephemeral(interaction, board_trouble_text(trouble, locale_of(interaction)))

    async def _go_on(
        self, interaction: discord.Interaction[Any], game_id: str, version: int
    ) -> None:
        """Continue, on a DM board whose AI seat is on turn: this click's interaction carries
        the AI's moves (none was left after a restart). Nothing is stored by the click."""
        game = await self.service.find(game_id, viewer_of(interaction))
        if interaction.channel_id != game.channel_id:
            raise WrongChannel()  # its AI's boards would be posted through this click
        if game.finished or game.version != version or not game.seat_on_turn.is_ai:
            return  # the AI moved meanwhile: its board is on its way
        self.courier.keep(game.id, interaction)
        self.ai.schedule(game)

    async def _adopt_and_publish(
        self, interaction: discord.Interaction[Any], result: ActionResult, *, adopt: bool
    ) -> BoardTrouble | None:
        message = interaction.message
        clicked = message.id if message is not None and not message.flags.ephemeral else None
        if adopt and clicked is not None and clicked != result.after.message_id:
            # A current board the game did not know as its own: the bot died after posting
            # it and before storing its id. The board people use wins, and the one the game
            # knew (refreshed with buttons at start-up) loses them.
            try:
                played = await self.service.set_message(result.after.id, clicked)
            except Exception as error:
                log.exception("could not adopt board %s of game %s", clicked, result.after.id)
                return trouble_for(error)
            if result.after.message_id is not None:
                old = result.after.message_id
                await self.boards.retire(result.after, old, played, "strip buttons")
        return await self.publish(result)

    # --------------------------------------------------------------------------- messages

    async def publish(self, result: ActionResult) -> BoardTrouble | None:
        """Show ``result`` in Discord and start the AI if it is on turn now.

        The change is stored already, so nothing here may undo or hide it: a board that
        cannot be shown is reported (the caller tells the player), never raised, and the
        game goes on regardless (AI seats move, clocks run).
        """
        after = result.after
        trouble: BoardTrouble | None = None
        owner = self.live.get(after.id)
        try:
            async with owner.board:
                # The owner's copy: a board posted meanwhile changed the message id, a
                # hand-over the seats. Read from the database only where none is kept.
                after = owner.game or await self.service.load(after.id)
                if after.version == result.after.version:  # else a newer change is on its way
                    notify = result.newly_on_turn is not None
                    # A game of a match ended: its result gets a board of its own, and the
                    # next game starts on a new one below it, which tells only what was
                    # played after that game's end (the board above it stops there).
                    ended = await self.boards.show_game_endings(after, result)
                    new = notify or ended or after.message_id is None
                    # A board edited in place tells everything played on it (the AI's
                    # steps whose boards waited, what was played for a person); a new one
                    # what this change played (the one it replaces tells the rest).
                    shown = (
                        after_part_end(after, result.events)
                        if new
                        else await self.service.board_events(after)
                    )
                    trouble = await self.boards.display(
                        after,
                        texts.board_text(after, shown),
                        new=new,
                        mention=result.newly_on_turn,
                    )
        except Exception as error:  # e.g. the render failed: the move stands all the same
            log_board_failure(error, "could not show game %s after a stored change", after.id)
            trouble = trouble_for(error)
        self._carry_on(after)
        return trouble

    def _carry_on(self, game: Game) -> None:
        """After a board: the AI moves if it is on turn; a game over is let go."""
        if game.finished:
            self.service.release(game.id)
        else:
            self.ai.schedule(game)

    async def show(
        self,
        game: Game,
        *,
        repost: bool = False,
        mention: bool = False,
        via: discord.Interaction[Any] | None = None,
        held: bool = False,
    ) -> BoardTrouble | None:
        """Draw ``game`` as it stands (a new game, after a restart, or for /board).

        ``via``: the click that started the game (an Accept, a Rematch); where it was made in
        the game's channel, the board is its followup and the game keeps it (a thread's first
        board cannot be: an interaction answers only in its own channel). ``held``: the
        caller holds the game's board lock (a new game's start,
        :meth:`~bot.service.games.GameService.opening`)."""
        if via is not None and via.channel_id == game.channel_id:
            self.courier.keep(game.id, via)
        trouble: BoardTrouble | None = None
        for _ in range(SHOW_TRIES):
            try:
                async with self._board_lock(game.id, held):
                    game = await self.service.load(game.id)  # as it is now, not as it was
                    # What was played on the board so far (a new game's opening roll, its
                    # ties, the rolls and forced moves made before anyone clicked).
                    played = await self.service.board_events(game)
                    words = texts.board_text(game, played, show_hash=True)
                    on_turn = None if game.finished else game.seat_on_turn.user_id
                    trouble = await self.boards.display(
                        game,
                        words,
                        new=repost or game.message_id is None,
                        mention=on_turn if mention else None,
                    )
                # Another process on the same shard (a rolling deploy's overlap) may have
                # stored and shown a newer change while this board was drawn: its board must
                # not stay under this older one, so it is drawn again over it.
                if trouble is not None or not await self.service.changed_elsewhere(game):
                    break
                log.info("game %s changed elsewhere while its board was drawn", game.id)
                repost = mention = False
            except Exception as error:
                log_board_failure(error, "could not show game %s", game.id)
                trouble = trouble_for(error)
                break
        self._carry_on(game)  # e.g. the AI won backgammon's opening roll
        return trouble

    def _board_lock(self, game_id: str, held: bool) -> contextlib.AbstractAsyncContextManager[Any]:
        return contextlib.nullcontext() if held else self.live.get(game_id).board

    async def send_private_board(
        self, interaction: discord.Interaction[Any], game: Game, trouble: BoardTrouble
    ) -> None:
        """The board as an ephemeral follow-up for the one who asked (/board), when the bot
        cannot post in the channel: interaction replies need no channel permission."""
        game = await self.service.load(game.id)
        locale = locale_of(interaction)
        note = tr("board.private", locale, reason=tr(trouble.reason, locale, status=trouble.status))
        words = texts.board_text(game, (), show_hash=True)
        picture = await self.boards.render(game, viewer=interaction.user.id)
        layout = self.boards.layout(game, words, picture, note=note)
        await follow_up(interaction, files=[picture.file()], view=layout)

    def busy(self, game_id: str) -> bool:
        """Whether a change, an AI turn or a board of the game is under way in this process."""
        owner = self.live.peek(game_id)
        return owner is not None and owner.busy

    async def recover(self) -> None:
        """After a (re)start: redraw the boards that are behind their game (the longest
        waiting first, one at a time, so a restart with many games stays inside Discord's
        rate limits), then restart the AI seats on turn. Only the games of this process's
        servers (``bot.shards``): the others belong to the processes that get their clicks."""
        owned = ShardPlan.of_client(self.client).owns
        await self.shown.flush()  # boards drawn since start-up (recovered challenges) count
        behind = await self.service.boards_behind(owned)
        # A few at a time, in the order of their last change: each board is in a channel of
        # its own, so this stays far below Discord's global limit of 50 requests a second.
        gate = asyncio.Semaphore(REFRESH_CONCURRENCY)

        async def refresh(game: Game) -> bool:
            async with gate:
                # A game this process started or moved since it connected (a click before
                # this redraw) shows its board by its own path: let that finish and count
                # its mark, or the person would get a second board and a stale first one.
                async with self.live.get(game.id).board:
                    pass
                await self.shown.flush()
                if not await self.service.board_behind(game.id):
                    return False
                log.info("start-up: redrawing the board of game %s", game.id)
                trouble = await self.show(game)
            if trouble is not None:
                log.warning("could not refresh game %s: %s", game.id, trouble.reason)
            return True

        redrawn = await asyncio.gather(*(refresh(game) for game in behind))
        refreshed = {game.id for game in behind}
        for game in await self.service.active_games(owned):
            if game.id not in refreshed:
                self.ai.schedule(game)
        log.info("start-up: %d of the active boards were behind and were redrawn", sum(redrawn))

    async def stop(self) -> None:
        await self.ai.stop()
        sent, paced = self.courier.stats, self.services.pacer.stats
        log.info(
            "boards through interactions: %d edits, %d posts; with the bot token: %d edits, "
            "%d posts (%s), %d tokens refused; the pacer held %d requests for %.1f s in all",
            sent.interaction_edits,
            sent.interaction_posts,
            sent.token_edits,
            sent.token_posts,
            ", ".join(f"{why} {n}" for why, n in sorted(sent.by_reason.items())) or "-",
            sent.tokens_refused,
            paced.held,
            paced.held_seconds,
        )


ACK_WARNING_SECONDS = 1.5  # half of Discord's 3 s deadline


def warn_if_late(interaction: discord.Interaction[Any], now: datetime.datetime) -> None:
    """Log acknowledgements that came close to Discord's deadline (from the interaction's own
    creation time: this includes gateway and event-loop delays, not only our code). ``now``:
    the bot's clock (``bot.clock``), on which Discord's timestamps are read."""
    waited = (now - interaction.created_at).total_seconds()
    if waited > ACK_WARNING_SECONDS:
        log.warning(
            "late acknowledgement: %.2f s after the click (deadline 3 s) user=%s channel=%s",
            waited,
            interaction.user.id,
            interaction.channel_id,
        )


__all__ = ["GameDriver", "warn_if_late"]
