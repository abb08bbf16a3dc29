"""REST routes about the bot itself: where the gateway is, users, the bot's DMs, the
application and its synced slash commands (checked as Discord checks a bulk overwrite)."""

from __future__ import annotations

import re
import time

from aiohttp import web

from sandbox.fake_model import (
    ApiError,
    ApplicationCommand,
    Channel,
    ChannelType,
    invalid_form,
    json_response,
    missing_access,
)
from sandbox.fake_rest_state import BODY, RestState

COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


class AppRoutes(RestState):
    """``/gateway``, ``/users``, ``/oauth2/applications/@me`` and ``/applications/.../commands``."""

    async def open_dm(self, request: web.Request) -> web.Response:
        """POST /users/@me/channels: the bot's DM channel with ``recipient_id`` (one per
        person: asked again, Discord returns the same channel)."""
        body = self._body(request)
        raw = body.get("recipient_id")
        if raw is None or not str(raw).isdigit():
            raise invalid_form(["recipient_id"], "BASE_TYPE_REQUIRED", "This field is required")
        recipient = int(str(raw))
        if recipient not in self.world.users:
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        channel = next(
            (c for c in self.world.channels.values() if c.is_dm and c.recipient_id == recipient),
            None,
        )
        if channel is None:
            channel = Channel(
                id=self.world.ids.next(),
                guild_id=0,
                name="",
                type=ChannelType.DM,
                recipient_id=recipient,
            )
            self.world.channels[channel.id] = channel
        return json_response(self.world.channel_payload(channel))

    @staticmethod
    def _gateway_url(request: web.Request) -> str:
        return f"ws://{request.host}/gateway"

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self._gateway_url(request)})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        """The recommended shard count and the session start limit (``Gateway`` settings)."""
        return json_response(
            {
                "url": self._gateway_url(request),
                "shards": self.gateway.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": self.gateway.max_concurrency,
                },
            }
        )

    async def get_me(self, request: web.Request) -> web.Response:
        user = {**self.world.bot.payload(), "verified": True, "mfa_enabled": False, "flags": 0}
        return json_response(user)

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.world.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def get_application(self, request: web.Request) -> web.Response:
        world = self.world
        owner = world.users[next(iter(world.guilds.values())).owner_id]
        return json_response(
            {
                "id": str(world.application_id),
                "name": world.bot.name,
                "icon": None,
                "description": "",
                "summary": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "bot": world.bot.payload(),
                "owner": owner.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "tags": [],
            }
        )

    def _command_scope(self, request: web.Request) -> int | None:
        self._check_app(request)
        raw = request.match_info.get("guild_id")
        if raw is None:
            return None
        guild = self.world.guild(raw)
        if self.world.bot.id not in guild.members:
            raise missing_access()
        return guild.id

    async def get_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        found = [c.payload() for c in self.world.commands if c.guild_id == scope]
        return json_response(found)

    async def put_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        body = request[BODY]
        if not isinstance(body, list):
            raise invalid_form([], "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        if len(body) > 100:
            raise invalid_form([], "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        existing = {
            (c.name, c.body.get("type", 1)): c for c in self.world.commands if c.guild_id == scope
        }
        seen: set[tuple[str, int]] = set()
        fresh: list[ApplicationCommand] = []
        for index, item in enumerate(body):
            kind = int(item.get("type", 1))
            name = str(item.get("name", ""))
            if kind == 1 and (not COMMAND_NAME.match(name) or name != name.lower()):
                raise invalid_form(
                    [index, "name"], "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"
                )
            if kind == 1 and not 1 <= len(item.get("description") or "") <= 100:
                raise invalid_form(
                    [index, "description"],
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                )
            if (name, kind) in seen:
                raise invalid_form(
                    [index, "name"],
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    "Application command names must be unique",
                )
            seen.add((name, kind))
            old = existing.get((name, kind))
            command_id = old.id if old is not None else self.world.ids.next()
            version = self.world.ids.next()
            fresh.append(
                ApplicationCommand(command_id, self.world.application_id, scope, item, version)
            )
        self.world.commands = [c for c in self.world.commands if c.guild_id != scope] + fresh
        self.world.command_syncs.append((time.monotonic(), scope))
        return json_response([c.payload() for c in fresh])
