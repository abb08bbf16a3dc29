"""How a game's messages reach Discord: through a click's interaction while its token works,
else with the bot token, paced.

Discord counts every bot-token request against one budget of 50 a second for the whole bot;
requests through an interaction (its callback and its webhook: ``@original`` edits and
followups) do not count against it, and an interaction token works for 15 minutes. A click
already has an interaction, so its new board goes back through it: the clicked board is the
click's ``@original`` (edited), a new board that mentions the next player is a followup (a
message of that interaction, which its token can edit again later), and the board it
replaces is the ``@original`` again. The game keeps the newest click's interaction (a
:class:`Reach`), so the AI's moves after a person's click are shown through it as well.

Where no valid interaction reaches a message, the bot token does, through the ``Outbox``
(``bot.ui.outbox``) and its pacer: a thread's first board, a game idle for longer than a
token lives, clock notices, the refresh after a restart. A token that Discord no longer takes (it
expired, or Discord says it does not know it) is given up and the same request is made with
the bot token: the messages are the bot's own, so it may edit them all.

A game outside any server (a DM or group DM, through the app a person installed on their
account) is reached through interactions only: the bot is no member of such a channel, so
its token would be refused. There the courier never falls back to the bot token; it raises
:class:`NoInteraction` and the board waits for the next click, whose interaction carries the
game on. Discord lets such an interaction send at most 5 followups (``FOLLOWUPS_AWAY``).

The interaction is kept in memory only, not with the game in the database: its token is a
credential worth 15 minutes at most, and what it would save after a restart (the refresh of
the few boards a crash left behind) is paced within the budget anyway.
"""

from __future__ import annotations

import datetime
import io
import logging
import time
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.clock import Clock
from bot.ui.board_view import interaction_only
from bot.ui.outbox import Outbox

log = logging.getLogger(__name__)

# An interaction token works for 15 minutes after the interaction (discord.py's
# ``Interaction.expires_at``). A request begun a minute before that may wait in discord.py's
# queues and arrive late, so the bot token takes over a minute early.
TOKEN_MARGIN = datetime.timedelta(seconds=60)
INVALID_WEBHOOK_TOKEN = 50027  # Discord's JSON error code for an expired interaction token
UNKNOWN_WEBHOOK = 10015
PRUNE_SECONDS = 60.0  # how often the interactions of games long quiet are dropped
# A game keeps its last few clicks' interactions, not only the newest: a board shown through
# one click may still be finishing (collapsing the board it replaced, which only that click's
# token may edit) when the next click arrives.
REACHES_PER_GAME = 3
# Docs, "Followup Messages": an app that is no member of the guild or channel (a user install
# used in a DM or group DM) may send at most 5 followups per interaction.
FOLLOWUPS_AWAY = 5

MISSING: Any = discord.utils.MISSING


class NoInteraction(Exception):
    """A game outside any server has no usable interaction now: its board waits for a click."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id} has no usable interaction (a DM game)")
        self.game_id = game_id


@dataclass(frozen=True, slots=True)
class Picture:
    """A board's PNG; made into a fresh ``discord.File`` for each try (a file is read once)."""

    filename: str
    png: bytes

    def file(self) -> discord.File:
        return discord.File(io.BytesIO(self.png), filename=self.filename)


class Reach:
    """A click's interaction, kept with its game: the messages its token may edit (the clicked
    message, its ``@original``, and the followups it posted) and how long it works."""

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction = interaction
        message = interaction.message
        component = interaction.type == discord.InteractionType.component
        self.original_id = message.id if component and message is not None else None
        self.followups: set[int] = set()
        self.given_up = False

    @property
    def channel_id(self) -> int | None:
        return self.interaction.channel_id

    def usable(self, now: datetime.datetime) -> bool:
        """``now``: the bot's clock (``bot.clock``), which the interaction's times compare with."""
        return not self.given_up and now < self.interaction.expires_at - TOKEN_MARGIN

    def owns(self, message_id: int) -> bool:
        return message_id == self.original_id or message_id in self.followups

    def can_follow_up(self, away: bool) -> bool:
        """``away``: the app is no member of the channel, where Discord allows 5 followups."""
        return not away or len(self.followups) < FOLLOWUPS_AWAY


def edited_at(message: discord.Message) -> float | None:
    """When Discord says ``message``'s last edit landed (its ``edited_timestamp``)."""
    return None if message.edited_at is None else message.edited_at.timestamp()


def posted_at(message_id: int) -> float:
    """When Discord made message ``message_id`` (the time its snowflake id carries)."""
    return discord.utils.snowflake_time(message_id).timestamp()


def token_refused(error: discord.HTTPException) -> bool:
    """Whether Discord refused the interaction's token itself (expired or unknown), rather than
    the request: then the bot token can make the same request."""
    return error.status == 401 or error.code in (INVALID_WEBHOOK_TOKEN, UNKNOWN_WEBHOOK)


@dataclass
class DeliveryStats:
    """Requests by the way they went: through interactions, or with the bot token."""

    interaction_edits: int = 0
    interaction_posts: int = 0
    token_edits: int = 0
    token_posts: int = 0
    tokens_refused: int = 0
    by_reason: dict[str, int] = field(default_factory=dict)


class Courier:
    """Edits and posts a game's messages the cheapest way Discord allows (see the module)."""

    def __init__(self, outbox: Outbox, clock: Clock) -> None:
        self.outbox = outbox  # the bot token's door, paced (bot.ui.outbox)
        self.clock = clock
        self.stats = DeliveryStats()
        self._reaches: dict[str, list[Reach]] = {}
        self._pruned_at = time.monotonic()

    # -- the games' interactions ----------------------------------------------------------

    def keep(self, game_id: str, interaction: discord.Interaction[Any]) -> Reach:
        """From now on ``game_id``'s messages go through ``interaction`` where they can."""
        now = time.monotonic()
        if now - self._pruned_at >= PRUNE_SECONDS:  # not per click: thousands of games
            self._pruned_at = now
            at = self.clock.now_utc()
            for key in [k for k, rs in self._reaches.items() if not rs[-1].usable(at)]:
                del self._reaches[key]
        reach = Reach(interaction)
        kept = self._reaches.setdefault(game_id, [])
        kept.append(reach)
        del kept[:-REACHES_PER_GAME]
        return reach

    def reach(self, game_id: str, message_id: int | None = None) -> Reach | None:
        """The newest usable interaction of ``game_id`` (that may edit ``message_id``)."""
        at = self.clock.now_utc()
        for reach in reversed(self._reaches.get(game_id, ())):
            if reach.usable(at) and (message_id is None or reach.owns(message_id)):
                return reach
        return None

    # -- requests -------------------------------------------------------------------------

    async def edit(
        self,
        game_id: str,
        channel_id: int,
        message_id: int,
        *,
        guild_id: int | None = None,
        content: str | None = MISSING,
        picture: Picture | None = MISSING,
        view: discord.ui.View | discord.ui.LayoutView | None = MISSING,
        clear_embeds: bool = False,
        why: str = "edit",
    ) -> float | None:
        """Edit message ``message_id``; ``picture`` None removes the attachments, MISSING
        leaves them. Returns when Discord says the edit landed (seconds since the epoch; None
        if it did not say): of two processes' edits of one message, the later one shows."""

        def fields() -> dict[str, Any]:
            found: dict[str, Any] = {}
            if content is not MISSING:
                found["content"] = content
            if picture is not MISSING:
                found["attachments"] = [] if picture is None else [picture.file()]
            if view is not MISSING:
                found["view"] = view
            if clear_embeds:
                found["embeds"] = []
            return found

        while True:
            # A refused token is given up and the next usable interaction that reaches the
            # message is tried (Discord's clock, not ours, decides when a token is spent).
            while (reach := self.reach(game_id, message_id)) is not None:
                try:
                    edited: discord.Message
                    if message_id == reach.original_id:
                        edited = await reach.interaction.edit_original_response(**fields())
                    else:
                        edited = await reach.interaction.followup.edit_message(
                            message_id, **fields()
                        )
                    self.stats.interaction_edits += 1
                    return edited_at(edited)
                except discord.HTTPException as error:
                    if not token_refused(error):
                        raise
                    self._give_up(reach, error)
            if interaction_only(guild_id):
                raise NoInteraction(game_id)
            self._count(why, game_id)
            self.stats.token_edits += 1
            try:
                return edited_at(
                    await self.outbox.edit(channel_id, message_id, guild_id=guild_id, **fields())
                )
            except discord.Forbidden:
                if self.reach(game_id, message_id) is None:
                    raise
                # Refused to the bot token (the channel's permissions), while a click's
                # interaction came, which needs none: through it, as a whole.

    async def post(
        self,
        game_id: str,
        channel_id: int,
        *,
        guild_id: int | None = None,
        content: str | None,
        picture: Picture | None = None,
        view: discord.ui.View | discord.ui.LayoutView | None = None,
        mentions: discord.AllowedMentions | None = None,
        why: str = "post",
    ) -> int:
        """Post a new message in the game's channel; returns its id. ``content`` None: a
        Components V2 message (its words are in ``view``)."""

        def fields() -> dict[str, Any]:
            found: dict[str, Any] = {} if content is None else {"content": content}
            if picture is not None:
                found["file"] = picture.file()
            if view is not None:
                found["view"] = view
            if mentions is not None:
                found["allowed_mentions"] = mentions
            return found

        away = interaction_only(guild_id)
        while True:
            while (reach := self._poster(game_id, channel_id, away)) is not None:
                try:
                    sent = await reach.interaction.followup.send(wait=True, **fields())
                    reach.followups.add(sent.id)
                    self.stats.interaction_posts += 1
                    return sent.id
                except discord.HTTPException as error:
                    if not token_refused(error):
                        raise
                    self._give_up(reach, error)
            if away:
                raise NoInteraction(game_id)
            self._count(why, game_id)
            self.stats.token_posts += 1
            try:
                message = await self.outbox.post(channel_id, guild_id=guild_id, **fields())
                return message.id
            except discord.Forbidden:
                if self._poster(game_id, channel_id, away) is None:
                    raise
                # Refused to the bot token, while a click's interaction came: through it.

    def _poster(self, game_id: str, channel_id: int, away: bool) -> Reach | None:
        """The newest usable interaction of the game in ``channel_id`` that may still send a
        followup (``away``: at most 5 each, where the app is no member of the channel)."""
        at = self.clock.now_utc()
        for reach in reversed(self._reaches.get(game_id, ())):
            if reach.usable(at) and reach.channel_id == channel_id and reach.can_follow_up(away):
                return reach
        return None

    def _give_up(self, reach: Reach, error: discord.HTTPException) -> None:
        reach.given_up = True
        self.stats.tokens_refused += 1
        log.info(
            "interaction %s: Discord refused its token (%s %s); another way then",
            reach.interaction.id,
            error.status,
            error.code,
        )

    def _count(self, why: str, game_id: str) -> None:
        self.stats.by_reason[why] = self.stats.by_reason.get(why, 0) + 1
        log.debug("bot token: %s of game %s (no usable interaction reaches it)", why, game_id)


__all__ = [
    "Courier",
    "DeliveryStats",
    "NoInteraction",
    "Picture",
    "Reach",
    "edited_at",
    "posted_at",
    "token_refused",
]
