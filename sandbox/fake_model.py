"""The fake Discord's records: users, roles, members, channels, guilds, messages,
attachments, interactions and commands, with Discord's enums, permission bits and errors.

Kept free of HTTP and websockets so the REST routes and the gateway both read one model;
``sandbox.fake_world`` holds them all (``World``), ``sandbox.fake_payloads`` shapes them as
Discord sends them.
"""

from __future__ import annotations

import enum
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

Json = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


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
    # The person accepts no direct messages from the bot (their privacy settings, or they
    # blocked it): Discord opens the DM channel but refuses every message in it (50007).
    dms_closed: bool = False

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


@dataclass(frozen=True, slots=True)
class FileOption:
    """A file a person attaches to a slash command's attachment option (type 11): Discord
    uploads it, puts it in the interaction's ``data.resolved.attachments`` (marked
    ``ephemeral``) and the option's value is its id; the bot downloads it from its ``url``."""

    filename: str
    data: bytes
    content_type: str = "text/plain"


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


def json_response(data: Any, status: int = 200) -> web.Response:
    # aiohttp's json_response appends "; charset=utf-8", which discord.py does not parse as JSON.
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json"},
    )
