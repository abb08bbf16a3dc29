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
methods, so they can be used inside ``wait_for`` predicates.

``FakeDiscord`` is the one object a test holds. This module keeps its lifecycle (the server,
its addresses, ``env()``); each other role is a mixin in a module of its own, all sharing the
typed state of ``sandbox.fake_state.FakeState``:

- ``fake_clock``: ``advance``, ``age_interactions``, ``wall_time`` and the bots' clock file;
- ``fake_waits``: ``wait_for``, ``idle``, ``response_of`` (an ``InteractionResponse``);
- ``fake_reading``: what the bot did (``messages``, ``threads``, ``find_requests``, ...);
- ``fake_setup``: guilds, members, channels, group DMs, roles and permissions;
- ``fake_users``: ``slash``, ``click``, ``submit_modal``, ``say`` (payloads built by
  ``fake_interactions`` and ``fake_command_data``);
- ``fake_faults``: a dropped or moved gateway session.

Mixins rather than role objects (``fake.users.click(...)``) so that the call sites of the
end-to-end suite, the benchmarks and the sandbox page (``fake.click(...)``, several hundred)
stay as they are, while each role can still be read alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import ClassVar

from aiohttp import web

from sandbox.fake_clock import FakeClock, new_clock_file
from sandbox.fake_faults import FakeFaults
from sandbox.fake_gateway import Gateway, GatewayEvent
from sandbox.fake_limits import DISCORD_LIMITS, Limits
from sandbox.fake_model import (
    CallbackType,
    Channel,
    Interaction,
    Message,
    Perm,
    Role,
    User,
)
from sandbox.fake_reading import FakeReading
from sandbox.fake_rest import RequestRecord, RestApi
from sandbox.fake_setup import FakeSetup
from sandbox.fake_users import FakeUsers
from sandbox.fake_waits import FakeWaits, InteractionResponse
from sandbox.fake_world import World

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


class FakeDiscord(FakeClock, FakeWaits, FakeReading, FakeSetup, FakeUsers, FakeFaults):
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
        self.guild_locales = {}
        self.user_locales = {}
        self.world = World(base_url="", token=token)
        self.owner = self.world.add_user(owner_name)
        self.guild = self.world.add_guild(guild_name, self.owner)
        self.other_bot = self.world.add_user("OtherBot", bot=True)
        self.world.add_member(self.guild, self.other_bot)
        created = [self.world.add_channel(self.guild, name) for name in channel_names]
        if not created:
            raise ValueError("the fake guild needs at least one channel")
        self.channel = created[0]
        self._waiters = []
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
        # Where advance() writes the seconds it moved time by, for the bots to read.
        self.clock_file = new_clock_file()
        # Called with the server's app before it starts, to serve more than Discord's routes.
        self.route_installers = []
        self._runner: web.AppRunner | None = None

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
