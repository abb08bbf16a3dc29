"""The one door through which the bot's own requests (its bot token) leave for Discord.

Every request made with the bot token counts against one budget for the whole bot (50 a
second over all its processes and shards), and posts in a channel against that channel's
own; the pacer (``bot.ui.pacing``) keeps this process to its share. A request that passed
by the pacer would be invisible to it, so every bot-token request is made here and nowhere
else: posts, edits, threads, direct messages, scheduled events, and the channels and users
fetched when the cache does not have them. ``tests/test_layering.py`` proves that no other
module makes one.

Answers through an interaction (its callback, followups, ``@original`` edits) do not count
against the budget and do not pass here: the route handlers answer their own interactions,
and a game's boards go out through the ``Courier`` (``bot.ui.delivery``), which tries the
game's latest interaction first, gives up a token Discord refuses, and comes here only when
no interaction reaches the message.
"""

from __future__ import annotations

import datetime
from typing import Any, Literal

import discord
from discord.http import Route

from bot.ui.pacing import BotTokenPacer

ArchiveMinutes = Literal[60, 1440, 4320, 10080]  # the auto-archive durations Discord takes


class Outbox:
    """The bot-token requests of one process, each paced first."""

    def __init__(self, client: discord.Client, pacer: BotTokenPacer) -> None:
        self.client = client
        self.pacer = pacer

    # -- messages ------------------------------------------------------------------------------

    async def post(
        self, channel_id: int, *, guild_id: int | None = None, **fields: Any
    ) -> discord.Message:
        """A new message in ``channel_id`` (``fields``: discord.py's ``send`` arguments)."""
        await self.pacer.post(channel_id)
        channel = self.client.get_partial_messageable(channel_id, guild_id=guild_id)
        return await channel.send(**fields)

    async def edit(
        self, channel_id: int, message_id: int, *, guild_id: int | None = None, **fields: Any
    ) -> discord.Message:
        """Edit the bot's own message ``message_id`` (``fields``: ``Message.edit``'s); the
        message as Discord holds it after the edit."""
        await self.pacer.request()
        channel = self.client.get_partial_messageable(channel_id, guild_id=guild_id)
        return await channel.get_partial_message(message_id).edit(**fields)

    async def delete(self, channel_id: int, message_id: int) -> None:
        """Delete the bot's own message ``message_id``."""
        await self.pacer.request()
        await (
            self.client.get_partial_messageable(channel_id).get_partial_message(message_id).delete()
        )

    async def open_dm(self, user_id: int) -> int:
        """The id of the bot's DM channel with ``user_id`` (opened if need be)."""
        await self.pacer.request()
        # discord.py's create_dm sends the id as a number; the docs ask for a snowflake string.
        opened = await self.client.http.request(
            Route("POST", "/users/@me/channels"), json={"recipient_id": str(user_id)}
        )
        return int(opened["id"])

    # -- threads -------------------------------------------------------------------------------

    async def thread(
        self, channel: discord.TextChannel, name: str, *, archive_minutes: ArchiveMinutes
    ) -> discord.Thread:
        """A new public thread in ``channel`` that starts from no message."""
        await self.pacer.request()
        return await channel.create_thread(
            name=name,
            type=discord.ChannelType.public_thread,
            auto_archive_duration=archive_minutes,
        )

    async def thread_from(
        self,
        channel: discord.TextChannel,
        message_id: int,
        name: str,
        *,
        archive_minutes: ArchiveMinutes,
    ) -> discord.Thread:
        """A thread started from the message ``message_id`` of ``channel`` (Discord refuses
        a second one with its error code 160004)."""
        await self.pacer.request()
        return await channel.get_partial_message(message_id).create_thread(
            name=name,
            auto_archive_duration=archive_minutes,
        )

    # -- what the cache may lack ---------------------------------------------------------------

    async def channel(self, channel_id: int) -> Any:
        """The channel or thread ``channel_id``: from the cache, else fetched (paced)."""
        found = self.client.get_channel(channel_id)
        if found is not None:
            return found
        await self.pacer.request()
        return await self.client.fetch_channel(channel_id)

    async def user(self, user_id: int) -> discord.User:
        """The user ``user_id``: from the cache, else fetched (paced)."""
        found = self.client.get_user(user_id)
        if found is not None:
            return found
        await self.pacer.request()
        return await self.client.fetch_user(user_id)

    async def session_limits(self) -> discord.SessionStartLimits:
        """How many gateway sessions may start at once (``GET /gateway/bot``)."""
        client = self.client
        if not isinstance(client, discord.AutoShardedClient):
            raise TypeError("only a sharded client starts several sessions")
        await self.pacer.request()
        return await client.fetch_session_start_limits()

    # -- scheduled events ----------------------------------------------------------------------

    async def create_event(
        self,
        guild: discord.Guild,
        *,
        name: str,
        start: datetime.datetime,
        end: datetime.datetime,
        location: str,
        description: str,
    ) -> discord.ScheduledEvent:
        """An external scheduled event of ``guild``, seen by its members only."""
        await self.pacer.request()
        return await guild.create_scheduled_event(
            name=name,
            start_time=start,
            end_time=end,
            entity_type=discord.EntityType.external,
            privacy_level=discord.PrivacyLevel.guild_only,
            location=location,
            description=description,
        )

    async def move_event(self, guild_id: int, event_id: int, status: int) -> None:
        """Move a scheduled event of the bot's on to ``status`` (active, completed, ...)."""
        await self.pacer.request()
        await self.client.http.edit_scheduled_event(guild_id, event_id, status=status)


__all__ = ["ArchiveMinutes", "Outbox"]
