"""Drives games in Discord: answers clicks, keeps each game's message current, runs AI seats.

A click is acknowledged first (a deferred update, within milliseconds), then the service
applies it, the board is rendered in a worker thread and the game message is edited. When the
turn passes to another person a new message mentions them (edits do not notify) and the old
message loses its buttons.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import logging
import time
from typing import TYPE_CHECKING, Any

import discord

from bot.engines.common import Phase
from bot.i18n import tr
from bot.service import menus
from bot.service.errors import TabulaError
from bot.service.games import GameService
from bot.service.models import ActionResult, Choice, Game
from bot.ui import texts
from bot.ui.buttons import ButtonTarget, build_view, game_custom_id
from bot.ui.replies import locale_of, reply_error, send_ephemeral
from renderers import PlayerInfo, render_png

if TYPE_CHECKING:
    from bot.client import TabulaBot

log = logging.getLogger(__name__)
access_log = logging.getLogger("tabula.access")

SLOW_RENDER_SECONDS = 0.25

# Where a click's time went, for its access-log line: the acknowledgement, the service (store),
# the renders and the Discord calls that show the result. Set per click; AI tasks get a fresh
# context so their work is not booked to the click that woke them.
_phases: contextvars.ContextVar[dict[str, float] | None] = contextvars.ContextVar(
    "tabula_phases", default=None
)


def _book(phase: str, since: float) -> float:
    now = time.perf_counter()
    phases = _phases.get()
    if phases is not None:
        phases[phase] = phases.get(phase, 0.0) + (now - since) * 1000
    return now


class GameDriver:
    def __init__(self, bot: TabulaBot, service: GameService, *, ai_delay: float) -> None:
        self.bot = bot
        self.service = service
        self.ai_delay = ai_delay
        self._ai_tasks: dict[str, asyncio.Task[None]] = {}
        self._publish_locks: dict[str, asyncio.Lock] = {}
        # Clicks and AI moves under way: shutdown waits for them (see drain).
        self._busy: set[asyncio.Task[Any]] = set()
        self.draining = False

    # --------------------------------------------------------------------------- clicks

    async def on_button(self, interaction: discord.Interaction[Any], target: ButtonTarget) -> None:
        started = time.perf_counter()
        outcome = "ok"
        phases: dict[str, float] = {}
        _phases.set(phases)
        self._track(asyncio.current_task())
        try:
            if self.draining:  # shutting down: the restarted bot takes the next click
                raise TabulaError("error.restarting")
            if target.kind == "leaderboard":
                await self.bot.boards.on_button(interaction, target.target_id, target.version)
            elif target.kind == "challenge":
                await self.bot.challenges.on_button(
                    interaction, int(target.target_id), target.token
                )
            elif target.kind == "game" and target.token == "review":
                await self.bot.review_ui.show(interaction, target.target_id)
            elif target.kind == "game" and target.token == "rematch":
                await self.bot.challenges.rematch(interaction, target.target_id)
            elif target.kind == "game":
                await interaction.response.defer()  # acknowledge first: well inside 3 s
                mark = _book("ack", started)
                warn_if_late(interaction)
                result = await self.service.act(
                    target.target_id,
                    interaction.user.id,
                    target.version,
                    target.token,
                    channel_id=interaction.channel_id,
                )
                _book("store", mark)
                clicked = interaction.message.id if interaction.message else None
                if clicked is not None and clicked != result.after.message_id:
                    # A current board the game did not know as its own: the bot died after
                    # posting it and before storing its id. The board people use wins, and
                    # the one the game knew (refreshed with buttons at start-up) loses them.
                    await self.service.set_message(result.after.id, clicked)
                    if result.after.message_id is not None:
                        await self._strip_buttons(result.after, result.after.message_id)
                await self.publish(result)
            else:
                raise_malformed()
        except Exception as error:
            outcome = await reply_error(interaction, error, context=f"button {target}")
        finally:
            access_log.info(
                "interaction game=%s user=%s action=%s outcome=%s latency_ms=%.1f%s",
                target.target_id or "-",
                interaction.user.id,
                target.token or "-",
                outcome,
                (time.perf_counter() - started) * 1000,
                "".join(f" {name}_ms={ms:.1f}" for name, ms in phases.items()),
            )

    def _track(self, task: asyncio.Task[Any] | None) -> None:
        if task is not None:
            self._busy.add(task)
            task.add_done_callback(self._busy.discard)

    async def drain(self, grace: float) -> None:
        """Start no new clicks or AI moves; wait up to ``grace`` seconds for those under way."""
        self.draining = True
        if self._busy:
            await asyncio.wait(set(self._busy), timeout=grace)

    # --------------------------------------------------------------------------- messages

    def _lock(self, game_id: str) -> asyncio.Lock:
        return self._publish_locks.setdefault(game_id, asyncio.Lock())

    async def publish(self, result: ActionResult) -> None:
        """Show ``result`` in Discord and start the AI if it is on turn now."""
        async with self._lock(result.after.id):
            # Re-read inside the lock: a board posted meanwhile changed the message id.
            after = await self.service.load(result.after.id)
            if after.version != result.after.version:
                return  # a newer change is already on its way to the screen
            text = texts.game_message(after, result.events)
            notify = (
                not after.finished
                and not after.seat_on_turn.is_ai
                and after.seat_on_turn.user_id != result.before.seat_on_turn.user_id
            )
            if notify or after.message_id is None:
                await self._post_new(
                    after, text, mention=after.seat_on_turn.user_id if notify else None
                )
            else:
                await self._edit(after, text)
        self.schedule_ai(after)

    async def show(self, game: Game, *, repost: bool = False, mention: bool = False) -> None:
        """Draw ``game`` as it stands (a new game, after a restart, or for /board)."""
        async with self._lock(game.id):
            game = await self.service.load(game.id)  # as it is now, not as it was loaded
            text = texts.game_message(game, (), show_hash=True)
            on_turn = None if game.finished else game.seat_on_turn.user_id
            if repost or game.message_id is None:
                await self._post_new(game, text, mention=on_turn if mention else None)
            else:
                await self._edit(game, text)
        self.schedule_ai(game)  # e.g. the AI won backgammon's opening roll

    async def _render(self, game: Game) -> discord.File:
        started = time.perf_counter()
        players = [PlayerInfo(seat.name, seat.seat) for seat in game.seats]
        png = await asyncio.to_thread(
            render_png,
            game.state,
            players=players,
            perspective=perspective(game),
            highlight=game.draft.selected,
            preview_steps=game.draft.steps,
        )
        elapsed = _book("render", started) - started
        if elapsed > SLOW_RENDER_SECONDS:
            log.warning("slow render game=%s %.0f ms", game.id, elapsed * 1000)
        return discord.File(io.BytesIO(png), filename=f"{game.game}-{game.version}.png")

    def _view(self, game: Game) -> discord.ui.View | None:
        if game.finished:
            menu = [Choice("rematch", tr("button.rematch"), "success")] if game.humans() else []
            if game.game == "backgammon" and self.bot.expert_enabled:
                menu.append(Choice("review", tr("button.review"), "primary"))
        elif game.seat_on_turn.is_ai:
            menu = []  # the AI is about to move: nothing for people to press meanwhile
        else:
            menu = menus.choices(game)
            if self.service.timed_out(game) and len(game.seats) == 2:
                menu.append(Choice("claim", tr("button.claim"), "danger", row=4))
        if not menu:
            return None
        return build_view([(game_custom_id(game.id, game.version, c.token), c) for c in menu])

    async def _post_new(self, game: Game, text: str, *, mention: int | None) -> None:
        channel = self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        file = await self._render(game)
        content = f"<@{mention}> {text}" if mention else text
        mark = time.perf_counter()
        message = await channel.send(
            content=content[:2000],
            file=file,
            view=self._view(game) or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
        )
        _book("post", mark)
        old = game.message_id
        await self.service.set_message(game.id, message.id)
        if old is not None:
            await self._strip_buttons(game, old)

    async def _strip_buttons(self, game: Game, message_id: int) -> None:
        """An old board keeps its picture but loses its (now stale) buttons."""
        channel = self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        try:
            await channel.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException:
            log.info("could not strip buttons from message %s", message_id)

    async def _edit(self, game: Game, text: str) -> None:
        assert game.message_id is not None
        channel = self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        file = await self._render(game)
        mark = time.perf_counter()
        try:
            await channel.get_partial_message(game.message_id).edit(
                content=text[:2000], attachments=[file], view=self._view(game)
            )
            _book("edit", mark)
        except discord.NotFound:  # somebody deleted the board: post it again
            await self._post_new(game, text, mention=None)

    # --------------------------------------------------------------------------- AI seats

    def schedule_ai(self, game: Game) -> None:
        if game.finished or not game.seat_on_turn.is_ai:
            return
        task = self._ai_tasks.get(game.id)
        if task is not None and not task.done():
            return
        self._ai_tasks[game.id] = asyncio.create_task(
            self._run_ai(game.id), name=f"ai-{game.id}", context=contextvars.Context()
        )

    async def _run_ai(self, game_id: str) -> None:
        try:
            while True:
                await asyncio.sleep(self.ai_delay)
                if self.draining:
                    return
                # Its own tracked task, shielded from stop(): a move once started is stored and
                # shown in full (cut between posting a board and storing its id, it would leave
                # two live boards behind).
                step = asyncio.create_task(self._ai_move(game_id), name=f"ai-move-{game_id}")
                self._track(step)
                result = await asyncio.shield(step)
                if result is None or result.after.finished or not result.after.seat_on_turn.is_ai:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("AI turn failed in game %s", game_id)

    async def _ai_move(self, game_id: str) -> ActionResult | None:
        result = await self.service.ai_step(game_id)
        if result is not None:
            await self.publish(result)
        return result

    async def resume_all(self) -> None:
        """After a (re)start: bring every active game's message up to date, restart the AI."""
        for game in await self.service.active_games():
            try:
                await self.show(game)
            except discord.HTTPException:
                log.warning("could not refresh game %s", game.id, exc_info=True)
            self.schedule_ai(game)

    async def stop(self) -> None:
        for task in self._ai_tasks.values():
            task.cancel()
        await asyncio.gather(*self._ai_tasks.values(), return_exceptions=True)


ACK_WARNING_SECONDS = 1.5  # half of Discord's 3 s deadline


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
    """Backgammon is drawn from a person's side: the one on turn, else the only person seated
    (so a board against the AI does not flip while the AI moves)."""
    if game.game != "backgammon":
        return None
    if not game.finished and not game.seat_on_turn.is_ai:
        return game.seat_on_turn.seat
    humans = game.humans()
    return humans[0].seat if humans else None


def raise_malformed() -> None:
    from bot.service.errors import MalformedButton

    raise MalformedButton()


__all__ = ["GameDriver", "Phase", "TabulaError", "locale_of", "send_ephemeral", "tr"]
