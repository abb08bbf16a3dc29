"""The fake Discord's world: guilds, users, channels, messages and interactions.

Plain records plus the rules Discord applies to them (permissions, payload shapes), kept free
of HTTP and websockets so the REST routes and the gateway both read one model.
"""

from __future__ import annotations

import enum
import itertools
import json
import re
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

Json = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
# Files an edit replaced stay downloadable for a while, as on Discord's CDN: a client that
# drew the message just before the edit still loads its picture.
REPLACED_FILES_KEPT = 500


class Perm(enum.IntFlag):
    """Discord permission bits (the subset a game bot meets, plus the dangerous ones)."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_AUDIT_LOG = 1 << 7
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    SEND_TTS_MESSAGES = 1 << 12
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    CHANGE_NICKNAME = 1 << 26
    MANAGE_NICKNAMES = 1 << 27
    MANAGE_ROLES = 1 << 28
    MANAGE_WEBHOOKS = 1 << 29
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    USE_EXTERNAL_STICKERS = 1 << 37
    SEND_MESSAGES_IN_THREADS = 1 << 38
    MODERATE_MEMBERS = 1 << 40


ALL_PERMISSIONS = (1 << 51) - 1

# What a fresh guild's @everyone gets, and what a bot invite usually asks for.
DEFAULT_EVERYONE = (
    Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.SEND_MESSAGES_IN_THREADS
    | Perm.CREATE_PUBLIC_THREADS
    | Perm.CREATE_PRIVATE_THREADS
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.ADD_REACTIONS
    | Perm.USE_EXTERNAL_EMOJIS
    | Perm.READ_MESSAGE_HISTORY
    | Perm.USE_APPLICATION_COMMANDS
    | Perm.CHANGE_NICKNAME
    | Perm.CREATE_INSTANT_INVITE
)
DEFAULT_BOT_ROLE = DEFAULT_EVERYONE | Perm.MANAGE_MESSAGES | Perm.MANAGE_THREADS
# What people have in their own DMs and group DMs (Discord has no overwrites there).
PRIVATE_CHANNEL_PERMISSIONS = (
    Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.ATTACH_FILES
    | Perm.EMBED_LINKS
    | Perm.READ_MESSAGE_HISTORY
    | Perm.USE_APPLICATION_COMMANDS
)
# Docs, Interactions, "app_permissions": where the app is no member (a user install in a DM
# or group DM), what its interaction answers may do.
APP_PERMISSIONS_AWAY = (
    Perm.ATTACH_FILES | Perm.EMBED_LINKS | Perm.MENTION_EVERYONE | Perm.USE_EXTERNAL_EMOJIS
)

PermissionsLike = int | str | Iterable[str]


def to_bits(value: PermissionsLike) -> int:
    """Accept an int, a permission name ("attach_files") or several names."""
    if isinstance(value, int):
        return int(value)
    names = [value] if isinstance(value, str) else list(value)
    bits = 0
    for name in names:
        try:
            bits |= Perm[name.upper()]
        except KeyError:
            raise ValueError(f"unknown permission name {name!r}") from None
    return bits


class ChannelType(enum.IntEnum):
    TEXT = 0
    DM = 1  # the bot's direct messages with one person (``Channel.recipient_id``)
    # People's own DM or group DM, where a user-installed bot is no member: it is reached only
    # through interactions (their ``context`` is 2, "private channel").
    GROUP_DM = 3
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


class MessageFlag(enum.IntFlag):
    SUPPRESS_EMBEDS = 1 << 2
    HAS_THREAD = 1 << 5
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12
    IS_COMPONENTS_V2 = 1 << 15


class MessageType(enum.IntEnum):
    DEFAULT = 0
    THREAD_CREATED = 18
    REPLY = 19
    CHAT_INPUT_COMMAND = 20


class InteractionType(enum.IntEnum):
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    APPLICATION_COMMAND_AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class CallbackType(enum.IntEnum):
    PONG = 1
    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9


class ApiError(Exception):
    """A Discord error response: HTTP status plus the JSON ``{"message", "code"}`` body."""

    def __init__(self, status: int, code: int, message: str, errors: Json | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> Json:
        body: Json = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


def missing_permissions() -> ApiError:
    return ApiError(403, 50013, "Missing Permissions")


def missing_access() -> ApiError:
    return ApiError(403, 50001, "Missing Access")


def invalid_form(path: list[str | int], error_code: str, message: str) -> ApiError:
    """50035 with Discord's nested ``errors`` object pointing at the offending field."""
    errors: Json = {"_errors": [{"code": error_code, "message": message}]}
    for key in reversed(path):
        errors = {str(key): errors}
    return ApiError(400, 50035, "Invalid Form Body", errors)


class Snowflakes:
    """Increasing ids that carry their creation time, as discord.py reads it back: the real
    time plus ``offset()``, how far tests moved the fake's clock (``FakeDiscord.advance``)."""

    def __init__(self, offset: Callable[[], float] = lambda: 0.0) -> None:
        self._last = 0
        self._offset = offset

    def _now_ms(self) -> int:
        return int((time.time() + self._offset()) * 1000) - DISCORD_EPOCH_MS

    def next(self) -> int:
        ms = self._now_ms()
        candidate = ms << 22
        self._last = max(candidate, self._last + 1)
        return self._last

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """A new id whose server would be on shard ``shard_id`` of ``shard_count``
        (``(id >> 22) % shard_count``): the first later millisecond that fits, so the ids
        stay increasing and at most ``shard_count`` ms ahead of the clock."""
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"there is no shard {shard_id} of {shard_count}")
        ms = max(self._now_ms(), (self._last >> 22) + 1)
        ms += (shard_id - ms) % shard_count
        self._last = ms << 22
        return self._last


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(slots=True)
class User:
    id: int
    name: str
    bot: bool = False
    global_name: str | None = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass(slots=True)
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> Json:
        payload: Json = {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.bot_id is not None,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }
        if self.bot_id is not None:
            payload["tags"] = {"bot_id": str(self.bot_id)}
        return payload


@dataclass(slots=True)
class Member:
    user: User
    guild_id: int
    roles: list[int] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)
    nick: str | None = None


@dataclass(slots=True)
class Overwrite:
    id: int
    type: int  # 0 role, 1 member
    allow: int = 0
    deny: int = 0

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass(slots=True)
class Channel:
    id: int
    guild_id: int
    name: str
    type: ChannelType = ChannelType.TEXT
    position: int = 0
    parent_id: int | None = None
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    owner_id: int | None = None
    thread_members: set[int] = field(default_factory=set)
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    created_at: str = field(default_factory=iso_now)
    last_message_id: int | None = None
    message_count: int = 0
    deleted: bool = False
    recipient_id: int | None = None  # a DM channel's person; its guild_id is 0
    recipient_ids: list[int] = field(default_factory=list)  # a group DM's people

    @property
    def is_dm(self) -> bool:
        return self.type == ChannelType.DM

    @property
    def is_group_dm(self) -> bool:
        return self.type == ChannelType.GROUP_DM

    @property
    def is_thread(self) -> bool:
        return self.type in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass(slots=True)
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)


@dataclass(slots=True)
class Attachment:
    id: int
    channel_id: int
    filename: str
    data: bytes
    content_type: str
    base_url: str
    description: str | None = None

    @property
    def url(self) -> str:
        return f"{self.base_url}/attachments/{self.channel_id}/{self.id}/{self.filename}"

    def payload(self) -> Json:
        payload: Json = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        size = png_size(self.data)
        if size is not None:
            payload["width"], payload["height"] = size
        if self.description is not None:
            payload["description"] = self.description
        return payload


PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from the IHDR chunk, which always comes first in a PNG."""
    if not data.startswith(PNG_MAGIC) or len(data) < 24:
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


@dataclass(slots=True)
class Message:
    """A message as the fake stores it; ``versions`` keeps every earlier state for assertions."""

    id: int
    channel_id: int
    guild_id: int
    author_id: int
    content: str = ""
    embeds: list[Json] = field(default_factory=list)
    components: list[Json] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: MessageType = MessageType.DEFAULT
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    tts: bool = False
    nonce: str | None = None
    reference: Json | None = None
    thread_id: int | None = None
    mention_ids: list[int] = field(default_factory=list)
    mention_role_ids: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    deleted: bool = False
    versions: list[Json] = field(default_factory=list)
    edited_at: list[float] = field(default_factory=list)  # time.monotonic() of each edit

    @property
    def text(self) -> str:
        """What a person reads: the content, or a V2 message's text displays, one a line."""
        shown = [
            str(c.get("content") or "")
            for c in walk_components(self.components)
            if c.get("type") == 10
        ]
        return "\n".join(part for part in [self.content, *shown] if part)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & MessageFlag.LOADING)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    def component(self, custom_id: str) -> Json | None:
        for component in walk_components(self.components):
            if component.get("custom_id") == custom_id:
                return component
        return None

    def snapshot(self) -> Json:
        return {
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
            "edited_timestamp": self.edited_timestamp,
        }


def walk_components(components: Iterable[Json]) -> Iterable[Json]:
    """Every component, depth first: action rows, v2 containers, sections and labels included."""
    for component in components:
        yield component
        yield from walk_components(component.get("components", []))
        if isinstance(component.get("component"), dict):
            yield from walk_components([component["component"]])
        if isinstance(component.get("accessory"), dict):
            yield from walk_components([component["accessory"]])


@dataclass(slots=True)
class Interaction:
    """One interaction the fake sent, and everything the bot answered to it."""

    id: int
    token: str
    type: InteractionType
    user_id: int
    guild_id: int
    channel_id: int
    payload: Json
    created: float  # time.monotonic() when dispatched
    name: str = ""  # command name or custom_id
    message_id: int | None = None  # the message whose component was used
    callback_type: CallbackType | None = None
    callback_at: float | None = None
    callback_data: Json | None = None
    original_id: int | None = None
    original_edits: list[float] = field(default_factory=list)
    followup_ids: list[int] = field(default_factory=list)
    rejected_callbacks: list[tuple[float, int]] = field(default_factory=list)
    # World.now() when dispatched: the token's age and the ack deadline are measured on the
    # fake's clock, which tests may move forward (FakeDiscord.advance).
    born: float = 0.0
    # Discord's interaction ``context``: 0 a server, 1 the bot's DM, 2 a private channel (a
    # DM or group DM of people, where a user-installed bot is no member).
    context: int = 0

    @property
    def custom_id(self) -> str:
        return self.name

    @property
    def acked(self) -> bool:
        return self.callback_type is not None


@dataclass(slots=True)
class ApplicationCommand:
    id: int
    application_id: int
    guild_id: int | None
    body: Json
    version: int

    @property
    def name(self) -> str:
        return str(self.body["name"])

    def payload(self) -> Json:
        payload = {
            "type": 1,
            "description": "",
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            "contexts": None,
            "integration_types": [0],
            **self.body,
            "id": str(self.id),
            "application_id": str(self.application_id),
            "version": str(self.version),
        }
        if self.guild_id is not None:
            payload["guild_id"] = str(self.guild_id)
        return payload


USER_MENTION = re.compile(r"<@!?([0-9]{15,21})>")
ROLE_MENTION = re.compile(r"<@&([0-9]{15,21})>")


class World:
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

    # -- building the world -------------------------------------------------------------------

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

    # -- lookups that fail the way Discord does ------------------------------------------------

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

    # -- permissions (Discord's documented algorithm) -----------------------------------------

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

    # -- payloads ------------------------------------------------------------------------------

    def member_payload(self, member: Member, *, with_user: bool = True) -> Json:
        payload: Json = {
            "roles": [str(r) for r in member.roles],
            "nick": member.nick,
            "avatar": None,
            "banner": None,
            "joined_at": member.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            payload["user"] = member.user.payload()
        return payload

    def channel_payload(self, channel: Channel) -> Json:
        if channel.is_group_dm:
            return {
                "id": str(channel.id),
                "type": int(channel.type),
                "last_message_id": _opt_str(channel.last_message_id),
                "flags": 0,
                "name": channel.name,
                "icon": None,
                "owner_id": str(channel.owner_id),
                "recipients": [self.users[u].payload() for u in channel.recipient_ids],
            }
        if channel.is_dm:
            assert channel.recipient_id is not None
            return {
                "id": str(channel.id),
                "type": int(channel.type),
                "last_message_id": _opt_str(channel.last_message_id),
                "flags": 0,
                "recipients": [self.users[channel.recipient_id].payload()],
            }
        payload: Json = {
            "id": str(channel.id),
            "type": int(channel.type),
            "guild_id": str(channel.guild_id),
            "name": channel.name,
            "position": channel.position,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "flags": 0,
            "last_message_id": _opt_str(channel.last_message_id),
        }
        if channel.is_thread:
            payload.update(
                parent_id=str(channel.parent_id),
                owner_id=str(channel.owner_id),
                message_count=channel.message_count,
                total_message_sent=channel.message_count,
                member_count=len(channel.thread_members),
                thread_metadata={
                    "archived": channel.archived,
                    "locked": channel.locked,
                    "auto_archive_duration": channel.auto_archive_duration,
                    "archive_timestamp": channel.created_at,
                    "create_timestamp": channel.created_at,
                    "invitable": True,
                },
            )
        else:
            payload.update(
                topic=None,
                parent_id=None,
                default_auto_archive_duration=1440,
                permission_overwrites=[ow.payload() for ow in channel.overwrites.values()],
            )
        return payload

    def thread_member_payload(self, thread: Channel, user_id: int) -> Json:
        return {
            "id": str(thread.id),
            "user_id": str(user_id),
            "join_timestamp": thread.created_at,
            "flags": 0,
        }

    def guild_payload(self, guild: Guild) -> Json:
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
        }

    def guild_create_payload(self, guild: Guild, *, all_members: bool) -> Json:
        """GUILD_CREATE: without the members intent Discord sends only the bot's own member."""
        members = [m for uid, m in guild.members.items() if all_members or uid == self.bot.id]
        live = [self.channels[c] for c in guild.channel_ids if not self.channels[c].deleted]
        return {
            **self.guild_payload(guild),
            "unavailable": False,
            "large": False,
            "joined_at": guild.members[self.bot.id].joined_at,
            "member_count": len(guild.members),
            "members": [self.member_payload(m) for m in members],
            "channels": [self.channel_payload(c) for c in live if not c.is_thread],
            "threads": [self.channel_payload(c) for c in live if c.is_thread and not c.archived],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def message_payload(self, message: Message) -> Json:
        author = self.users[message.author_id]
        guild = self.guilds.get(message.guild_id)  # None: a direct message
        mentions = []
        for uid in message.mention_ids:
            user_payload = self.users[uid].payload()
            member = guild.members.get(uid) if guild is not None else None
            if member is not None:
                user_payload["member"] = self.member_payload(member, with_user=False)
            mentions.append(user_payload)
        payload: Json = {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "guild_id": str(message.guild_id),
            "author": author.payload(),
            "content": message.content,
            "timestamp": message.timestamp,
            "edited_timestamp": message.edited_timestamp,
            "tts": message.tts,
            "mention_everyone": message.mention_everyone,
            "mentions": mentions,
            "mention_roles": [str(r) for r in message.mention_role_ids],
            "attachments": [a.payload() for a in message.attachments],
            "embeds": message.embeds,
            "components": message.components,
            "pinned": False,
            "type": int(message.type),
            "flags": message.flags,
        }
        if guild is None:
            del payload["guild_id"]
        elif message.webhook_id is None and author.id in guild.members:
            payload["member"] = self.member_payload(guild.members[author.id], with_user=False)
        if message.webhook_id is not None:
            payload["webhook_id"] = str(message.webhook_id)
        if message.application_id is not None:
            payload["application_id"] = str(message.application_id)
        if message.nonce is not None:
            payload["nonce"] = message.nonce
        if message.reference is not None:
            payload["message_reference"] = message.reference
            referenced = self.messages.get(int(message.reference.get("message_id", 0)))
            if message.type == MessageType.REPLY:
                payload["referenced_message"] = (
                    None
                    if referenced is None or referenced.deleted
                    else self.message_payload(referenced)
                )
        if message.thread_id is not None:
            payload["thread"] = self.channel_payload(self.channels[message.thread_id])
        if message.interaction_id is not None:
            payload.update(self._interaction_metadata(message))
        return payload

    def _interaction_metadata(self, message: Message) -> Json:
        assert message.interaction_id is not None
        ix = self.interactions[message.interaction_id]
        user = self.users[ix.user_id].payload()
        metadata: Json = {
            "id": str(ix.id),
            "type": int(ix.type),
            "user": user,
            "authorizing_integration_owners": {"0": str(ix.guild_id)},
        }
        if ix.original_id is not None and ix.original_id != message.id:
            metadata["original_response_message_id"] = str(ix.original_id)
        if ix.message_id is not None:
            metadata["interacted_message_id"] = str(ix.message_id)
        extra: Json = {"interaction_metadata": metadata}
        if ix.type == InteractionType.APPLICATION_COMMAND:
            extra["interaction"] = {"id": str(ix.id), "type": 2, "name": ix.name, "user": user}
        return extra

    # -- messages ------------------------------------------------------------------------------

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


def _opt_str(value: int | None) -> str | None:
    return None if value is None else str(value)


def json_response(data: Any, status: int = 200) -> web.Response:
    # aiohttp's json_response appends "; charset=utf-8", which discord.py does not parse as JSON.
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json"},
    )
