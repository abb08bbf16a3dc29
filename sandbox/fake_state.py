"""The state every role of the fake Discord shares, typed once (``FakeState``).

``FakeDiscord`` (``sandbox.fake_discord``) is one object composed of role mixins, each in its
own module and each a ``FakeState``: the clock (``fake_clock``), waits (``fake_waits``), what
the bot did (``fake_reading``), the world's setup (``fake_setup``), what members do
(``fake_users``, sending through ``fake_interactions`` and ``fake_command_data``) and faults
(``fake_faults``). Here are the attributes ``FakeDiscord.__init__`` sets for all of them, the
change signal that wakes waiters, and the lookups that turn a test's arguments (an object or
an id) into the world's records.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from aiohttp import web

from sandbox.fake_gateway import Gateway
from sandbox.fake_limits import Limits
from sandbox.fake_model import Channel, Guild, Message, User
from sandbox.fake_rest import RestApi
from sandbox.fake_world import World

UserLike = User | int
ChannelLike = Channel | int
MessageLike = Message | int


class FakeState:
    """What the roles read and change; ``FakeDiscord.__init__`` sets every attribute."""

    token: str
    # Read on every request, so a test may change it while the bot runs.
    limits: Limits
    ack_deadline: float
    # Languages sent with interactions: a server's (by guild id) and a member's client's.
    guild_locales: dict[int, str]
    user_locales: dict[int, str]
    world: World
    owner: User
    guild: Guild
    other_bot: User
    channel: Channel
    gateway: Gateway
    rest: RestApi
    port: int
    clock_file: Path
    route_installers: list[Callable[[web.Application], None]]
    # Counts every change (each REST request included), for watchers such as the page.
    changes: int
    _waiters: list[asyncio.Future[None]]

    def _notify(self) -> None:
        self.changes += 1
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

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

    def message(self, message: MessageLike) -> Message:
        found = self.world.messages.get(message if isinstance(message, int) else message.id)
        if found is None:
            raise LookupError(f"no message {message!r}")
        return found
