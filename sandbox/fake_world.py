"""The fake Discord's world (``World``): every record, Discord's rules for permissions and
mentions, and the ids, tokens and files they get. Its payload shapes are ``WorldPayloads``
(``sandbox.fake_payloads``)."""

from __future__ import annotations

import itertools
import re
import secrets
import time
from collections import deque
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from sandbox.fake_model import (
    ALL_PERMISSIONS,
    DEFAULT_BOT_ROLE,
    DEFAULT_EVERYONE,
    DISCORD_EPOCH_MS,
    PRIVATE_CHANNEL_PERMISSIONS,
    ApiError,
    ApplicationCommand,
    Attachment,
    Channel,
    ChannelType,
    Guild,
    Interaction,
    Json,
    Member,
    Message,
    MessageType,
    Perm,
    Role,
    Snowflakes,
    User,
    invalid_form,
    missing_access,
    missing_permissions,
    walk_components,
)
from sandbox.fake_payloads import WorldPayloads

# Files an edit replaced stay downloadable for a while, as on Discord's CDN: a client that
# drew the message just before the edit still loads its picture.
REPLACED_FILES_KEPT = 500

USER_MENTION = re.compile(r"<@!?([0-9]{15,21})>")
ROLE_MENTION = re.compile(r"<@&([0-9]{15,21})>")


class World(WorldPayloads):
    """All state of the fake Discord, with Discord's own rules for permissions and payloads."""

    def __init__(self, *, base_url: str, token: str) -> None:
        self.base_url = base_url
        self.token = token
        # Added to the real time for the fake's clock (World.now, the ids' times):
        # FakeDiscord.advance ages interaction tokens and rate-limit windows without waiting.
        self.clock_offset = 0.0
        self.ids = Snowflakes(lambda: self.clock_offset)
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self.interactions_by_token: dict[str, Interaction] = {}
        self.commands: list[ApplicationCommand] = []
        self.command_syncs: list[tuple[float, int | None]] = []
        # Every file by id: those on messages, and the newest of those edits replaced.
        self.attachments: dict[int, Attachment] = {}
        self._replaced: deque[int] = deque()
        self.bot = self.add_user("Tabula", bot=True)
        self.application_id = self.bot.id
        self._component_ids = itertools.count(1)

    def now(self) -> float:
        """The fake's clock: monotonic seconds, plus however far tests advanced it."""
        return time.monotonic() + self.clock_offset

    def edit_stamp(self, message_id: int, last: str | None) -> str:
        """A message's ``edited_timestamp`` for an edit now, on the fake's clock (the one its
        ids carry): as Discord's, later than the message's creation and its previous edit, so
        the edit that landed last has the latest time even within one microsecond."""
        created = datetime.fromtimestamp(0, UTC) + timedelta(
            milliseconds=(message_id >> 22) + DISCORD_EPOCH_MS
        )
        floor = created if last is None else max(created, datetime.fromisoformat(last))
        now = datetime.now(UTC) + timedelta(seconds=self.clock_offset)
        return max(now, floor + timedelta(microseconds=1)).isoformat(timespec="microseconds")

    def add_user(self, name: str, *, bot: bool = False) -> User:
        user = User(id=self.ids.next(), name=name, bot=bot, global_name=name)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, owner: User, *, shard: tuple[int, int] | None = None) -> Guild:
        """``shard``: (shard id, shard count) the server's id must fall on."""
        guild_id = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        guild = Guild(id=guild_id, name=name, owner_id=owner.id)
        guild.roles[guild.id] = Role(guild.id, guild.id, "@everyone", int(DEFAULT_EVERYONE))
        self.guilds[guild.id] = guild
        bot_role = Role(
            self.ids.next(), guild.id, self.bot.name, int(DEFAULT_BOT_ROLE), 1, self.bot.id
        )
        guild.roles[bot_role.id] = bot_role
        self.add_member(guild, owner)
        self.add_member(guild, self.bot, roles=[bot_role.id])
        return guild

    def add_member(self, guild: Guild, user: User, roles: Iterable[int] = ()) -> Member:
        member = Member(user=user, guild_id=guild.id, roles=list(roles))
        guild.members[user.id] = member
        return member

    def add_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(
            id=self.ids.next(), guild_id=guild.id, name=name, position=len(guild.channel_ids)
        )
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        return channel

    def add_group_dm(self, members: Iterable[User]) -> Channel:
        people = list(members)
        channel = Channel(
            id=self.ids.next(),
            guild_id=0,
            name=", ".join(u.name for u in people),
            type=ChannelType.GROUP_DM,
            owner_id=people[0].id,
            recipient_ids=[u.id for u in people],
        )
        self.channels[channel.id] = channel
        return channel

    def add_role(self, guild: Guild, name: str, permissions: int) -> Role:
        role = Role(self.ids.next(), guild.id, name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        return role

    def bot_role(self, guild: Guild) -> Role:
        return next(r for r in guild.roles.values() if r.bot_id == self.bot.id)

    def channel(self, channel_id: int | str) -> Channel:
        channel = self.channels.get(_snowflake(channel_id))
        if channel is None or channel.deleted:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def message_in(self, channel: Channel, message_id: int | str) -> Message:
        message = self.messages.get(_snowflake(message_id))
        if (
            message is None
            or message.deleted
            or message.channel_id != channel.id
            or message.ephemeral  # ephemeral messages cannot be fetched by the bot
        ):
            raise ApiError(404, 10008, "Unknown Message")
        return message

    def guild(self, guild_id: int | str) -> Guild:
        guild = self.guilds.get(_snowflake(guild_id))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    def base_permissions(self, guild: Guild, user_id: int) -> int:
        if user_id == guild.owner_id:
            return ALL_PERMISSIONS
        member = guild.members.get(user_id)
        if member is None:
            return 0
        perms = guild.roles[guild.id].permissions
        for role_id in member.roles:
            role = guild.roles.get(role_id)
            if role is not None:
                perms |= role.permissions
        if perms & Perm.ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def permissions_in(self, channel: Channel, user_id: int) -> int:
        """Permissions of ``user_id`` in ``channel``: threads use their parent's overwrites.
        In the bot's own DM channel it may read, write and attach (Discord has no overwrites
        there)."""
        if channel.is_group_dm:
            if user_id not in channel.recipient_ids:
                return 0  # the bot is no member: its token's channel routes answer 403
            return int(PRIVATE_CHANNEL_PERMISSIONS)
        if channel.is_dm:
            return int(
                Perm.VIEW_CHANNEL
                | Perm.SEND_MESSAGES
                | Perm.ATTACH_FILES
                | Perm.EMBED_LINKS
                | Perm.READ_MESSAGE_HISTORY
            )
        guild = self.guilds[channel.guild_id]
        base = self.base_permissions(guild, user_id)
        if base == ALL_PERMISSIONS:
            return ALL_PERMISSIONS
        source = self.channels[channel.parent_id] if channel.parent_id else channel
        perms = base
        everyone = source.overwrites.get(guild.id)
        if everyone is not None:
            perms = (perms & ~everyone.deny) | everyone.allow
        member = guild.members.get(user_id)
        roles = member.roles if member else []
        allow = deny = 0
        for role_id in roles:
            ow = source.overwrites.get(role_id)
            if ow is not None and ow.type == 0:
                allow |= ow.allow
                deny |= ow.deny
        perms = (perms & ~deny) | allow
        own = source.overwrites.get(user_id)
        if own is not None and own.type == 1:
            perms = (perms & ~own.deny) | own.allow
        if not perms & Perm.VIEW_CHANNEL:
            return 0
        if not channel.is_thread and not perms & Perm.SEND_MESSAGES:
            # Discord drops what depends on sending when sending itself is denied.
            perms &= ~(
                Perm.SEND_TTS_MESSAGES
                | Perm.MENTION_EVERYONE
                | Perm.EMBED_LINKS
                | Perm.ATTACH_FILES
            )
        if (
            channel.type == ChannelType.PRIVATE_THREAD
            and user_id not in channel.thread_members
            and not perms & Perm.MANAGE_THREADS
        ):
            return 0
        return perms

    def require(self, channel: Channel, *needed: int) -> None:
        """Raise what Discord answers when the bot lacks a permission in ``channel``."""
        perms = self.permissions_in(channel, self.bot.id)
        if not perms & Perm.VIEW_CHANNEL:
            raise missing_access()
        for bit in needed:
            if not perms & bit:
                raise missing_permissions()

    def resolve_mentions(self, message: Message, allowed: Json | None) -> None:
        """Fill the mention fields from the content, filtered by ``allowed_mentions``.

        Discord lists in ``mentions`` only the users the message may ping, so a bot that sends
        ``allowed_mentions=none`` shows an empty list here too.
        """
        parse = {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse", []))
        allowed_users = {int(u) for u in (allowed or {}).get("users", [])}
        allowed_roles = {int(r) for r in (allowed or {}).get("roles", [])}
        guild = self.guilds.get(message.guild_id)  # None: a direct message, no roles
        # A V2 message's words are its text displays, and a mention in one pings as one in
        # content does (Discord's docs of the text display), subject to allowed_mentions.
        words = "\n".join(
            [message.content]
            + [
                str(c.get("content") or "")
                for c in walk_components(message.components)
                if c.get("type") == 10
            ]
        )
        users: list[int] = []
        for raw in USER_MENTION.findall(words):
            uid = int(raw)
            if (
                uid in self.users
                and uid not in users
                and ("users" in parse or uid in allowed_users)
            ):
                users.append(uid)
        if (
            message.type == MessageType.REPLY
            and message.reference
            and (allowed is None or allowed.get("replied_user", False))
        ):
            referenced = self.messages.get(int(message.reference.get("message_id", 0)))
            if referenced is not None and referenced.author_id not in users:
                users.append(referenced.author_id)
        roles: list[int] = []
        for raw in ROLE_MENTION.findall(words):
            rid = int(raw)
            if (
                guild is not None
                and rid in guild.roles
                and rid not in roles
                and ("roles" in parse or rid in allowed_roles)
            ):
                roles.append(rid)
        message.mention_ids = users
        message.mention_role_ids = roles
        message.mention_everyone = "everyone" in parse and (
            "@everyone" in words or "@here" in words
        )

    def add_attachment(self, attachment: Attachment) -> None:
        self.attachments[attachment.id] = attachment

    def replace_attachments(self, old: Iterable[Attachment], new: Iterable[Attachment]) -> None:
        kept = {a.id for a in new}
        for attachment in old:
            if attachment.id not in kept:
                self._replaced.append(attachment.id)
        while len(self._replaced) > REPLACED_FILES_KEPT:
            self.attachments.pop(self._replaced.popleft(), None)

    def next_component_id(self) -> int:
        return next(self._component_ids)

    def new_token(self, interaction_id: int) -> str:
        return f"fake-ix-{interaction_id}-{secrets.token_hex(16)}"


def _snowflake(value: int | str) -> int:
    try:
        return int(value)
    except ValueError:
        raise invalid_form([], "NUMBER_TYPE_COERCE", f'Value "{value}" is not snowflake.') from None
