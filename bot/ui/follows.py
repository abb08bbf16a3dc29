"""Follow a game: the board's Follow button asks privately how (when it ends, or on every
turn change, or Unfollow); the follower then gets a direct message.

A direct message has no interaction to answer through, so it is a bot-token request (opening
the DM channel, then the message), paced like every bot-token request (``bot.ui.pacing``).
The choice's buttons name the game (``tabula:fw:<game_id>:<mode>``), so they work after a
restart.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.i18n import tr
from bot.service.follows import END, OFF, TURNS, FollowService
from bot.service.models import ButtonStyle, Choice, Game
from bot.ui.buttons import FOLLOW, FOLLOW_CHOICE, FollowChoice, GameClick, build_view
from bot.ui.buttons import Route as ButtonRoute
from bot.ui.clicks import Clicks
from bot.ui.component import Component
from bot.ui.names import game_locale
from bot.ui.replies import locale_of
from bot.ui.services import Services
from bot.ui.texts import move_number
from bot.ui.venues import viewer_of
from bot.vocabulary.markup import plain_name

log = logging.getLogger(__name__)

_MODES: tuple[tuple[str, ButtonStyle], ...] = (
    (END, "primary"),
    (TURNS, "secondary"),
    (OFF, "danger"),
)


def _link(game: Game) -> str:
    guild = game.guild_id or "@me"
    base = f"https://discord.com/channels/{guild}/{game.channel_id}"
    return f"{base}/{game.message_id}" if game.message_id else base


class FollowUI(Component):
    def __init__(self, services: Services, clicks: Clicks, follows: FollowService) -> None:
        self.services = services
        self.follows = follows
        self.routes: list[ButtonRoute[Any]] = [
            ButtonRoute(FOLLOW, clicks.guard(self._on_follow, kind="follow")),
            ButtonRoute(FOLLOW_CHOICE, clicks.guard(self._on_choice, kind="follow choice")),
        ]
        self._dm_channels: dict[int, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        services.games.finish_listeners.append(self._game_finished)
        services.games.turn_listeners.append(self._turn_changed)

    async def _on_follow(
        self, interaction: discord.Interaction[Any], fields: GameClick, on_message: bool
    ) -> None:
        locale = locale_of(interaction)
        game_id = (await self.services.games.find(fields.game_id, viewer_of(interaction))).id
        view = build_view(
            [
                (
                    FOLLOW_CHOICE.button(FollowChoice(game_id, mode)),
                    Choice(mode, tr(f"follow.button_{mode}", locale), style),
                )
                for mode, style in _MODES
            ]
        )
        await interaction.response.send_message(tr("follow.ask", locale), view=view, ephemeral=True)

    async def _on_choice(
        self, interaction: discord.Interaction[Any], fields: FollowChoice, on_message: bool
    ) -> None:
        locale = locale_of(interaction)
        game = await self.services.games.find(fields.game_id, viewer_of(interaction))
        mode = fields.mode
        changed = await self.follows.choose(game.id, interaction.user.id, mode)
        key = f"follow.done_{mode}" if changed else "follow.not_following"
        await interaction.response.edit_message(
            content=tr(key, locale, game=game.spec.title, link=_link(game)), view=None
        )

    # ----------------------------------------------------------------- direct messages

    def _game_finished(self, game: Game) -> None:
        self._spawn(self._tell(game, turn_change=False))

    def _turn_changed(self, game: Game) -> None:
        self._spawn(self._tell(game, turn_change=True))

    def _spawn(self, work: Any) -> None:
        task: asyncio.Task[None] = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _tell(self, game: Game, *, turn_change: bool) -> None:
        try:
            followers = await self.follows.followers(game.id, turn_change=turn_change)
        except Exception:
            log.exception("could not read the followers of game %s", game.id)
            return
        if not followers:
            return
        locale = game_locale(game)
        players = " vs ".join(plain_name(s.name) for s in game.seats)
        if turn_change:
            text = tr(
                "follow.turn",
                locale,
                game=game.spec.title,
                players=players,
                player=plain_name(game.seat_on_turn.name),
                move=move_number(game),
                link=_link(game),
            )
        else:
            text = tr(
                "follow.ended", locale, game=game.spec.title, players=players, link=_link(game)
            )
        for user_id in followers:
            await self._send(user_id, text)

    async def _send(self, user_id: int, text: str) -> None:
        outbox = self.services.outbox
        try:
            channel_id = self._dm_channels.get(user_id)
            if channel_id is None:
                channel_id = self._dm_channels[user_id] = await outbox.open_dm(user_id)
            await outbox.post(
                channel_id, content=text[:2000], allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException:
            # DMs closed, or the person left every server with the bot: nothing to do.
            log.info("could not send a follow message to user %s", user_id)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
