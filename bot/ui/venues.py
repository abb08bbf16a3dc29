"""Where a game is played: a thread of the channel when the server wants threads and the bot
may open them, else the channel itself.

A challenge's thread is started from its invitation message. Discord gives such a thread the
message's id and refuses a second thread on the same message, so a start that is tried again
(a click after a failed start, the recovery after a crash) finds the thread an earlier try
opened instead of leaving an empty one behind.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

import discord

from bot.service.lookup import Viewer
from bot.ui.replies import locale_of
from bot.vocabulary.errors import MissingPermissions

if TYPE_CHECKING:
    from bot.ui.outbox import Outbox
    from bot.ui.services import Services

log = logging.getLogger(__name__)

# Discord's answer to a second thread on one message ("A thread has already been created for
# this message"): the thread exists, with the message's id.
THREAD_ALREADY_CREATED = 160004
ARCHIVE_MINUTES: Final[Literal[1440]] = 1440  # a day without messages archives the thread


def viewer_of(interaction: discord.Interaction[Any]) -> Viewer:
    """Who clicked or typed, and where (the service's rule of what they may see)."""
    return Viewer(interaction.user.id, interaction.guild_id, interaction.channel_id)


def required_permissions(perms: discord.Permissions) -> list[str]:
    """Names of the permissions a game needs in a channel that ``perms`` lacks."""
    needed = {
        "view_channel": perms.view_channel,
        "send_messages": perms.send_messages,
        "attach_files": perms.attach_files,
        "embed_links": perms.embed_links,
    }
    return [name for name, granted in needed.items() if not granted]


@dataclass(frozen=True, slots=True)
class Venue:
    """The channel a game is asked for, what the bot may do there, and the language of the
    texts the start posts."""

    guild_id: int | None
    channel_id: int
    channel: Any  # the channel object; only a text channel can have threads
    permissions: discord.Permissions
    locale: str | None

    @classmethod
    def of(cls, interaction: discord.Interaction[Any]) -> Venue:
        assert interaction.channel_id is not None  # component and guild commands have one
        return cls(
            interaction.guild_id,
            interaction.channel_id,
            interaction.channel,
            interaction.app_permissions,
            locale_of(interaction),
        )

    @classmethod
    async def find(
        cls, outbox: Outbox, guild_id: int | None, channel_id: int, locale: str | None
    ) -> Venue:
        """The venue without an interaction (at start-up), from the bot's own view of the
        channel. Raises :class:`discord.HTTPException` when the channel is gone."""
        channel: Any = await outbox.channel(channel_id)
        guild = getattr(channel, "guild", None)
        me = guild.me if guild is not None else None
        perms = (
            channel.permissions_for(me)
            if me is not None and isinstance(channel, discord.abc.GuildChannel | discord.Thread)
            else discord.Permissions.none()
        )
        return cls(guild_id, channel_id, channel, perms, locale)

    def check_can_play(self) -> None:
        if self.guild_id is None:
            # A DM or group DM: the game is shown through interactions only, which need no
            # channel permission (``bot.ui.delivery``).
            return
        missing = required_permissions(self.permissions)
        if missing:
            raise MissingPermissions(permissions=", ".join(missing))

    @property
    def can_open_threads(self) -> bool:
        return (
            isinstance(self.channel, discord.TextChannel)
            and self.permissions.create_public_threads
            and self.permissions.send_messages_in_threads
        )


async def place_game(
    services: Services, venue: Venue, title: str, *, thread_from: int | None = None
) -> tuple[int, int | None]:
    """(channel id, parent channel id or None) for a new game at ``venue``: a new thread when
    the server plays in threads and the bot may open one, else the channel itself.

    ``thread_from``: the message the thread starts from (a challenge's invitation), so that
    trying again finds the same thread.
    """
    if venue.can_open_threads and await services.opens_threads(venue.guild_id):
        channel = venue.channel
        assert isinstance(channel, discord.TextChannel)
        try:
            thread = await _open_thread(services.outbox, venue, channel, title[:100], thread_from)
            return thread.id, channel.id
        except discord.Forbidden:
            log.info("thread creation refused in channel %s; playing in the channel", channel.id)
    return venue.channel_id, None


async def _open_thread(
    outbox: Outbox,
    venue: Venue,
    channel: discord.TextChannel,
    name: str,
    thread_from: int | None,
) -> discord.Thread:
    # Starting a thread on a message needs to see the message (Read Message History).
    if thread_from is not None and venue.permissions.read_message_history:
        try:
            return await outbox.thread_from(
                channel, thread_from, name, archive_minutes=ARCHIVE_MINUTES
            )
        except discord.NotFound:  # the invitation was deleted: a thread of its own then
            log.info("message %s is gone; the game gets a thread of its own", thread_from)
        except discord.HTTPException as error:
            if error.code != THREAD_ALREADY_CREATED:
                raise
            return await _existing_thread(outbox, thread_from)
    return await outbox.thread(channel, name, archive_minutes=ARCHIVE_MINUTES)


async def _existing_thread(outbox: Outbox, thread_id: int) -> discord.Thread:
    """The thread an earlier try started (it may be missing from the cache after a restart)."""
    found: Any = await outbox.channel(thread_id)
    if not isinstance(found, discord.Thread):
        raise TypeError(f"channel {thread_id} is not a thread")
    log.info("using thread %s, opened by an earlier try", thread_id)
    return found
