"""What the bot did, read without waiting: the requests it made, the commands it synced,
the messages, threads, mentions and attachments it posted, and computed permissions.

These are plain methods, so a test may use them inside ``wait_for`` predicates.
"""

from __future__ import annotations

from sandbox.fake_limits import Traffic
from sandbox.fake_model import (
    PNG_MAGIC,
    ApplicationCommand,
    Channel,
    Guild,
    Interaction,
    Message,
    User,
)
from sandbox.fake_rest import RequestRecord
from sandbox.fake_state import ChannelLike, FakeState, MessageLike, UserLike


class FakeReading(FakeState):
    """Queries of the world and of the request log."""

    @property
    def requests(self) -> list[RequestRecord]:
        return self.rest.requests

    @property
    def traffic(self) -> Traffic:
        """Requests by budget, route and channel, and 429s by scope (``traffic.report()``)."""
        return self.rest.traffic

    @property
    def server_errors(self) -> list[str]:
        """Exceptions inside the fake itself (answered with 500): a test should see none."""
        return self.rest.server_errors

    def find_requests(
        self, method: str | None = None, route: str | None = None
    ) -> list[RequestRecord]:
        """Requests by method and route template.

        For example ``find_requests("POST", "/channels/{channel_id}/messages")``.
        """
        return [
            r
            for r in self.rest.requests
            if (method is None or r.method == method) and (route is None or r.route == route)
        ]

    @property
    def interactions(self) -> list[Interaction]:
        return list(self.world.interactions.values())

    def commands(self, guild: Guild | None = None) -> list[ApplicationCommand]:
        """Synced commands: global ones, or those of ``guild``."""
        scope = guild.id if guild is not None else None
        return [c for c in self.world.commands if c.guild_id == scope]

    @property
    def command_syncs(self) -> int:
        return len(self.world.command_syncs)

    def channel_named(self, name: str, guild: Guild | None = None) -> Channel:
        guild = guild or self.guild
        for channel_id in guild.channel_ids:
            channel = self.world.channels[channel_id]
            if channel.name == name and not channel.deleted:
                return channel
        raise LookupError(f"no channel named {name!r}")

    def messages(
        self, channel: ChannelLike | None = None, *, include_ephemeral: bool = False
    ) -> list[Message]:
        """Live messages of a channel, oldest first (ephemeral ones only when asked)."""
        channel_id = self._channel(channel).id
        return sorted(
            (
                m
                for m in self.world.messages.values()
                if m.channel_id == channel_id
                and not m.deleted
                and (include_ephemeral or not m.ephemeral)
            ),
            key=lambda m: m.id,
        )

    def last_message(self, channel: ChannelLike | None = None) -> Message | None:
        found = self.messages(channel)
        return found[-1] if found else None

    def ephemeral_replies(self, interaction: Interaction) -> list[Message]:
        """Ephemeral messages answering ``interaction``: the original and followups, in order."""
        ids = (
            [interaction.original_id] if interaction.original_id else []
        ) + interaction.followup_ids
        found = [self.world.messages[i] for i in ids]
        return [m for m in found if m.ephemeral and not m.deleted and not m.loading]

    def attachments_png(self, message: MessageLike) -> list[bytes]:
        """The bytes of every attachment, each checked to be a PNG."""
        found = self.message(message)
        for item in found.attachments:
            if not item.data.startswith(PNG_MAGIC):
                raise AssertionError(f"attachment {item.filename!r} is not a PNG")
        return [item.data for item in found.attachments]

    def threads(self, parent: ChannelLike | None = None) -> list[Channel]:
        parent_id = None if parent is None else self._channel(parent).id
        return [
            c
            for c in self.world.channels.values()
            if c.is_thread and not c.deleted and (parent_id is None or c.parent_id == parent_id)
        ]

    def mentions(self, message: MessageLike) -> list[User]:
        """Users the message pings (after ``allowed_mentions``), as Discord lists them."""
        return [self.world.users[u] for u in self.message(message).mention_ids]

    def permissions(self, channel: ChannelLike | None = None, user: UserLike | None = None) -> int:
        """Computed permissions in ``channel`` (the bot's unless ``user`` is given)."""
        user_id = self.world.bot.id if user is None else self._user(user).id
        return self.world.permissions_in(self._channel(channel), user_id)
