"""A fake Discord on 127.0.0.1: REST, gateway and a small API to act as its members.

The end-to-end tests run the real bot against it, and ``tabula sandbox`` shows it as a page
(``sandbox.page_api``) where a person plays the members.

Usage::

    async with FakeDiscord() as fake:
        ...start the bot with fake.env()...
        alice = await fake.add_member("alice")
        ix = await fake.slash(alice, "ping")
        answer = await fake.response_of(ix)

Actions (``add_member``, ``slash``, ``click``, ``set_permissions``, ...) and waits are async.
Queries (``messages``, ``last_message``, ``ephemeral_replies``, ``mentions``, ...) are plain
methods, so they can be used inside ``wait_for`` predicates. Every wait takes a ``timeout``
with a default (hence the ASYNC109 exemptions): a test that forgets to bound a wait must fail
after seconds, not hang until the CI limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, TypeVar

from aiohttp import web

from sandbox.fake_bodies import SELECT_TYPES
from sandbox.fake_gateway import GUILD_MEMBERS, GUILDS, Gateway, GatewayEvent
from sandbox.fake_limits import DISCORD_LIMITS, Limits, Traffic
from sandbox.fake_model import (
    APP_PERMISSIONS_AWAY,
    ATTACHMENT_SIZE_LIMIT,
    PNG_MAGIC,
    ApplicationCommand,
    CallbackType,
    Channel,
    Guild,
    Interaction,
    InteractionType,
    Json,
    Message,
    Overwrite,
    Perm,
    PermissionsLike,
    Role,
    User,
    World,
    to_bits,
)
from sandbox.fake_rest import RequestRecord, RestApi

__all__ = [
    "CallbackType",
    "Channel",
    "FakeDiscord",
    "GatewayEvent",
    "Interaction",
    "InteractionResponse",
    "Limits",
    "Message",
    "Perm",
    "RequestRecord",
    "Role",
    "User",
]

T = TypeVar("T")
UserLike = User | int
ChannelLike = Channel | int
MessageLike = Message | int

POLL_SECONDS = 0.05
DEFAULT_TIMEOUT = 5.0


@dataclass(frozen=True, slots=True)
class InteractionResponse:
    """What the bot answered to one interaction, and when (seconds after it was sent).

    ``original`` is the response message, or for component updates (types 6 and 7) the message
    whose component was used; ``last_edit_after`` counts edits by any route (callback, webhook or
    channel PATCH) made after the interaction was sent.
    """

    interaction: Interaction
    type: CallbackType | None
    acked_after: float | None
    last_edit_after: float | None
    ephemeral: bool
    original: Message | None
    followups: list[Message] = field(default_factory=list)
    modal: Json | None = None
    rejected_callbacks: list[tuple[float, int]] = field(default_factory=list)

    @property
    def deferred(self) -> bool:
        return self.type in (
            CallbackType.DEFERRED_CHANNEL_MESSAGE,
            CallbackType.DEFERRED_UPDATE_MESSAGE,
        )

    @property
    def content(self) -> str:
        return self.original.content if self.original is not None else ""

    @property
    def text(self) -> str:
        """What a person reads of the response (a V2 message's text displays too)."""
        return self.original.text if self.original is not None else ""


class FakeDiscord:
    """The fake server. One guild with #general and #games, an owner, the bot and another bot.

    It enforces Discord's rate limits and token lifetimes (``limits``, see
    ``sandbox.fake_limits``; ``NO_RATE_LIMITS`` turns the 429s off) and counts its traffic
    (``traffic``).
    """

    # Called with each FakeDiscord as it starts: the E2E suite finds every fake a test used,
    # to check the requests it received against Discord's specification.
    started_hooks: ClassVar[list[Callable[[FakeDiscord], None]]] = []
    # Called with each FakeDiscord as it stops (the suite ends its checking of that fake).
    stopped_hooks: ClassVar[list[Callable[[FakeDiscord], None]]] = []

    def __init__(
        self,
        *,
        token: str = "fake-token",
        limits: Limits = DISCORD_LIMITS,
        ack_deadline: float | None = None,
        heartbeat_interval_ms: int = 41_250,
        guild_name: str = "Tabula Test Guild",
        channel_names: Iterable[str] = ("general", "games"),
        owner_name: str = "owner",
        port: int = 0,
        shard_count: int = 1,
        max_concurrency: int = 1,
    ) -> None:
        """``port`` 0 picks a free one. ``shard_count`` and ``max_concurrency``: what
        ``GET /gateway/bot`` recommends (the gateway honours any shard count IDENTIFY asks
        for, as Discord does). ``ack_deadline`` overrides ``limits.ack_deadline``."""
        self.token = token
        # Read on every request, so a test may change it while the bot runs.
        self.limits = limits
        # Discord drops an interaction that is not acknowledged within 3 seconds.
        self.ack_deadline = limits.ack_deadline if ack_deadline is None else ack_deadline
        # Languages sent with interactions: a server's (by guild id) and a member's client's
        # (by user id); "en-US" where none is set. A ``locale=`` argument wins over the member's.
        self.guild_locales: dict[int, str] = {}
        self.user_locales: dict[int, str] = {}
        self.world = World(base_url="", token=token)
        self.owner = self.world.add_user(owner_name)
        self.guild: Guild = self.world.add_guild(guild_name, self.owner)
        self.other_bot = self.world.add_user("OtherBot", bot=True)
        self.world.add_member(self.guild, self.other_bot)
        created = [self.world.add_channel(self.guild, name) for name in channel_names]
        if not created:
            raise ValueError("the fake guild needs at least one channel")
        self.channel: Channel = created[0]
        self._waiters: list[asyncio.Future[None]] = []
        # Counts every change (each REST request included), for watchers such as the page.
        self.changes = 0
        self.gateway = Gateway(
            self.world,
            heartbeat_interval_ms=heartbeat_interval_ms,
            resume_url=lambda: self.resume_gateway_url,
            on_change=self._notify,
            shard_count=shard_count,
            max_concurrency=max_concurrency,
        )
        self.rest = RestApi(
            self.world,
            self.gateway,
            on_change=self._notify,
            ack_deadline=lambda: self.ack_deadline,
            limits=lambda: self.limits,
        )
        self.port = port
        # Where advance() writes the seconds it moved time by, for the bots to read (none
        # until it is first moved: the real time). One per fake, in the system's temp folder.
        self.clock_file = Path(tempfile.gettempdir()) / f"tabula-clock-{secrets.token_hex(8)}"
        # Called with the server's app before it starts, to serve more than Discord's routes.
        self.route_installers: list[Callable[[web.Application], None]] = []
        self._runner: web.AppRunner | None = None

    # -- lifecycle -----------------------------------------------------------------------------

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        self.rest.install(app)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway-resume", self.gateway.handle)
        for install in self.route_installers:
            install(app)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", self.port))
        except OSError:
            sock.close()
            raise
        self.port = sock.getsockname()[1]
        self.world.base_url = self.base_url
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()
        for hook in list(self.started_hooks):
            hook(self)

    async def stop(self) -> None:
        for hook in list(self.stopped_hooks):
            hook(self)
        await self.gateway.close_all()
        if self._runner is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._runner.cleanup(), 5.0)
            self._runner = None
        for waiter in self._waiters:
            if not waiter.done():
                waiter.cancel()
        self.clock_file.unlink(missing_ok=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def resume_gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway-resume"

    @property
    def bot_user(self) -> User:
        return self.world.bot

    @property
    def application_id(self) -> int:
        return self.world.application_id

    def env(self) -> dict[str, str]:
        """The environment a bot process needs to talk to this fake, and to keep the time it
        keeps (``TEST_CLOCK_FILE``, moved by :meth:`advance`)."""
        return {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "TEST_CLOCK_FILE": str(self.clock_file),
        }

    # -- waiting -------------------------------------------------------------------------------

    def _notify(self) -> None:
        self.changes += 1
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def wait_for(
        self,
        predicate: Callable[[], T],
        timeout: float = DEFAULT_TIMEOUT,  # noqa: ASYNC109 - see the module docstring
        *,
        what: str = "",
    ) -> T:
        """Return the first truthy ``predicate()``; re-checked on every change and every 50 ms."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(
                    f"fake Discord: waited {timeout:.1f}s for {what or predicate!r}.\n"
                    f"Last requests:\n{self.describe_requests(12)}"
                )
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.append(waiter)
            await asyncio.wait([waiter], timeout=min(remaining, POLL_SECONDS))

    def notify_change(self) -> None:
        """Wake every waiter and watcher: something they may show has changed."""
        self._notify()

    async def next_change(self, seen: int, timeout: float) -> int:  # noqa: ASYNC109
        """The change count once it is no longer ``seen``, or ``seen`` after ``timeout`` s."""
        if self.changes == seen:
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            await asyncio.wait([waiter], timeout=timeout)
            if not waiter.done():
                waiter.cancel()
                self._waiters.remove(waiter)
        return self.changes

    async def wait_connected(self, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        await self.wait_for(lambda: self.gateway.connected, timeout, what="a gateway session")

    async def idle(
        self,
        quiet: float = 0.3,
        timeout: float = DEFAULT_TIMEOUT,  # noqa: ASYNC109
    ) -> None:
        """Wait until the bot has made no REST request for ``quiet`` seconds."""

        def calm() -> bool:
            last = self.rest.requests[-1].at if self.rest.requests else 0.0
            return time.monotonic() - last >= quiet

        await self.wait_for(calm, timeout, what=f"{quiet}s without requests")

    async def response_of(
        self,
        interaction: Interaction,
        *,
        settled: bool = True,
        timeout: float = DEFAULT_TIMEOUT,  # noqa: ASYNC109
    ) -> InteractionResponse:
        """Wait for the bot's answer. ``settled``: a defer must also be followed by its content."""

        def ready() -> bool:
            if not interaction.acked:
                return False
            if not settled:
                return True
            if interaction.callback_type == CallbackType.DEFERRED_CHANNEL_MESSAGE:
                original = self.world.messages.get(interaction.original_id or 0)
                return original is not None and (not original.loading or original.deleted)
            if interaction.callback_type == CallbackType.DEFERRED_UPDATE_MESSAGE:
                # Edited by any route after the ack (webhook or channel PATCH), or followed up.
                target = self.world.messages.get(interaction.message_id or 0)
                acked = interaction.callback_at or 0.0
                edited = target is not None and any(t >= acked for t in target.edited_at)
                return edited or bool(interaction.followup_ids)
            return True

        await self.wait_for(ready, timeout, what=f"the answer to interaction {interaction.name!r}")
        return self.snapshot(interaction)

    def snapshot(self, interaction: Interaction) -> InteractionResponse:
        """The answer so far, without waiting."""
        world = self.world
        original = world.messages.get(interaction.original_id or 0)
        created = interaction.created
        return InteractionResponse(
            interaction=interaction,
            type=interaction.callback_type,
            acked_after=None
            if interaction.callback_at is None
            else interaction.callback_at - created,
            last_edit_after=(
                original.edited_at[-1] - created
                if original is not None and original.edited_at and original.edited_at[-1] >= created
                else None
            ),
            ephemeral=original.ephemeral if original is not None else False,
            original=original,
            followups=[world.messages[m] for m in interaction.followup_ids],
            modal=(
                interaction.callback_data
                if interaction.callback_type == CallbackType.MODAL
                else None
            ),
            rejected_callbacks=list(interaction.rejected_callbacks),
        )

    # -- queries -------------------------------------------------------------------------------

    @property
    def requests(self) -> list[RequestRecord]:
        return self.rest.requests

    @property
    def traffic(self) -> Traffic:
        """Requests by budget, route and channel, and 429s by scope (``traffic.report()``)."""
        return self.rest.traffic

    def advance(self, seconds: float) -> None:
        """Move time forward ``seconds``, for Discord and for every bot started with
        :meth:`env`: the fake's clock (interactions made so far get older, their tokens
        expiring after ``limits.interaction_token_ttl``; rate-limit windows pass; new ids carry
        the later time) and the bot's (``TEST_CLOCK_FILE``: its turn clocks, reminders,
        invitations, deadlines and daily puzzles), which reads the new offset at once. A test
        then waits for what the bot's sweeps make of the new time."""
        if seconds < 0:
            raise ValueError("the fake's clock only goes forward")
        self.world.clock_offset += seconds
        # Replaced whole (a new inode), so the bot never reads half a number and sees each
        # change even within one tick of the file system's clock.
        fresh = self.clock_file.with_name(self.clock_file.name + ".new")
        fresh.write_text(f"{self.world.clock_offset!r}\n", encoding="utf-8")
        os.replace(fresh, self.clock_file)
        self._notify()

    def age_interactions(self, seconds: float) -> None:
        """Make the interactions sent so far ``seconds`` older on Discord's side only, the
        bot's clock staying where it is: a token Discord stops taking while the bot still
        counts on it (how the bot gives a refused token up for the bot token)."""
        if seconds < 0:
            raise ValueError("interactions only get older")
        for interaction in self.world.interactions.values():
            interaction.born -= seconds

    def wall_time(self) -> float:
        """The time for Discord and the bot, in seconds since the epoch: the real time plus
        however far :meth:`advance` moved it."""
        return time.time() + self.world.clock_offset

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

    def describe_requests(self, last: int = 20) -> str:
        lines = [f"  {r.method} {r.path} -> {r.status}" for r in self.rest.requests[-last:]]
        return "\n".join(lines) or "  (none)"

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

    def message(self, message: MessageLike) -> Message:
        found = self.world.messages.get(message if isinstance(message, int) else message.id)
        if found is None:
            raise LookupError(f"no message {message!r}")
        return found

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

    # -- changing the world --------------------------------------------------------------------

    async def add_member(
        self,
        name: str,
        *,
        bot: bool = False,
        roles: Iterable[Role] = (),
        guild: Guild | None = None,
    ) -> User:
        guild = guild or self.guild
        user = self.world.add_user(name, bot=bot)
        member = self.world.add_member(guild, user, [r.id for r in roles])
        payload = {**self.world.member_payload(member), "guild_id": str(guild.id)}
        self.gateway.dispatch("GUILD_MEMBER_ADD", payload, intent=GUILD_MEMBERS)
        self._notify()
        return user

    async def join_guild(self, user: UserLike, guild: Guild) -> User:
        """An existing user joins another server (one person, two servers: what a member
        of one server may try in the other)."""
        found = self._user(user)
        member = self.world.add_member(guild, found, [])
        payload = {**self.world.member_payload(member), "guild_id": str(guild.id)}
        self.gateway.dispatch("GUILD_MEMBER_ADD", payload, intent=GUILD_MEMBERS)
        self._notify()
        return found

    async def add_guild(
        self,
        name: str,
        *,
        shard: tuple[int, int] | None = None,
        channel_names: Iterable[str] = ("general",),
        owner: User | None = None,
    ) -> Guild:
        """Another server with the bot in it (the bot gets GUILD_CREATE on its shard's
        sessions); ``shard`` (id, count) picks a server id on that shard."""
        owner = owner or self.world.add_user(f"{name} owner")
        guild = self.world.add_guild(name, owner, shard=shard)
        for channel_name in channel_names:
            self.world.add_channel(guild, channel_name)
        self.gateway.guild_joined(guild.id)
        self._notify()
        return guild

    def shard_of(self, guild: Guild, shard_count: int) -> int:
        """The shard ``guild``'s events go to when the bot runs ``shard_count`` shards."""
        return (guild.id >> 22) % shard_count

    async def add_channel(self, name: str, *, guild: Guild | None = None) -> Channel:
        channel = self.world.add_channel(guild or self.guild, name)
        self.gateway.channel_event("CHANNEL_CREATE", channel)
        self._notify()
        return channel

    async def group_dm(self, members: Iterable[UserLike]) -> Channel:
        """A group DM of ``members`` (the first owns it) that the bot is no member of: its
        commands come from the app installed on a member's account (``context`` 2), and the
        bot token's channel routes there answer 403 Missing Access."""
        people = [self._user(m) for m in members]
        if not 1 <= len(people) <= 10:
            raise ValueError("a group DM has 1 to 10 people")
        channel = self.world.add_group_dm(people)
        self._notify()
        return channel

    async def add_role(
        self, name: str, permissions: PermissionsLike = 0, *, guild: Guild | None = None
    ) -> Role:
        guild = guild or self.guild
        role = self.world.add_role(guild, name, to_bits(permissions))
        self.gateway.dispatch(
            "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()}, intent=GUILDS
        )
        self._notify()
        return role

    async def give_role(self, user: UserLike, role: Role) -> None:
        guild = self.world.guilds[role.guild_id]
        member = guild.members[self._user(user).id]
        if role.id not in member.roles:
            member.roles.append(role.id)
        payload = {**self.world.member_payload(member), "guild_id": str(guild.id)}
        # Discord always tells a bot about changes to its own member.
        intent = 0 if member.user.id == self.world.bot.id else GUILD_MEMBERS
        self.gateway.dispatch("GUILD_MEMBER_UPDATE", payload, intent=intent)
        self._notify()

    async def set_role_permissions(self, role: Role, permissions: PermissionsLike) -> None:
        role.permissions = to_bits(permissions)
        data = {"guild_id": str(role.guild_id), "role": role.payload()}
        self.gateway.dispatch("GUILD_ROLE_UPDATE", data, intent=GUILDS)
        self._notify()

    async def set_permissions(
        self,
        channel: ChannelLike | None = None,
        *,
        allow: PermissionsLike = 0,
        deny: PermissionsLike = 0,
        target: User | Role | None = None,
    ) -> None:
        """Set a permission overwrite on a text channel (for the bot's member by default).

        Allow and deny both empty removes the overwrite. Threads follow their parent channel.
        """
        found = self._channel(channel)
        if found.is_thread:
            raise ValueError("threads take their permissions from the parent channel")
        who = target if target is not None else self.world.bot
        kind = 0 if isinstance(who, Role) else 1
        allow_bits, deny_bits = to_bits(allow), to_bits(deny)
        if allow_bits or deny_bits:
            found.overwrites[who.id] = Overwrite(who.id, kind, allow_bits, deny_bits)
        else:
            found.overwrites.pop(who.id, None)
        self.gateway.channel_event("CHANNEL_UPDATE", found)
        self._notify()

    async def say(
        self, user: UserLike, content: str, *, channel: ChannelLike | None = None
    ) -> Message:
        """A member posts a plain message."""
        author = self._user(user)
        found = self._channel(channel)
        message = Message(
            id=self.world.ids.next(),
            channel_id=found.id,
            guild_id=found.guild_id,
            author_id=author.id,
            content=content,
        )
        self.world.resolve_mentions(message, None)
        self.world.messages[message.id] = message
        found.last_message_id = message.id
        self.gateway.message_event("MESSAGE_CREATE", message)
        self._notify()
        return message

    async def kick_gateway(self, code: int = 4000, *, invalidate: bool = False) -> None:
        """Drop the bot's websocket; it should RESUME (or IDENTIFY anew when ``invalidate``)."""
        await self.gateway.kick(code, invalidate=invalidate)

    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT, as Discord does before moving a session."""
        self.gateway.request_reconnect()

    # -- interactions --------------------------------------------------------------------------

    async def slash(
        self,
        user: UserLike,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel: ChannelLike | None = None,
        locale: str | None = None,
        unchecked: bool = False,
    ) -> Interaction:
        """Use a synced slash command; ``command`` may name a subcommand: ``"game start"``.
        ``locale`` is the user's client language (``"de"`` for German). ``unchecked``
        delivers a value that is not among an option's choices, as a forged request or a
        client on an older command definition can (Discord itself refuses it)."""
        kind = InteractionType.APPLICATION_COMMAND
        return self._command(
            kind, user, command, options or {}, None, channel, locale, unchecked=unchecked
        )

    async def autocomplete(
        self,
        user: UserLike,
        command: str,
        options: Mapping[str, Any],
        focused: str,
        *,
        channel: ChannelLike | None = None,
    ) -> Interaction:
        kind = InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE
        return self._command(kind, user, command, options, focused, channel, None)

    def _command(
        self,
        kind: InteractionType,
        user: UserLike,
        command: str,
        options: Mapping[str, Any],
        focused: str | None,
        channel: ChannelLike | None,
        locale: str | None,
        *,
        unchecked: bool = False,
    ) -> Interaction:
        found = self._channel(channel)
        data = self._command_data(found, command, options, focused=focused, unchecked=unchecked)
        return self._send_interaction(
            kind, self._user(user), found, data, name=command, locale=locale
        )

    async def click(
        self,
        user: UserLike,
        message: MessageLike,
        custom_id: str,
        *,
        values: Iterable[str] | None = None,
    ) -> Interaction:
        """Press a button (or choose ``values`` in a select) on the message as it is now."""
        clicker = self._user(user)
        found = self.message(message)
        if found.deleted:
            raise LookupError(f"message {found.id} was deleted")
        component = found.component(custom_id)
        if component is None:
            raise LookupError(
                f"no component {custom_id!r} on message {found.id}: {found.custom_ids()}"
            )
        if component.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        if found.ephemeral and found.interaction_id is not None:
            owner = self.world.interactions[found.interaction_id].user_id
            if owner != clicker.id:
                raise PermissionError("only the user who got an ephemeral message can use it")
        data: Json = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] in SELECT_TYPES:
            chosen = list(values or [])
            low, high = component.get("min_values", 1), component.get("max_values", 1)
            if not low <= len(chosen) <= high:
                raise ValueError(f"select {custom_id!r} takes {low}..{high} values, got {chosen}")
            if component["type"] == 3:
                offered = {o["value"] for o in component.get("options", [])}
                if not set(chosen) <= offered:
                    raise ValueError(f"{chosen} not among the options {sorted(offered)}")
            data["values"] = chosen
        elif values is not None:
            raise ValueError("values are only for select menus")
        channel = self.world.channels[found.channel_id]
        return self._send_interaction(
            InteractionType.MESSAGE_COMPONENT, clicker, channel, data, name=custom_id, message=found
        )

    async def delete_message(self, message: MessageLike) -> None:
        """A moderator deletes ``message`` (the bot sees MESSAGE_DELETE, as in Discord)."""
        found = self.message(message)
        found.deleted = True
        self.gateway.message_deleted(found)
        self._notify()

    async def click_stale(
        self, user: UserLike, message: MessageLike, custom_id: str, *, component_type: int = 2
    ) -> Interaction:
        """Press a button the message no longer has (or never had), as a Discord client that
        has not refreshed yet does, or as a forged request would: Discord delivers it anyway."""
        clicker = self._user(user)
        found = self.message(message)
        if found.deleted:
            raise LookupError(f"message {found.id} was deleted")
        data: Json = {"custom_id": custom_id, "component_type": component_type}
        channel = self.world.channels[found.channel_id]
        return self._send_interaction(
            InteractionType.MESSAGE_COMPONENT, clicker, channel, data, name=custom_id, message=found
        )

    async def submit_modal(
        self,
        user: UserLike,
        interaction: Interaction,
        values: Mapping[str, str | list[str] | bool],
    ) -> Interaction:
        """Fill in and submit the modal the bot showed in answer to ``interaction``: a text
        input or radio group takes a string, a select or checkbox group a list, a checkbox a
        bool (a field left out is answered empty, a checkbox with its default)."""
        if interaction.callback_type != CallbackType.MODAL or interaction.callback_data is None:
            raise ValueError("the bot did not answer that interaction with a modal")
        modal = interaction.callback_data
        rows = [self._modal_answer(c, values) for c in modal.get("components", [])]
        data: Json = {"custom_id": modal["custom_id"], "components": rows}
        channel = self.world.channels[interaction.channel_id]
        message = self.world.messages.get(interaction.message_id or 0)
        return self._send_interaction(
            InteractionType.MODAL_SUBMIT,
            self._user(user),
            channel,
            data,
            name=str(modal["custom_id"]),
            message=message,
        )

    @staticmethod
    def _modal_answer(component: Json, values: Mapping[str, str | list[str] | bool]) -> Json:
        def answer(item: Json) -> Json:
            custom_id = item.get("custom_id", "")
            if item.get("type") == 23:  # a checkbox answers its state (Discord docs, Checkbox)
                ticked = values.get(custom_id, bool(item.get("default", False)))
                return {
                    "type": 23,
                    "id": item.get("id"),
                    "custom_id": custom_id,
                    "value": bool(ticked),
                }
            value = values.get(custom_id, "")
            if item.get("type") == 21:  # a radio group: the one value chosen, or null
                return {
                    "type": 21,
                    "id": item.get("id"),
                    "custom_id": custom_id,
                    "value": value if isinstance(value, str) and value else None,
                }
            if item.get("type") == 4:
                return {
                    "type": 4,
                    "id": item.get("id"),
                    "custom_id": item["custom_id"],
                    "value": value,
                }
            chosen = value if isinstance(value, list) else [str(value)] if value else []
            return {
                "type": item["type"],
                "id": item.get("id"),
                "custom_id": item["custom_id"],
                "values": chosen,
            }

        if component.get("type") == 1:
            return {"type": 1, "components": [answer(c) for c in component.get("components", [])]}
        if component.get("type") == 18:
            return {
                "type": 18,
                "id": component.get("id"),
                "component": answer(component["component"]),
            }
        return {"type": component.get("type"), "id": component.get("id")}

    def _send_interaction(
        self,
        kind: InteractionType,
        user: User,
        channel: Channel,
        data: Json,
        *,
        name: str,
        message: Message | None = None,
        locale: str | None = None,
    ) -> Interaction:
        """Send the interaction: the fields every context has, and those of where it happens
        (see :meth:`_in_guild` and :meth:`_in_private`)."""
        world = self.world
        place = (
            self._in_private(user, channel)
            if channel.is_group_dm
            else self._in_guild(user, channel)
        )
        context = int(place["context"])
        ix_id = world.ids.next()
        token = world.new_token(ix_id)
        user_perms = world.permissions_in(channel, user.id)
        payload: Json = {
            "id": str(ix_id),
            "application_id": str(world.application_id),
            "type": int(kind),
            "data": data,
            "channel_id": str(channel.id),
            "channel": {**world.channel_payload(channel), "permissions": str(user_perms)},
            "token": token,
            "version": 1,
            "locale": locale or self.user_locales.get(user.id, "en-US"),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            **place,
        }
        if message is not None:
            payload["message"] = world.message_payload(message)
        ix = Interaction(
            id=ix_id,
            token=token,
            type=kind,
            user_id=user.id,
            guild_id=channel.guild_id,
            channel_id=channel.id,
            payload=payload,
            created=time.monotonic(),
            name=name,
            message_id=message.id if message is not None else None,
            born=world.now(),
            context=context,
        )
        world.interactions[ix.id] = ix
        world.interactions_by_token[token] = ix
        if not self.gateway.dispatch("INTERACTION_CREATE", payload):
            raise RuntimeError("the bot has no gateway session to receive the interaction")
        self._notify()
        return ix

    def _in_guild(self, user: User, channel: Channel) -> Json:
        """The fields of an interaction in a guild channel (``context`` 0): the member, their
        permissions and the guild as the authorizing owner."""
        world = self.world
        guild_locale = self.guild_locales.get(channel.guild_id, "en-US")
        guild = world.guilds[channel.guild_id]
        member = guild.members.get(user.id)
        if member is None:
            raise LookupError(f"{user.name} is not a member of {guild.name}")
        user_perms = world.permissions_in(channel, user.id)
        if not user_perms & Perm.VIEW_CHANNEL:
            raise PermissionError(f"{user.name} cannot see #{channel.name}")
        return {
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild_locale, "features": []},
            "member": {**world.member_payload(member), "permissions": str(user_perms)},
            "app_permissions": str(world.permissions_in(channel, world.bot.id)),
            "guild_locale": guild_locale,
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
        }

    def _in_private(self, user: User, channel: Channel) -> Json:
        """The fields of an interaction from people's own DM or group DM (``context`` 2) with
        a command of the app they installed on their account: ``user`` instead of ``member``,
        no guild, and the installing user as the authorizing owner (integration type 1)."""
        if user.id not in channel.recipient_ids:
            raise PermissionError(f"{user.name} is not in the group DM {channel.name}")
        return {
            "user": user.payload(),
            "app_permissions": str(int(APP_PERMISSIONS_AWAY)),
            "authorizing_integration_owners": {"1": str(user.id)},
            "context": 2,
        }

    def _find_command(self, channel: Channel, name: str) -> ApplicationCommand:
        found = self._synced_command(channel, name)
        if channel.is_group_dm:
            # Discord offers a command in people's own DMs only when it allows the user install
            # (integration type 1) and private channels (context 2).
            body = found.body
            if 1 not in (body.get("integration_types") or [0]) or 2 not in (
                body.get("contexts") or [0, 1, 2]
            ):
                raise LookupError(f"/{name} is not offered in group DMs for a user install")
        return found

    def _synced_command(self, channel: Channel, name: str) -> ApplicationCommand:
        for scope in (channel.guild_id, None):
            for command in self.world.commands:
                if (
                    command.guild_id == scope
                    and command.name == name
                    and command.body.get("type", 1) == 1
                ):
                    return command
        synced = sorted({c.name for c in self.world.commands})
        raise LookupError(f"no synced slash command {name!r}; synced: {synced}")

    def _command_data(
        self,
        channel: Channel,
        command: str,
        options: Mapping[str, Any],
        *,
        focused: str | None,
        unchecked: bool = False,
    ) -> Json:
        head, *path = command.split()
        found = self._find_command(channel, head)
        top: list[Json] = []
        container = top
        schema: list[Json] = found.body.get("options") or []
        for part in path:
            spec = next((o for o in schema if o["name"] == part and o["type"] in (1, 2)), None)
            if spec is None:
                raise LookupError(f"/{head} has no subcommand {part!r}")
            node: Json = {"name": part, "type": spec["type"], "options": []}
            container.append(node)
            container = node["options"]
            schema = spec.get("options") or []
        if any(o["type"] in (1, 2) for o in schema):
            raise ValueError(f"/{command} needs a subcommand: {[o['name'] for o in schema]}")
        resolved: Json = {}
        for name, value in options.items():
            spec = next((o for o in schema if o["name"] == name), None)
            if spec is None:
                raise LookupError(
                    f"/{command} has no option {name!r}: {[o['name'] for o in schema]}"
                )
            entry: Json = {
                "name": name,
                "type": spec["type"],
                "value": self._option_value(channel, spec, value, resolved, unchecked),
            }
            if name == focused:
                entry["focused"] = True
            container.append(entry)
        if focused is None:
            missing = [o["name"] for o in schema if o.get("required") and o["name"] not in options]
            if missing:
                raise ValueError(f"/{command} is missing required options {missing}")
        data: Json = {
            "id": str(found.id),
            "name": found.name,
            "type": 1,
            "options": top,
            "resolved": resolved,
        }
        if found.guild_id is not None:
            data["guild_id"] = str(found.guild_id)
        return data

    def _option_value(
        self, channel: Channel, spec: Json, value: Any, resolved: Json, unchecked: bool = False
    ) -> Any:
        kind = spec["type"]
        world = self.world
        guild = world.guilds.get(channel.guild_id)
        if kind in (6, 9) and isinstance(value, User | int) and not isinstance(value, bool):
            user_id = value.id if isinstance(value, User) else value
            if kind == 9 and guild is not None and user_id in guild.roles:
                resolved.setdefault("roles", {})[str(user_id)] = guild.roles[user_id].payload()
                return str(user_id)
            user = self._user(user_id)
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            member = guild.members.get(user.id) if guild is not None else None
            if member is not None:
                perms = world.permissions_in(channel, user.id)
                resolved.setdefault("members", {})[str(user.id)] = {
                    **world.member_payload(member, with_user=False),
                    "permissions": str(perms),
                }
            return str(user.id)
        if kind in (8, 9) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        if kind == 7:
            target = self._channel(value)
            entry = {
                "id": str(target.id),
                "name": target.name,
                "type": int(target.type),
                "permissions": str(world.permissions_in(target, world.bot.id)),
            }
            if target.is_thread:
                entry["parent_id"] = str(target.parent_id)
                entry["thread_metadata"] = world.channel_payload(target)["thread_metadata"]
            resolved.setdefault("channels", {})[str(target.id)] = entry
            return str(target.id)
        converted: Any
        plain_int = isinstance(value, int) and not isinstance(value, bool)
        if (
            (kind == 3 and isinstance(value, str))
            or (kind == 4 and plain_int)
            or (kind == 5 and isinstance(value, bool))
        ):
            converted = value
        elif kind == 10 and isinstance(value, int | float) and not isinstance(value, bool):
            converted = float(value)
        else:
            raise TypeError(f"option {spec['name']!r} (type {kind}) cannot take {value!r}")
        choices = spec.get("choices")
        if choices and not unchecked and converted not in [c["value"] for c in choices]:
            raise ValueError(f"{converted!r} is not a choice of {spec['name']!r}: {choices}")
        return converted

    # -- argument helpers ----------------------------------------------------------------------

    def _user(self, user: UserLike) -> User:
        user_id = user if isinstance(user, int) else user.id
        found = self.world.users.get(user_id)
        if found is None:
            raise LookupError(f"no user {user!r}")
        return found

    def _channel(self, channel: ChannelLike | None) -> Channel:
        if channel is None:
            return self.channel
        channel_id = channel if isinstance(channel, int) else channel.id
        found = self.world.channels.get(channel_id)
        if found is None:
            raise LookupError(f"no channel {channel!r}")
        return found
