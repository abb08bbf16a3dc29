"""What the sandbox page shows one member: the server, its channels and threads, the open
channel's messages as that member sees them (ephemeral ones only their own), and the slash
commands. Plain JSON built from the emulator's world; the page only draws it."""

from __future__ import annotations

import copy
from dataclasses import dataclass

from sandbox.command_line import guild_commands
from sandbox.fake_discord import FakeDiscord
from sandbox.fake_model import (
    Attachment,
    Channel,
    ChannelType,
    Guild,
    Json,
    Message,
    MessageFlag,
    MessageType,
    Perm,
    User,
    png_size,
    walk_components,
)

# The newest messages a channel opens with; scrolled to the top, the page asks for as many
# again before them (``back``), and from then on for everything from the oldest it shows.
MESSAGE_LIMIT = 60
COMMAND_KEYS = ("name", "description", "type", "required", "choices", "options", "autocomplete")
TYPE_NAMES = {
    MessageType.THREAD_CREATED: "thread_created",
    MessageType.REPLY: "reply",
    MessageType.CHAT_INPUT_COMMAND: "command",
}


@dataclass(slots=True)
class BotStatus:
    """The bot process as the sandbox runner sees it: starting, online or stopped."""

    state: str = "starting"
    detail: str = ""
    pid: int | None = None


@dataclass(frozen=True, slots=True)
class Window:
    """Which of a channel's messages the page shows: the newest ``MESSAGE_LIMIT`` (no
    ``start``), or every one from the message ``start`` on; ``back`` adds ``MESSAGE_LIMIT``
    older ones before that."""

    start: int | None = None
    back: bool = False


def page_state(
    fake: FakeDiscord,
    members: list[User],
    viewer: User,
    channel: Channel,
    bot: BotStatus,
    window: Window = Window(),
) -> Json:
    world = fake.world
    guild = fake.guild
    online = bot.state != "stopped" and fake.gateway.connected and bool(world.command_syncs)
    private = channel.guild_id == 0
    # In the bot's own DM only the bot writes: the emulator has no commands there.
    offered = online and not (private and not channel.is_group_dm)
    commands = guild_commands(world, guild, private=channel.is_group_dm) if offered else []
    everything = visible_messages(fake, channel, viewer)
    shown = _window(everything, window)
    return {
        "version": fake.changes,
        "guild": {"id": str(guild.id), "name": guild.name},
        "me": str(viewer.id),
        "members": [_person(fake, guild, u, pretend=u in members) for u in _everyone(fake, guild)],
        "roles": {str(r.id): r.name for r in guild.roles.values()},
        "channels": _channels(fake, guild, viewer),
        "channel_names": {
            str(c.id): c.name for c in world.channels.values() if c.guild_id == guild.id
        },
        "direct": _direct(fake, viewer),
        "channel": _channel_header(fake, channel, viewer),
        "messages": [_message(fake, m, viewer) for m in shown],
        # Messages before the first shown: the page loads them when scrolled to the top.
        "older": bool(shown) and shown[0] is not everything[0],
        "commands": [_command(c.body) for c in commands],
        "bot": {
            "state": "online" if online else ("stopped" if bot.state == "stopped" else "starting"),
            "detail": bot.detail,
            "pid": bot.pid,
            "name": world.bot.name,
        },
    }


def can_view(fake: FakeDiscord, channel: Channel, user: User) -> bool:
    if channel.is_dm:  # the bot's DM with one person: theirs alone
        return channel.recipient_id == user.id
    return not channel.deleted and bool(
        fake.world.permissions_in(channel, user.id) & Perm.VIEW_CHANNEL
    )


def visible_messages(fake: FakeDiscord, channel: Channel, viewer: User) -> list[Message]:
    """All the messages of ``channel`` ``viewer`` sees, oldest first: everyone's, plus
    ``viewer``'s own ephemeral ones."""
    world = fake.world
    shown = []
    for message in fake.messages(channel, include_ephemeral=True):
        if message.ephemeral:
            owner = world.interactions.get(message.interaction_id or 0)
            if owner is None or owner.user_id != viewer.id:
                continue
        shown.append(message)
    return shown


def _window(messages: list[Message], window: Window) -> list[Message]:
    first = max(0, len(messages) - MESSAGE_LIMIT)
    if window.start is not None:
        # The first message from ``start`` on (``start`` itself may have been deleted).
        first = next((i for i, m in enumerate(messages) if m.id >= window.start), len(messages))
        first = min(first, max(0, len(messages) - MESSAGE_LIMIT))
    if window.back:
        first = max(0, first - MESSAGE_LIMIT)
    return messages[first:]


def direct_channels(fake: FakeDiscord, viewer: User) -> list[Channel]:
    """``viewer``'s direct messages: the bot's DM with them (once the bot opened it) and the
    DMs and group DMs they are in (where a user-installed app plays)."""
    found = [
        c
        for c in fake.world.channels.values()
        if (c.is_dm and c.recipient_id == viewer.id)
        or (c.is_group_dm and viewer.id in c.recipient_ids)
    ]
    return sorted(found, key=lambda c: (not c.is_dm, c.id))


def _direct(fake: FakeDiscord, viewer: User) -> list[Json]:
    return [
        {
            "id": str(c.id),
            "name": _private_name(fake, c, viewer),
            "bot": c.is_dm,
            "count": len(visible_messages(fake, c, viewer)),
        }
        for c in direct_channels(fake, viewer)
    ]


def _private_name(fake: FakeDiscord, channel: Channel, viewer: User) -> str:
    """A DM is named after the others in it, as in Discord's list of direct messages."""
    world = fake.world
    if channel.is_dm:
        return world.bot.global_name or world.bot.name
    others = [world.users[u] for u in channel.recipient_ids if u != viewer.id]
    return ", ".join(u.global_name or u.name for u in others) or channel.name


def _everyone(fake: FakeDiscord, guild: Guild) -> list[User]:
    return [fake.world.users[user_id] for user_id in guild.members]


def _person(fake: FakeDiscord, guild: Guild, user: User, *, pretend: bool) -> Json:
    member = guild.members[user.id]
    return {
        "id": str(user.id),
        "name": member.nick or user.global_name or user.name,
        "bot": user.bot,
        "owner": user.id == guild.owner_id,
        "pretend": pretend,
        "roles": [str(r) for r in member.roles],
        "is_app": user.id == fake.world.bot.id,
    }


def _channels(fake: FakeDiscord, guild: Guild, viewer: User) -> list[Json]:
    world = fake.world
    listed = []
    for channel_id in guild.channel_ids:
        channel = world.channels[channel_id]
        if channel.is_thread or not can_view(fake, channel, viewer):
            continue
        threads = [
            {
                "id": str(t.id),
                "name": t.name,
                "private": t.type == ChannelType.PRIVATE_THREAD,
            }
            for t in fake.threads(channel)
            if not t.archived and can_view(fake, t, viewer)
        ]
        listed.append({"id": str(channel.id), "name": channel.name, "threads": threads})
    return listed


def _channel_header(fake: FakeDiscord, channel: Channel, viewer: User) -> Json:
    parent = fake.world.channels.get(channel.parent_id or 0)
    private = channel.is_dm or channel.is_group_dm
    return {
        "id": str(channel.id),
        "name": _private_name(fake, channel, viewer) if private else channel.name,
        "private": private,
        "bot_dm": channel.is_dm,
        "thread": channel.is_thread,
        "archived": channel.archived,
        "parent": None if parent is None else {"id": str(parent.id), "name": parent.name},
    }


def _message(fake: FakeDiscord, message: Message, viewer: User) -> Json:
    world = fake.world
    author = world.users[message.author_id]
    # A direct message has no server; its people are members of the sandbox's one.
    guild = world.guilds.get(message.guild_id) or fake.guild
    member = guild.members.get(author.id)
    viewer_roles = set(guild.members[viewer.id].roles) if viewer.id in guild.members else set()
    # Images an embed shows (``attachment://name``) are drawn in the embed, not below it.
    by_name = {a.filename: a for a in message.attachments}
    in_embeds: set[str] = set()
    embeds = [_embed(e, by_name, in_embeds) for e in message.embeds]
    v2 = bool(message.flags & MessageFlag.IS_COMPONENTS_V2)
    shown: Json = {
        "id": str(message.id),
        "author": {
            "id": str(author.id),
            "name": (member.nick if member else None) or author.global_name or author.name,
            "bot": author.bot,
        },
        "timestamp": message.timestamp,
        "edited": message.edited_timestamp is not None,
        "content": message.content,
        "kind": TYPE_NAMES.get(message.type, "default"),
        "ephemeral": message.ephemeral,
        "loading": message.loading,
        "embeds": embeds,
        # A V2 message shows its files only where its components place them.
        "attachments": []
        if v2
        else [_attachment(a) for a in message.attachments if a.filename not in in_embeds],
        "components": _local_media(message.components, by_name),
        "v2": v2,
        "mentions_me": viewer.id in message.mention_ids
        or message.mention_everyone
        or bool(viewer_roles & set(message.mention_role_ids)),
        "thread": None,
        "interaction": None,
        "reference": None,
    }
    if message.thread_id is not None and message.thread_id in world.channels:
        thread = world.channels[message.thread_id]
        shown["thread"] = {"id": str(thread.id), "name": thread.name}
    if message.interaction_id is not None and message.interaction_id in world.interactions:
        ix = world.interactions[message.interaction_id]
        user = world.users[ix.user_id]
        shown["interaction"] = {
            "user": user.global_name or user.name,
            "user_id": str(user.id),
            "command": ix.name if ix.type == 2 else None,
        }
    if message.reference is not None:
        shown["reference"] = _reference(fake, message)
    return shown


def _reference(fake: FakeDiscord, message: Message) -> Json:
    assert message.reference is not None
    world = fake.world
    target_id = int(message.reference.get("message_id") or 0)
    referenced = world.messages.get(target_id)
    found: Json = {"channel_id": str(message.reference.get("channel_id") or "")}
    if referenced is not None and not referenced.deleted:
        author = world.users[referenced.author_id]
        found.update(
            message_id=str(referenced.id),
            author=author.global_name or author.name,
            content=referenced.content[:120],
        )
    return found


def _attachment(attachment: Attachment) -> Json:
    size = png_size(attachment.data)
    return {
        "url": _path(attachment.url),
        "filename": attachment.filename,
        "width": size[0] if size else None,
        "height": size[1] if size else None,
        "image": attachment.content_type.startswith("image/"),
    }


def _embed(embed: Json, by_name: dict[str, Attachment], in_embeds: set[str]) -> Json:
    shown = dict(embed)
    for key in ("image", "thumbnail"):
        part = embed.get(key)
        if not isinstance(part, dict):
            continue
        url = str(part.get("url") or "")
        if url.startswith("attachment://"):
            name = url.removeprefix("attachment://")
            attachment = by_name.get(name)
            if attachment is None:
                shown.pop(key)
                continue
            in_embeds.add(name)
            shown[key] = {**part, "url": _path(attachment.url)}
    return shown


def _local_media(components: list[Json], by_name: dict[str, Attachment]) -> list[Json]:
    """The components with their media at same-origin paths (a copy: the stored ones keep
    the URLs Discord gave), and a picture's size, as Discord's client knows it before the
    picture loads (the page keeps its room, so a conversation does not jump)."""
    shown = copy.deepcopy(components)
    for component in walk_components(shown):
        medias = [i.get("media") for i in component.get("items") or []]
        medias.append(component.get("media"))
        for media in medias:
            if isinstance(media, dict) and media.get("url"):
                url = str(media["url"])
                media["url"] = _path(url)
                attachment = by_name.get(url.removeprefix("attachment://").rsplit("/", 1)[-1])
                size = None if attachment is None else png_size(attachment.data)
                if size is not None and not media.get("width"):
                    media["width"], media["height"] = size
    return shown


def _path(url: str) -> str:
    """Same-origin paths for attachments, whatever host name the page was opened with."""
    marker = url.find("/attachments/")
    return url[marker:] if marker >= 0 else url


def _command(body: Json) -> Json:
    shown = {key: body[key] for key in COMMAND_KEYS if key in body}
    shown["options"] = [_command(o) for o in body.get("options") or []]
    return shown
