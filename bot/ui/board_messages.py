"""A game's board in Discord: drawn (in threads of its own), laid out as a Components V2
message, posted or edited through the :class:`~bot.ui.delivery.Courier`, and the board it
replaces turned into a line of what was played on it.

What the board says and offers is :mod:`bot.ui.board_view`'s; when a board is drawn is the
:class:`~bot.ui.driver.GameDriver`'s.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import tr
from bot.service.models import ActionResult, Choice, Event, Game
from bot.service.outages import transient
from bot.service.preferences import Preferences
from bot.ui import boards, texts
from bot.ui.board_view import board_menu, describe, interaction_only, perspective, seat_accent
from bot.ui.buttons import ButtonId, GameClick, game_button
from bot.ui.clicks import book, book_ms
from bot.ui.delivery import Courier, NoInteraction, Picture, posted_at
from bot.ui.mentions import pinging
from bot.ui.names import game_locale, picture_name
from bot.ui.replies import MISSING_PERMISSIONS
from bot.ui.services import Services
from bot.ui.summaries import board_summary
from renderers import PlayerInfo, render_png

log = logging.getLogger(__name__)

SLOW_RENDER_SECONDS = 0.25
# Boards are drawn by this many threads of their own. Each board is CPU work, and the two
# cores are shared with the event loop and the database thread: more render threads only
# take turns at the interpreter lock, and the event loop waits behind them. With 400 games
# on 2 cores, 2 render threads halved the acknowledgements' p99 against the default pool's 6
# (34-58 ms against 97-103 ms) at the same CPU per click (benchmarks/load.py, README).
RENDER_THREADS = 2


def _timed_render(state: Any, **options: Any) -> tuple[bytes, float]:
    """The board's PNG and the CPU time this thread spent drawing it (wall time under load
    includes waiting for the interpreter; CPU time is what the board itself costs)."""
    started = time.thread_time()
    png = render_png(state, **options)
    return png, time.thread_time() - started


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


class BoardMessages:
    """Draws, posts and edits the boards of games (one instance for the bot)."""

    def __init__(self, services: Services, courier: Courier) -> None:
        self.services = services
        self.service = services.games
        self.shown = services.shown
        self.courier = courier
        # Left running at stop(): a move still finishing after the grace period draws its board
        # here, and idle workers end with the interpreter.
        self._renders = ThreadPoolExecutor(RENDER_THREADS, thread_name_prefix="tabula-render")

    async def display(
        self, game: Game, words: texts.BoardText, *, new: bool, mention: int | None
    ) -> BoardTrouble | None:
        """Edit the game's board, or post a new one; a Discord refusal becomes the trouble."""
        try:
            if not new and game.message_id is not None:
                try:
                    await self._edit(game, words)
                    await self.start_clock(game)
                    return None
                except discord.NotFound:  # a moderator deleted the board: post it again
                    log.info("the board of game %s is gone; posting a new one", game.id)
            await self._post_new(game, words, mention=mention)
            await self.start_clock(game)
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

    async def start_clock(self, game: Game) -> None:
        """A match clock runs from the moment its turn's board was shown (now), so neither
        Discord's 3 s nor the edit costs the player time."""
        if game.timer is not None:
            await self.service.clock_shown(game.id, game.version, self.service.clock())

    async def show_game_endings(self, game: Game, result: ActionResult) -> bool:
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
                picture = await self.render(game, ended)
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

    async def render(self, game: Game, state: Any = None, *, viewer: int | None = None) -> Picture:
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
        menu = board_menu(
            game,
            expert_enabled=self.services.expert_enabled,
            timed_out=self.service.timed_out(game),
        )
        return [(game_button(game.id, game.version, c.token), c) for c in menu]

    def layout(
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
        picture = await self.render(game)
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
                picture=picture, view=self.layout(game, words, picture, mention=mention)
            )
        except discord.Forbidden as error:
            if error.code != MISSING_PERMISSIONS:
                # The channel out of sight (Missing Access), or a refusal that names no
                # permission: no post would go, with or without a picture.
                raise
            # Attach Files taken away: the game stays playable with text and buttons. If Send
            # Messages is gone too, this raises again and the caller reports it.
            layout = self.layout(game, words, None, mention=mention, note=tr("board.no_image"))
            message_id = await post(view=layout)
        book("post", mark)
        old = game.message_id
        played = await self.service.post_board(game.id, message_id, replacing=old)
        if played is None:
            await self._withdraw(game, message_id)
            return
        self.shown.mark(game.id, message_id, game.version, posted_at(message_id))
        if old is not None and old != message_id:
            await self.retire(game, old, played, "collapse")

    async def _withdraw(self, game: Game, message_id: int) -> None:
        """Take back a board that lost its place to another process's board of the game (two
        processes on one shard drew the board it lacked at once): one live board, not two
        with buttons. Deleted in a server; outside one, where only an interaction reaches the
        message, it becomes a line without buttons."""
        log.info("game %s got another board meanwhile; withdrawing board %s", game.id, message_id)
        if not interaction_only(game.guild_id):
            try:
                await self.courier.outbox.delete(game.channel_id, message_id)
                return
            except discord.HTTPException:
                log.info("could not delete board %s of game %s", message_id, game.id)
        await self.retire(game, message_id, (), "withdraw")

    async def retire(self, game: Game, message_id: int, played: Sequence[Event], why: str) -> None:
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
        picture = await self.render(game)
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
            at = await edit(picture=picture, view=self.layout(game, words, picture))
        except discord.Forbidden as error:  # Attach Files taken away: text and buttons work
            if error.code != MISSING_PERMISSIONS:
                # The channel out of sight (Missing Access), or a refusal that names no
                # permission (an outage's): the board stays behind and is drawn whole later.
                raise
            note = tr("board.no_image")
            at = await edit(picture=None, view=self.layout(game, words, None, note=note))
        book("edit", mark)
        self.shown.mark(game.id, game.message_id, game.version, at)


__all__ = [
    "BoardMessages",
    "BoardTrouble",
    "board_trouble_text",
    "log_board_failure",
    "trouble_for",
]
