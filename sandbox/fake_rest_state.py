"""What every group of the fake REST routes shares (``RestState``): the world and gateway
they act on, the request keys the middleware fills (the JSON body, the uploads), and the checks
and bookkeeping most routes need (the channel the bot may use, a message noted in its channel).
``sandbox.fake_rest`` composes the groups into ``RestApi``."""

from __future__ import annotations

from collections.abc import Callable

from aiohttp import web

from sandbox.fake_gateway import Gateway
from sandbox.fake_limits import Limits
from sandbox.fake_model import (
    Channel,
    Guild,
    Json,
    Message,
    Perm,
    invalid_form,
    missing_access,
)
from sandbox.fake_world import World

API_PREFIX = "/api/v10"

BODY = web.RequestKey("body", object)
UPLOADS = web.RequestKey("uploads", list)


def no_content() -> web.Response:
    return web.Response(status=204)


class RestState:
    """The attributes ``RestApi`` (a dataclass) sets for every route group, and shared helpers."""

    world: World
    gateway: Gateway
    # Read on every use: a test may change the deadline and the limits while the bot runs.
    ack_deadline: Callable[[], float]
    limits: Callable[[], Limits]

    def _channel(self, request: web.Request) -> Channel:
        channel = self.world.channel(request.match_info["channel_id"])
        if channel.is_group_dm and self.world.bot.id not in channel.recipient_ids:
            # People's own DM or group DM: a user-installed bot is no member there and answers
            # only through interactions; its token is refused every channel route.
            raise missing_access()
        return channel

    def _check_app(self, request: web.Request) -> None:
        if request.match_info["app_id"] != str(self.world.application_id):
            raise missing_access()

    @staticmethod
    def _body(request: web.Request) -> Json:
        body = request[BODY]
        if body is None:
            return {}
        if not isinstance(body, dict):
            raise invalid_form(
                [], "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"
            )
        return body

    def _send_permission(self, channel: Channel) -> int:
        return int(Perm.SEND_MESSAGES_IN_THREADS if channel.is_thread else Perm.SEND_MESSAGES)

    def _note_message(self, channel: Channel, message: Message) -> None:
        self.world.messages[message.id] = message
        if not message.ephemeral:
            channel.last_message_id = message.id
            if channel.is_thread:
                channel.message_count += 1

    def _bot_guild(self, request: web.Request) -> Guild:
        guild = self.world.guild(request.match_info["guild_id"])
        if self.world.bot.id not in guild.members:
            raise missing_access()
        return guild
