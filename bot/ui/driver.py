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
import contextvars
import functools
import logging
import random
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import discord

from bot.engines.common import Phase
from bot.i18n import tr
from bot.service.models import ActionResult, Choice, Event, Game
from bot.service.outages import transient
from bot.service.preferences import Preferences
from bot.shards import ShardPlan
from bot.ui import boards, texts
from bot.ui.buttons import GAME, ButtonId, GameClick, Route, game_button
from bot.ui.clicks import Clicks, book, book_ms
from bot.ui.delivery import Courier, NoInteraction, Picture, interaction_only
from bot.ui.mentions import pinging
from bot.ui.names import Speaker, game_locale, picture_name
from bot.ui.replies import MISSING_ACCESS, follow_up, locale_of, send_ephemeral
from bot.ui.services import Services
from bot.ui.summaries import after_part_end, board_summary, part_end
from bot.ui.venues import viewer_of
from bot.vocabulary.errors import StaleAction, WrongChannel
from renderers import PlayerInfo, render_png

log = logging.getLogger(__name__)

SLOW_RENDER_SECONDS = 0.25
# Boards are drawn by this many threads of their own. Each board is CPU work, and the two
# cores are shared with the event loop and the database thread: more render threads only
# take turns at the interpreter lock, and the event loop waits behind them. With 400 games
# on 2 cores, 2 render threads halved the acknowledgements' p99 against the default pool's 6
# (34-58 ms against 97-103 ms) at the same CPU per click (benchmarks/load.py, README).
RENDER_THREADS = 2
REFRESH_CONCURRENCY = 4  # boards redrawn at once after a restart


def _timed_render(state: Any, **options: Any) -> tuple[bytes, float]:
    """The board's PNG and the CPU time this thread spent drawing it (wall time under load
    includes waiting for the interpreter; CPU time is what the board itself costs)."""
    started = time.thread_time()
    png = render_png(state, **options)
    return png, time.thread_time() - started


# The button of a DM board whose AI seat is on turn (see ``GameDriver._go_on``).
GO_ON = "continue"


class GameDriver:
    def __init__(self, services: Services, clicks: Clicks, *, ai_delay: float) -> None:
        self.services = services
        self.client = services.client
        self.service = services.games
        self.shown = services.shown
        self.clicks = clicks
        self.ai_delay = ai_delay
        self.live = services.games.live  # each game's owner: its locks and its AI task
        # Left running at stop(): a move still finishing after the grace period draws its board
        # here, and idle workers end with the interpreter.
        self._renders = ThreadPoolExecutor(RENDER_THREADS, thread_name_prefix="tabula-render")
        self.courier = Courier(services.outbox)
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
        warn_if_late(interaction)
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
        self.schedule_ai(game)

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
                await self._retire(result.after, result.after.message_id, played, "strip buttons")
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
                    notify = (
                        not after.finished
                        and not after.seat_on_turn.is_ai
                        and after.seat_on_turn.user_id != result.before.seat_on_turn.user_id
                    )
                    # A game of a match ended: its result gets a board of its own, and the
                    # next game starts on a new one below it, which tells only what was
                    # played after that game's end (the board above it stops there).
                    ended = await self._show_game_endings(after, result)
                    new = notify or ended or after.message_id is None
                    # A board edited in place tells everything played on it (the AI's
                    # steps whose boards waited, what was played for a person); a new one
                    # what this change played (the one it replaces tells the rest).
                    shown = (
                        after_part_end(after, result.events)
                        if new
                        else await self.service.board_events(after)
                    )
                    trouble = await self._display(
                        after,
                        texts.board_text(after, shown),
                        new=new,
                        mention=after.seat_on_turn.user_id if notify else None,
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
            self.schedule_ai(game)

    async def show(
        self,
        game: Game,
        *,
        repost: bool = False,
        mention: bool = False,
        via: discord.Interaction[Any] | None = None,
    ) -> BoardTrouble | None:
        """Draw ``game`` as it stands (a new game, after a restart, or for /board).

        ``via``: the click that started the game (an Accept, a Rematch); where it was made in
        the game's channel, the board is its followup and the game keeps it (a thread's first
        board cannot be: an interaction answers only in its own channel)."""
        if via is not None and via.channel_id == game.channel_id:
            self.courier.keep(game.id, via)
        trouble: BoardTrouble | None = None
        try:
            async with self.live.get(game.id).board:
                game = await self.service.load(game.id)  # as it is now, not as it was loaded
                # What was played on the board so far (a new game's opening roll, its ties,
                # the rolls and forced moves made before anyone clicked).
                played = await self.service.board_events(game)
                words = texts.board_text(game, played, show_hash=True)
                on_turn = None if game.finished else game.seat_on_turn.user_id
                trouble = await self._display(
                    game,
                    words,
                    new=repost or game.message_id is None,
                    mention=on_turn if mention else None,
                )
        except Exception as error:
            log_board_failure(error, "could not show game %s", game.id)
            trouble = trouble_for(error)
        self._carry_on(game)  # e.g. the AI won backgammon's opening roll
        return trouble

    async def send_private_board(
        self, interaction: discord.Interaction[Any], game: Game, trouble: BoardTrouble
    ) -> None:
        """The board as an ephemeral follow-up for the one who asked (/board), when the bot
        cannot post in the channel: interaction replies need no channel permission."""
        game = await self.service.load(game.id)
        locale = locale_of(interaction)
        note = tr("board.private", locale, reason=tr(trouble.reason, locale, status=trouble.status))
        words = texts.board_text(game, (), show_hash=True)
        picture = await self._render(game, viewer=interaction.user.id)
        layout = self._layout(game, words, picture, note=note)
        await follow_up(interaction, files=[picture.file()], view=layout)

    async def _display(
        self, game: Game, words: texts.BoardText, *, new: bool, mention: int | None
    ) -> BoardTrouble | None:
        """Edit the game's board, or post a new one; a Discord refusal becomes the trouble."""
        try:
            if not new and game.message_id is not None:
                try:
                    await self._edit(game, words)
                    await self._start_clock(game)
                    return None
                except discord.NotFound:  # a moderator deleted the board: post it again
                    log.info("the board of game %s is gone; posting a new one", game.id)
            await self._post_new(game, words, mention=mention)
            await self._start_clock(game)
            return None
        except discord.HTTPException as error:
            log.warning(
                "could not show the board of game %s (HTTP %s): %s", game.id, error.status, error
            )
            return trouble_for(error)
        except NoInteraction:
            # A DM game between clicks: its board (which says so) waits for the next click.
            log.info("game %s has no usable interaction; its board waits for a click", game.id)
            return None

    async def _start_clock(self, game: Game) -> None:
        """A match clock runs from the moment its turn's board was shown (now), so neither
        Discord's 3 s nor the edit costs the player time."""
        if game.timer is not None:
            await self.service.clock_shown(game.id, game.version, self.service.clock())

    async def _show_game_endings(self, game: Game, result: ActionResult) -> bool:
        """Post a result board for each game of a match that ``result`` finished while the
        match goes on (the engine moves straight on to the next game's opening roll)."""
        finished_game = game.spec.finished_part
        if finished_game is None:
            return False
        posted = False
        for event in result.events:
            if event.before is None or event.action is None:
                continue
            ended = finished_game(event.before, event.action)
            if ended is None:
                continue
            text = texts.part_result(game, ended, game_locale(game))
            try:
                picture = await self._render(game, ended)
                layout = boards.board_layout(
                    texts.BoardText(f"🏁 {text}", (), "", ()),
                    image=picture.filename,
                    description=describe(game, ended),
                    accent=None,
                )
                await self.courier.post(
                    game.id,
                    game.channel_id,
                    guild_id=game.guild_id,
                    content=None,
                    picture=picture,
                    view=layout,
                    why="part result",
                )
                posted = True
            except discord.HTTPException:
                log.warning("could not post a part's result in game %s", game.id)
        return posted

    async def _looks(self, game: Game, viewer: int | None = None) -> Preferences:
        """Whose /prefs the board is drawn with (theme, home board side): the viewer's (a
        private board), else the person's on turn (the board turns to them too), else the
        first person's seated."""
        if viewer is None:
            seat = None if game.finished or game.seat_on_turn.is_ai else game.seat_on_turn
            if seat is None:
                humans = game.humans()
                seat = humans[0] if humans else None
            viewer = None if seat is None else seat.user_id
        if viewer is None:
            return Preferences()
        return await self.services.preferences.get(viewer)

    async def _render(self, game: Game, state: Any = None, *, viewer: int | None = None) -> Picture:
        looks = await self._looks(game, viewer)
        started = time.perf_counter()
        players = [PlayerInfo(picture_name(game, seat.seat), seat.seat) for seat in game.seats]
        draw = functools.partial(
            _timed_render,
            game.state if state is None else state,
            renderer=game.spec.renderer,
            players=players,
            perspective=perspective(game),
            highlight=game.draft.selected,
            preview_steps=game.draft.steps,
            theme=looks.render_theme,
            home_left=looks.home_left,
        )
        png, cpu = await asyncio.get_running_loop().run_in_executor(self._renders, draw)
        book_ms("render_cpu", cpu * 1000)
        elapsed = book("render", started) - started
        if elapsed > SLOW_RENDER_SECONDS:
            log.warning("slow render game=%s %.0f ms", game.id, elapsed * 1000)
        return Picture(f"{game.kind}-{game.version}.png", png)

    def _buttons(self, game: Game) -> list[tuple[ButtonId[GameClick], Choice]]:
        locale = game_locale(game)
        if game.finished:
            menu = (
                [Choice("rematch", tr("button.rematch", locale), "success")]
                if game.humans()
                else []
            )
            if review_offered(game, expert_enabled=self.services.expert_enabled):
                menu.append(Choice("review", tr("button.review", locale), "primary"))
        elif game.seat_on_turn.is_ai:
            # The AI is about to move: nothing for people to press meanwhile, except outside
            # a server, where its moves need a click's interaction (none after a restart).
            menu = (
                [Choice(GO_ON, tr("button.continue", locale), "secondary")]
                if interaction_only(game.guild_id)
                else []
            )
        else:
            menu = game.choices()
            # Outside a server no edit can add the button once the time is up (no interaction
            # reaches the board then), so it is there from the start; early, it is refused.
            claimable = self.service.timed_out(game) or (
                interaction_only(game.guild_id) and not any(s.is_ai for s in game.seats)
            )
            if claimable and len(game.seats) == 2:
                menu.append(Choice("claim", tr("button.claim", locale), "danger", row=4))
        if menu and not game.finished:
            # Follow: a direct message when the game ends (bot.ui.follows); never a move.
            menu.append(Choice("follow", tr("button.follow", locale), "secondary", row=4))
        if game.spec.positions is not None and (menu or game.finished):
            # Share position: the board's IDs, privately (bot.ui.analyze); never a move.
            menu.append(Choice("share", tr("button.share", locale), "secondary", row=4))
        return [(game_button(game.id, game.version, c.token), c) for c in menu]

    def _layout(
        self,
        game: Game,
        words: texts.BoardText,
        picture: Picture | None,
        *,
        mention: int | None = None,
        note: str | None = None,
    ) -> discord.ui.LayoutView:
        """The board as a Components V2 message (``bot.ui.boards``)."""
        if note is None and interaction_only(game.guild_id) and not game.finished:
            note = tr("board.dm_clicks", game_locale(game))
        return boards.board_layout(
            words,
            image=None if picture is None else picture.filename,
            description=describe(game),
            buttons=self._buttons(game),
            locale=game_locale(game),
            accent=None if game.finished else seat_accent(game, game.state.turn),
            mention=mention,
            note=note,
        )

    async def _post_new(self, game: Game, words: texts.BoardText, *, mention: int | None) -> None:
        picture = await self._render(game)
        mentions = pinging([mention])  # the player now on turn, nobody their names mention
        mark = time.perf_counter()
        post = functools.partial(
            self.courier.post,
            game.id,
            game.channel_id,
            guild_id=game.guild_id,
            content=None,
            mentions=mentions,
            why="board post",
        )
        try:
            message_id = await post(
                picture=picture, view=self._layout(game, words, picture, mention=mention)
            )
        except discord.Forbidden as error:
            if error.code == MISSING_ACCESS:
                raise  # the channel is out of sight: no post would go, with or without a picture
            # Attach Files taken away: the game stays playable with text and buttons. If Send
            # Messages is gone too, this raises again and the caller reports it.
            layout = self._layout(game, words, None, mention=mention, note=tr("board.no_image"))
            message_id = await post(view=layout)
        book("post", mark)
        old = game.message_id
        played = await self.service.set_message(game.id, message_id)
        self.shown.mark(game.id, game.version)
        if old is not None and old != message_id:
            await self._retire(game, old, played, "collapse")

    async def _retire(self, game: Game, message_id: int, played: Sequence[Event], why: str) -> None:
        """A superseded board becomes one line of what was ``played`` on it: the thread reads
        like a score sheet and only the newest board has a picture and buttons. It is the
        one edit that also takes the stale buttons away (a V2 board's buttons cannot be
        taken away without sending its layout again), so it costs no extra request."""
        try:
            # content None clears an old V1 board's text as the V2 layout replaces it.
            await self.courier.edit(
                game.id,
                game.channel_id,
                message_id,
                guild_id=game.guild_id,
                content=None,
                picture=None,
                view=boards.text_layout(board_summary(game, played)),
                clear_embeds=True,
                why=why,
            )
        except discord.HTTPException:
            log.info("could not collapse the old board %s of game %s", message_id, game.id)

    async def _edit(self, game: Game, words: texts.BoardText) -> None:
        assert game.message_id is not None
        picture = await self._render(game)
        edit = functools.partial(
            self.courier.edit,
            game.id,
            game.channel_id,
            game.message_id,
            guild_id=game.guild_id,
            content=None,  # an old V1 board's text goes: the layout holds the words now
            why="board edit",
        )
        mark = time.perf_counter()
        try:
            await edit(picture=picture, view=self._layout(game, words, picture))
        except discord.Forbidden as error:  # Attach Files taken away: text and buttons work
            if error.code == MISSING_ACCESS:
                raise  # the channel is out of sight: no edit would go, with or without a picture
            note = tr("board.no_image")
            await edit(picture=None, view=self._layout(game, words, None, note=note))
        book("edit", mark)
        self.shown.mark(game.id, game.version)

    # --------------------------------------------------------------------------- AI seats

    def schedule_ai(self, game: Game) -> None:
        if game.finished or not game.seat_on_turn.is_ai:
            return
        owner = self.live.get(game.id)
        if owner.ai_task is not None and not owner.ai_task.done():
            return
        owner.ai_task = asyncio.create_task(
            self._run_ai(game.id, away=interaction_only(game.guild_id)),
            name=f"ai-{game.id}",
            context=contextvars.Context(),
        )

    async def _run_ai(self, game_id: str, *, away: bool = False) -> None:
        """``away``: a game outside any server, shown through interactions only: the AI moves
        while one is usable, else it waits for the next click (the board says so)."""
        failures = 0
        try:
            while True:
                await asyncio.sleep(self.ai_delay if not failures else ai_backoff(failures))
                if self.clicks.draining:
                    return
                if away and self.courier.reach(game_id) is None:
                    log.info("AI turn in game %s waits for a click (no interaction)", game_id)
                    return
                # Its own tracked task, shielded from stop(): a move once started is stored and
                # shown in full (cut between posting a board and storing its id, it would leave
                # two live boards behind).
                step = asyncio.create_task(self._ai_move(game_id), name=f"ai-move-{game_id}")
                self.clicks.track(step)
                try:
                    result = await asyncio.shield(step)
                except Exception as error:
                    if not transient(error):
                        raise
                    # The database is away, busy or silent: the same step again, later. It
                    # carries the version it is computed for, so a step that was stored after
                    # all (an unanswered COMMIT) is refused, never made twice.
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

    def busy(self, game_id: str) -> bool:
        """Whether a change, an AI turn or a board of the game is under way in this process."""
        owner = self.live.peek(game_id)
        return owner is not None and owner.busy

    async def _ai_move(self, game_id: str) -> ActionResult | None:
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

    async def resume_all(self) -> None:
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

        async def refresh(game: Game) -> None:
            async with gate:
                log.info("start-up: redrawing the board of game %s", game.id)
                trouble = await self.show(game)
            if trouble is not None:
                log.warning("could not refresh game %s: %s", game.id, trouble.reason)

        tasks = [asyncio.create_task(refresh(game)) for game in behind]
        await asyncio.gather(*tasks)
        refreshed = {game.id for game in behind}
        for game in await self.service.active_games(owned):
            if game.id not in refreshed:
                self.schedule_ai(game)
        log.info("start-up: %d of the active boards were behind and were redrawn", len(behind))

    async def stop(self) -> None:
        tasks = [owner.ai_task for owner in self.live if owner.ai_task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
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


@dataclass(frozen=True, slots=True)
class BoardTrouble:
    """A stored change whose board could not be shown: why, as a catalogue key."""

    reason: str
    status: int = 0  # Discord's HTTP status, when Discord refused


def trouble_for(error: BaseException) -> BoardTrouble:
    if isinstance(error, discord.Forbidden):
        return BoardTrouble("board.trouble.permissions", error.status)
    if isinstance(error, discord.HTTPException):
        return BoardTrouble("board.trouble.discord", error.status)
    return BoardTrouble("board.trouble.unexpected")


def log_board_failure(error: BaseException, message: str, game_id: str) -> None:
    """A database fault (the resume sweep draws the board later) in one warning line; any
    other failure with its traceback."""
    if transient(error):
        log.warning(message + ": %s", game_id, error)
    else:
        log.exception(message, game_id)


def board_trouble_text(trouble: BoardTrouble, locale: str | None) -> str:
    """What the player reads when their change is stored but its board is not shown."""
    return tr("board.not_shown", locale, reason=tr(trouble.reason, locale, status=trouble.status))


def _with_note(text: str, note: str) -> str:
    return text[: 2000 - len(note) - 1] + "\n" + note


ACK_WARNING_SECONDS = 1.5  # half of Discord's 3 s deadline
AI_RETRY_FIRST, AI_RETRY_MOST = 0.25, 2.0  # seconds: an AI step tried again after a fault


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


def warn_if_late(interaction: discord.Interaction[Any]) -> None:
    """Log acknowledgements that came close to Discord's deadline (from the interaction's own
    creation time: this includes gateway and event-loop delays, not only our code)."""
    waited = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    if waited > ACK_WARNING_SECONDS:
        log.warning(
            "late acknowledgement: %.2f s after the click (deadline 3 s) user=%s channel=%s",
            waited,
            interaction.user.id,
            interaction.channel_id,
        )


def perspective(game: Game) -> int | None:
    """A game drawn from a person's side (backgammon) turns to the one on turn, else to the
    only person seated (so a board against the AI does not flip while the AI moves)."""
    if not game.spec.drawn_from_player_side:
        return None
    if not game.finished and not game.seat_on_turn.is_ai:
        return game.seat_on_turn.seat
    humans = game.humans()
    return humans[0].seat if humans else None


def describe(game: Game, state: Any = None) -> str:
    """The board image's alt text, in the board's language: the game's own description of
    the position, else its headline and status line."""
    speaker = Speaker(game, game_locale(game), markdown=False)  # alt text is not Markdown
    drafted = state is None and game.draft.steps  # the board draws the play in progress
    state = game.state if state is None else state
    words = (
        game.spec.texts.describe_draft(state, game.draft.steps, speaker) if drafted else None
    ) or game.spec.texts.describe(state, speaker)
    if not words:
        words = f"{texts.headline(game)}\n{texts.status_line(game)}".replace("**", "")
    return words[: boards.DESCRIPTION_LIMIT]


def seat_accent(game: Game, seat: int) -> tuple[int, int, int] | None:
    """The colour of ``seat``'s pieces, where the game's manifest names them (``accents``)."""
    accents = game.spec.accents
    if not 0 <= seat < len(accents):
        return None
    return accents[seat]


def review_offered(game: Game, *, expert_enabled: bool) -> bool:
    """Whether a finished game gets a Review button: its game has a review, people played
    it, and the expert engine runs (the solved table is installed) if the review needs it."""
    review = game.spec.review
    if review is None or not game.humans():
        return False
    if review.needs_table and not game.spec.table_ready():
        return False
    return expert_enabled or not review.needs_expert


__all__ = ["BoardTrouble", "GameDriver", "Phase", "board_trouble_text", "warn_if_late"]
