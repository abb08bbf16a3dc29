"""The fake REST API under ``/api/v10``: routes, auth, the request log and Discord's errors."""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

from sandbox.fake_bodies import CREATE_FLAGS, EDIT_FLAGS, Upload, fill_message
from sandbox.fake_gateway import GUILDS, Gateway
from sandbox.fake_limits import (
    BOT_TOKEN,
    INTERACTION,
    UNAUTHENTICATED,
    Limits,
    RateLimiter,
    Traffic,
)
from sandbox.fake_model import (
    ApiError,
    ApplicationCommand,
    CallbackType,
    Channel,
    ChannelType,
    Guild,
    Interaction,
    InteractionType,
    Json,
    Message,
    MessageFlag,
    MessageType,
    Perm,
    World,
    invalid_form,
    json_response,
    missing_access,
)

log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
BODY = web.RequestKey("body", object)
UPLOADS = web.RequestKey("uploads", list)


@dataclass(slots=True)
class RequestRecord:
    """One REST request the bot made; ``route`` is the template, e.g. ``/channels/{channel_id}``."""

    method: str
    path: str
    route: str
    query: dict[str, str]
    json: Any
    files: list[tuple[str, int]] = field(default_factory=list)
    at: float = 0.0
    status: int = 0
    # Who sent it: the E2E tests' own raw requests say so here, and are not judged by the
    # spec check (tests/e2e/discord_spec.py) as the bot's are.
    user_agent: str = ""
    # Whose budget it counted against: "bot_token", "interaction" or "unauthenticated".
    budget: str = ""
    # The body never arrived whole: its sender died or hung up while sending it (a bot killed
    # mid-request). Discord would have seen no request at all.
    cut_off: bool = False


@dataclass(slots=True)
class Fault:
    """Answer the next ``count`` requests of ``method`` whose path matches ``path`` (a regex,
    searched) with an error, as Discord does when it is down (5xx) or rate limits (429)."""

    method: str
    path: str
    status: int
    count: int
    retry_after: float = 0.01

    def matches(self, method: str, path: str) -> bool:
        return self.count > 0 and method == self.method and re.search(self.path, path) is not None

    def response(self) -> web.Response:
        self.count -= 1
        if self.status == 429:
            body = {"message": "You are being rate limited.", "retry_after": self.retry_after}
            body["global"] = False
            return web.Response(
                body=json.dumps(body).encode(),
                status=429,
                headers={
                    "Content-Type": "application/json",
                    "Retry-After": str(self.retry_after),
                    # discord.py takes a 429 without Via for a Cloudflare ban and stops at once.
                    "Via": "1.1 google",
                    "X-RateLimit-Scope": "user",
                },
            )
        return json_response({"message": f"{self.status}: Server Error", "code": 0}, self.status)


def no_content() -> web.Response:
    return web.Response(status=204)


# Followups an interaction may send where the app is no member of the channel (a user install
# used in a DM or group DM).
FOLLOWUPS_AWAY = 5


@dataclass(eq=False, repr=False)
class RestApi:
    world: World
    gateway: Gateway
    _: KW_ONLY
    on_change: Callable[[], None]
    ack_deadline: Callable[[], float]
    limits: Callable[[], Limits] = Limits
    traffic: Traffic = field(default_factory=Traffic, init=False)
    requests: list[RequestRecord] = field(default_factory=list, init=False)
    server_errors: list[str] = field(default_factory=list, init=False)
    faults: list[Fault] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        self.limiter = RateLimiter(self.limits, self.world.now)

    def fail_next(
        self, method: str, path: str, status: int, count: int = 1, *, retry_after: float = 0.01
    ) -> Fault:
        """Make the next ``count`` matching requests fail with ``status`` (see :class:`Fault`)."""
        fault = Fault(method, path, status, count, retry_after)
        self.faults.append(fault)
        return fault

    # -- wiring --------------------------------------------------------------------------------

    def install(self, app: web.Application) -> None:
        app.middlewares.append(self._middleware)
        add = app.router.add_route
        p = API_PREFIX
        add("GET", p + "/gateway", self.get_gateway)
        add("GET", p + "/gateway/bot", self.get_gateway_bot)
        add("GET", p + "/users/@me", self.get_me)
        add("GET", p + "/users/{user_id}", self.get_user)
        add("POST", p + "/users/@me/channels", self.open_dm)
        add("GET", p + "/oauth2/applications/@me", self.get_application)
        for base in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            add("GET", p + base + "/commands", self.get_commands)
            add("PUT", p + base + "/commands", self.put_commands)
        add("GET", p + "/guilds/{guild_id}", self.get_guild)
        add("GET", p + "/guilds/{guild_id}/channels", self.get_guild_channels)
        add("GET", p + "/guilds/{guild_id}/roles", self.get_guild_roles)
        add("GET", p + "/guilds/{guild_id}/members/{user_id}", self.get_member)
        add("GET", p + "/channels/{channel_id}", self.get_channel)
        add("PATCH", p + "/channels/{channel_id}", self.patch_channel)
        add("DELETE", p + "/channels/{channel_id}", self.delete_channel)
        add("POST", p + "/channels/{channel_id}/typing", self.typing)
        add("GET", p + "/channels/{channel_id}/messages", self.list_messages)
        add("POST", p + "/channels/{channel_id}/messages", self.create_message)
        add("GET", p + "/channels/{channel_id}/messages/{message_id}", self.get_message)
        add("PATCH", p + "/channels/{channel_id}/messages/{message_id}", self.edit_message)
        add("DELETE", p + "/channels/{channel_id}/messages/{message_id}", self.delete_message)
        add(
            "POST",
            p + "/channels/{channel_id}/messages/{message_id}/threads",
            self.thread_from_message,
        )
        add("POST", p + "/channels/{channel_id}/threads", self.thread_without_message)
        add("GET", p + "/channels/{channel_id}/thread-members", self.list_thread_members)
        add("PUT", p + "/channels/{channel_id}/thread-members/{user_id}", self.add_thread_member)
        add(
            "DELETE",
            p + "/channels/{channel_id}/thread-members/{user_id}",
            self.remove_thread_member,
        )
        add("POST", p + "/interactions/{interaction_id}/{token}/callback", self.callback)
        hook = p + "/webhooks/{app_id}/{token}"
        add("POST", hook, self.followup)
        add("GET", hook + "/messages/{message_id}", self.get_webhook_message)
        add("PATCH", hook + "/messages/{message_id}", self.edit_webhook_message)
        add("DELETE", hook + "/messages/{message_id}", self.delete_webhook_message)
        add("GET", "/attachments/{channel_id}/{attachment_id}/{filename}", self.attachment)
        from sandbox.fake_events import ScheduledEvents

        self.scheduled_events = ScheduledEvents(self)
        self.scheduled_events.install(app, p)

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX + "/"):
            return await handler(request)
        resource = request.match_info.route.resource
        route = resource.canonical if resource is not None else request.path
        record = RequestRecord(
            method=request.method,
            path=request.path.removeprefix(API_PREFIX),
            route=route.removeprefix(API_PREFIX),
            query=dict(request.query),
            json=None,
            at=time.monotonic(),
            user_agent=request.headers.get("User-Agent", ""),
        )
        self.requests.append(record)
        limit_headers: dict[str, str] = {}
        scope: str | None = None
        response: web.StreamResponse
        try:
            try:
                await self._read_body(request, record)
            except Exception:  # aiohttp names a dropped upload in several ways
                record.cut_off = True
                raise
            self._authorize(request, record)
            record.budget = self._budget(request, record)
            params = dict(request.match_info)
            verdict = self.limiter.check(record.budget, record.method, record.route, params)
            self.traffic.count(record.budget, record.method, record.route, params, verdict.scope)
            limit_headers.update(verdict.headers)
            scope = verdict.scope
            fault = next((f for f in self.faults if f.matches(record.method, record.path)), None)
            if verdict.refused is not None:
                response = web.Response(
                    body=json.dumps(verdict.refused).encode(),
                    status=429,
                    headers={"Content-Type": "application/json"},
                )
            elif fault is not None:
                response = fault.response()
            else:
                response = await handler(request)
        except ApiError as error:
            response = json_response(error.body(), error.status)
        except web.HTTPException as error:
            text = f"{error.status}: {error.reason}"
            response = json_response({"message": text, "code": 0}, error.status)
        except Exception as error:  # a bug in the fake: keep it for the test to report
            self.server_errors.append(f"{record.method} {record.path}: {error!r}")
            log.exception("fake Discord failed on %s %s", record.method, record.path)
            response = json_response({"message": "500: Internal Server Error", "code": 0}, 500)
        response.headers.update(limit_headers)
        record.status = response.status
        self.traffic.answered(response.status, scope)
        self.on_change()
        return response

    async def _read_body(self, request: web.Request, record: RequestRecord) -> None:
        body: Any = None
        uploads: list[Upload] = []
        if request.content_type == "application/json":
            try:
                body = await request.json()
            except ValueError:
                raise ApiError(400, 50109, "The request body contains invalid JSON.") from None
        elif request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, aiohttp.BodyPartReader):  # nested multipart: not used
                    continue
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                elif part.name and part.name.startswith("files["):
                    data = bytes(await part.read())
                    uploads.append(Upload(part.name, part.filename or "file", data))
        record.json = body
        record.files = [(u.filename, len(u.data)) for u in uploads]
        request[BODY] = body
        request[UPLOADS] = uploads

    def _authorize(self, request: web.Request, record: RequestRecord) -> None:
        # Interaction callbacks and webhook calls are authorised by their token in the URL;
        # anyone may ask where the gateway is.
        if record.route.startswith(("/interactions/", "/webhooks/")) or record.route == "/gateway":
            return
        if request.headers.get("Authorization") != f"Bot {self.world.token}":
            raise ApiError(401, 0, "401: Unauthorized")

    def _budget(self, request: web.Request, record: RequestRecord) -> str:
        # Docs, Rate Limits: "Interaction endpoints are not bound to the bot's Global Rate
        # Limit": the callback and the application's webhook (followups, @original).
        if record.route.startswith("/interactions/") or (
            record.route.startswith("/webhooks/")
            and request.match_info.get("app_id") == str(self.world.application_id)
        ):
            return INTERACTION
        if request.headers.get("Authorization", "").startswith("Bot "):
            return BOT_TOKEN
        return UNAUTHENTICATED

    # -- small helpers -------------------------------------------------------------------------

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

    # -- the gateway ---------------------------------------------------------------------------

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

    # -- users, application, commands ---------------------------------------------------------

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

    # -- guilds --------------------------------------------------------------------------------

    def _bot_guild(self, request: web.Request) -> Guild:
        guild = self.world.guild(request.match_info["guild_id"])
        if self.world.bot.id not in guild.members:
            raise missing_access()
        return guild

    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self._bot_guild(request)
        payload = self.world.guild_payload(guild)
        if request.query.get("with_counts") in ("1", "true", "True"):
            payload["approximate_member_count"] = len(guild.members)
            payload["approximate_presence_count"] = 0
        return json_response(payload)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._bot_guild(request)
        channels = [self.world.channels[c] for c in guild.channel_ids]
        live = [c for c in channels if not c.deleted and not c.is_thread]
        return json_response([self.world.channel_payload(c) for c in live])

    async def get_guild_roles(self, request: web.Request) -> web.Response:
        guild = self._bot_guild(request)
        return json_response([r.payload() for r in guild.roles.values()])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self._bot_guild(request)
        member = guild.members.get(int(request.match_info["user_id"]))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(self.world.member_payload(member))

    # -- channels ------------------------------------------------------------------------------

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self.world.require(channel)
        return json_response(self.world.channel_payload(channel))

    async def patch_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body = self._body(request)
        if channel.is_thread:
            own = channel.owner_id == self.world.bot.id and set(body) <= {
                "name",
                "archived",
                "auto_archive_duration",
            }
            if not own:
                self.world.require(channel, Perm.MANAGE_THREADS)
            else:
                self.world.require(channel)
            channel.name = str(body.get("name", channel.name))
            channel.archived = bool(body.get("archived", channel.archived))
            channel.locked = bool(body.get("locked", channel.locked))
            channel.auto_archive_duration = int(
                body.get("auto_archive_duration", channel.auto_archive_duration)
            )
            self.gateway.channel_event("THREAD_UPDATE", channel)
        else:
            self.world.require(channel, Perm.MANAGE_CHANNELS)
            channel.name = str(body.get("name", channel.name))
            self.gateway.channel_event("CHANNEL_UPDATE", channel)
        return json_response(self.world.channel_payload(channel))

    async def delete_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        needed = Perm.MANAGE_THREADS if channel.is_thread else Perm.MANAGE_CHANNELS
        self.world.require(channel, needed)
        channel.deleted = True
        if channel.is_thread:
            data = {
                "id": str(channel.id),
                "guild_id": str(channel.guild_id),
                "parent_id": str(channel.parent_id),
                "type": int(channel.type),
            }
            self.gateway.dispatch("THREAD_DELETE", data, intent=GUILDS)
        else:
            self.gateway.channel_event("CHANNEL_DELETE", channel)
        return json_response(self.world.channel_payload(channel))

    async def typing(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self.world.require(channel, self._send_permission(channel))
        return no_content()

    # -- channel messages ----------------------------------------------------------------------

    async def list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self.world.require(channel)
        perms = self.world.permissions_in(channel, self.world.bot.id)
        if not perms & Perm.READ_MESSAGE_HISTORY:
            return json_response([])
        try:
            limit = int(request.query.get("limit", "50"))
        except ValueError:
            raise invalid_form(["limit"], "NUMBER_TYPE_COERCE", "Value is not int.") from None
        if not 1 <= limit <= 100:
            raise invalid_form(
                ["limit"], "NUMBER_TYPE_MAX", "int value should be between 1 and 100."
            )
        found = sorted(
            (
                m
                for m in self.world.messages.values()
                if m.channel_id == channel.id and not m.deleted and not m.ephemeral
            ),
            key=lambda m: m.id,
            reverse=True,
        )
        if "before" in request.query:
            found = [m for m in found if m.id < int(request.query["before"])]
        if "after" in request.query:
            found = [m for m in found if m.id > int(request.query["after"])][-limit:]
        if "around" in request.query:
            pivot = int(request.query["around"])
            older = [m for m in found if m.id <= pivot][: (limit + 1) // 2]
            newer = [m for m in found if m.id > pivot][-(limit // 2) :] if limit > 1 else []
            found = newer + older
        return json_response([self.world.message_payload(m) for m in found[:limit]])

    async def get_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self.world.require(channel, Perm.READ_MESSAGE_HISTORY)
        message = self.world.message_in(channel, request.match_info["message_id"])
        return json_response(self.world.message_payload(message))

    async def create_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body = self._body(request)
        uploads: list[Upload] = request[UPLOADS]
        needed = [self._send_permission(channel)]
        if uploads:
            needed.append(Perm.ATTACH_FILES)
        self.world.require(channel, *needed)
        self._check_thread_open(channel)
        message = Message(
            id=self.world.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author_id=self.world.bot.id,
        )
        reference = body.get("message_reference")
        if reference:
            self._attach_reference(channel, message, reference)
        fill_message(self.world, message, body, uploads, editing=False, allowed_flags=CREATE_FLAGS)
        self._note_message(channel, message)
        if not channel.is_dm:  # the bot asks for no direct-message events
            self.gateway.message_event("MESSAGE_CREATE", message)
        return json_response(self.world.message_payload(message))

    def _check_thread_open(self, channel: Channel) -> None:
        if not channel.is_thread:
            return
        perms = self.world.permissions_in(channel, self.world.bot.id)
        if channel.locked and not perms & Perm.MANAGE_THREADS:
            raise ApiError(403, 160005, "Thread is locked")
        if channel.archived:
            # Sending into an archived, unlocked thread reopens it.
            channel.archived = False
            self.gateway.channel_event("THREAD_UPDATE", channel)

    def _attach_reference(self, channel: Channel, message: Message, reference: Json) -> None:
        target_id = reference.get("message_id")
        target = self.world.messages.get(int(target_id)) if target_id else None
        if target is None or target.deleted or target.ephemeral:
            if reference.get("fail_if_not_exists", True):
                raise invalid_form(
                    ["message_reference"], "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message"
                )
            return
        message.type = MessageType.REPLY
        message.reference = {
            "type": 0,
            "message_id": str(target.id),
            "channel_id": str(target.channel_id),
            "guild_id": str(target.guild_id),
        }

    async def edit_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self.world.require(channel)
        message = self.world.message_in(channel, request.match_info["message_id"])
        if message.author_id != self.world.bot.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        uploads: list[Upload] = request[UPLOADS]
        if uploads:
            self.world.require(channel, Perm.ATTACH_FILES)
        body = self._body(request)
        fill_message(self.world, message, body, uploads, editing=True, allowed_flags=EDIT_FLAGS)
        self.gateway.message_event("MESSAGE_UPDATE", message)
        return json_response(self.world.message_payload(message))

    async def delete_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self.world.require(channel)
        message = self.world.message_in(channel, request.match_info["message_id"])
        if message.author_id != self.world.bot.id:
            self.world.require(channel, Perm.MANAGE_MESSAGES)
        message.deleted = True
        self.gateway.message_deleted(message)
        return no_content()

    # -- threads -------------------------------------------------------------------------------

    def _thread_name(self, body: Json) -> str:
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise invalid_form(
                ["name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
            )
        return name

    def _new_thread(
        self, parent: Channel, thread_id: int, name: str, kind: ChannelType, body: Json
    ) -> Channel:
        thread = Channel(
            id=thread_id,
            guild_id=parent.guild_id,
            name=name,
            type=kind,
            parent_id=parent.id,
            owner_id=self.world.bot.id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        )
        thread.thread_members.add(self.world.bot.id)
        self.world.channels[thread.id] = thread
        self.world.guilds[parent.guild_id].channel_ids.append(thread.id)
        member = self.world.thread_member_payload(thread, self.world.bot.id)
        self.gateway.channel_event("THREAD_CREATE", thread, newly_created=True, member=member)
        return thread

    def _thread_parent(self, request: web.Request) -> Channel:
        parent = self._channel(request)
        if parent.type != ChannelType.TEXT:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        return parent

    async def thread_from_message(self, request: web.Request) -> web.Response:
        parent = self._thread_parent(request)
        self.world.require(parent, Perm.CREATE_PUBLIC_THREADS, Perm.READ_MESSAGE_HISTORY)
        message = self.world.message_in(parent, request.match_info["message_id"])
        body = self._body(request)
        name = self._thread_name(body)
        if message.thread_id is not None:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        # A thread started from a message shares the message's id.
        thread = self._new_thread(parent, message.id, name, ChannelType.PUBLIC_THREAD, body)
        message.thread_id = thread.id
        message.flags |= MessageFlag.HAS_THREAD
        self.gateway.message_event("MESSAGE_UPDATE", message)
        return json_response(self.world.channel_payload(thread), 201)

    async def thread_without_message(self, request: web.Request) -> web.Response:
        parent = self._thread_parent(request)
        body = self._body(request)
        # API v10 still defaults to a private thread when no type is given.
        kind = ChannelType(int(body.get("type") or ChannelType.PRIVATE_THREAD))
        if kind not in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD):
            raise invalid_form(["type"], "BASE_TYPE_CHOICES", "Value must be one of {11, 12}.")
        needed = (
            Perm.CREATE_PUBLIC_THREADS
            if kind == ChannelType.PUBLIC_THREAD
            else Perm.CREATE_PRIVATE_THREADS
        )
        self.world.require(parent, needed)
        name = self._thread_name(body)
        thread = self._new_thread(parent, self.world.ids.next(), name, kind, body)
        if kind == ChannelType.PUBLIC_THREAD:
            notice = Message(
                id=self.world.ids.next(),
                channel_id=parent.id,
                guild_id=parent.guild_id,
                author_id=self.world.bot.id,
                content=name,
                type=MessageType.THREAD_CREATED,
                reference={"channel_id": str(thread.id), "guild_id": str(parent.guild_id)},
            )
            self._note_message(parent, notice)
            self.gateway.message_event("MESSAGE_CREATE", notice)
        return json_response(self.world.channel_payload(thread), 201)

    def _thread(self, request: web.Request) -> Channel:
        thread = self._channel(request)
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        return thread

    def _thread_user(self, request: web.Request, thread: Channel) -> int:
        raw = request.match_info["user_id"]
        user_id = self.world.bot.id if raw == "@me" else int(raw)
        if user_id not in self.world.guilds[thread.guild_id].members:
            raise ApiError(404, 10007, "Unknown Member")
        return user_id

    async def list_thread_members(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        self.world.require(thread)
        members = [
            self.world.thread_member_payload(thread, u) for u in sorted(thread.thread_members)
        ]
        return json_response(members)

    async def add_thread_member(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        user_id = self._thread_user(request, thread)
        if user_id == self.world.bot.id:
            self.world.require(thread)
        else:
            self.world.require(thread, Perm.SEND_MESSAGES_IN_THREADS)
        thread.thread_members.add(user_id)
        return no_content()

    async def remove_thread_member(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        user_id = self._thread_user(request, thread)
        if user_id != self.world.bot.id and thread.owner_id != self.world.bot.id:
            self.world.require(thread, Perm.MANAGE_THREADS)
        thread.thread_members.discard(user_id)
        return no_content()

    # -- interactions --------------------------------------------------------------------------

    async def callback(self, request: web.Request) -> web.Response:
        world = self.world
        now = time.monotonic()
        ix = world.interactions.get(int(request.match_info["interaction_id"]))
        if ix is None or ix.token != request.match_info["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        body = self._body(request)
        kind = int(body.get("type", 0))
        if ix.acked:
            ix.rejected_callbacks.append((now, kind))
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if world.now() - ix.born > self.ack_deadline():
            ix.rejected_callbacks.append((now, kind))
            raise ApiError(404, 10062, "Unknown interaction")
        allowed = {
            InteractionType.APPLICATION_COMMAND: {4, 5, 9},
            InteractionType.MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
            InteractionType.MODAL_SUBMIT: {4, 5, 6, 7} if ix.message_id else {4, 5},
            InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE: {8},
        }[ix.type]
        if kind not in allowed:
            raise invalid_form(
                ["type"], "INTERACTION_RESPONSE_TYPE_INVALID", "Invalid interaction response type"
            )
        data = body.get("data") or {}
        uploads: list[Upload] = request[UPLOADS]
        channel = world.channels[ix.channel_id]
        callback = CallbackType(kind)
        resource: Message | None = None
        if callback in (CallbackType.CHANNEL_MESSAGE, CallbackType.DEFERRED_CHANNEL_MESSAGE):
            message = Message(
                id=world.ids.next(),
                channel_id=ix.channel_id,
                guild_id=ix.guild_id,
                author_id=world.bot.id,
                type=(
                    MessageType.CHAT_INPUT_COMMAND
                    if ix.type == InteractionType.APPLICATION_COMMAND
                    else MessageType.DEFAULT
                ),
                webhook_id=world.application_id,
                application_id=world.application_id,
                interaction_id=ix.id,
            )
            ephemeral = int(data.get("flags") or 0) & MessageFlag.EPHEMERAL
            if callback == CallbackType.CHANNEL_MESSAGE:
                fill_message(
                    world,
                    message,
                    data,
                    uploads,
                    editing=False,
                    allowed_flags=CREATE_FLAGS | MessageFlag.EPHEMERAL,
                )
            else:
                message.flags = MessageFlag.LOADING | ephemeral
            ix.original_id = message.id
            self._note_message(channel, message)
            self.gateway.message_event("MESSAGE_CREATE", message)
            resource = message
        elif callback in (CallbackType.DEFERRED_UPDATE_MESSAGE, CallbackType.UPDATE_MESSAGE):
            assert ix.message_id is not None
            target = world.messages[ix.message_id]
            if target.deleted:
                raise ApiError(404, 10008, "Unknown Message")
            if callback == CallbackType.UPDATE_MESSAGE:
                fill_message(world, target, data, uploads, editing=True, allowed_flags=EDIT_FLAGS)
                ix.original_edits.append(now)
                self.gateway.message_event("MESSAGE_UPDATE", target)
                resource = target
            ix.original_id = target.id
        ix.callback_type = callback
        ix.callback_at = now
        ix.callback_data = data
        if request.query.get("with_response") not in ("1", "true", "True"):
            return no_content()
        summary: Json = {"id": str(ix.id), "type": int(ix.type)}
        if ix.original_id is not None:
            original = world.messages[ix.original_id]
            summary.update(
                response_message_id=str(original.id),
                response_message_loading=original.loading,
                response_message_ephemeral=original.ephemeral,
            )
        result: Json = {"interaction": summary}
        if resource is not None:
            result["resource"] = {"type": kind, "message": world.message_payload(resource)}
        return json_response(result)

    def _webhook_interaction(self, request: web.Request) -> Interaction:
        ix = self.world.interactions_by_token.get(request.match_info["token"])
        if ix is None or request.match_info["app_id"] != str(self.world.application_id):
            raise ApiError(404, 10015, "Unknown Webhook")
        if self.world.now() - ix.born > self.limits().interaction_token_ttl:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        if not ix.acked:
            raise ApiError(404, 10015, "Unknown Webhook")
        return ix

    def _webhook_message(self, request: web.Request) -> tuple[Interaction, Message]:
        ix = self._webhook_interaction(request)
        raw = request.match_info["message_id"]
        message_id = ix.original_id if raw == "@original" else int(raw)
        if message_id is None or (
            message_id != ix.original_id and message_id not in ix.followup_ids
        ):
            raise ApiError(404, 10008, "Unknown Message")
        message = self.world.messages[message_id]
        if message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return ix, message

    async def followup(self, request: web.Request) -> web.Response:
        ix = self._webhook_interaction(request)
        world = self.world
        if ix.context == 2 and len(ix.followup_ids) >= FOLLOWUPS_AWAY:
            # Docs, Receiving and Responding, "Followup Messages": an app not installed in the
            # guild or channel may send at most 5 followups per interaction.
            raise ApiError(
                400, 40094, "This interaction has hit the maximum number of follow up messages"
            )
        body = self._body(request)
        uploads: list[Upload] = request[UPLOADS]
        original = world.messages.get(ix.original_id) if ix.original_id else None
        if original is not None and original.loading and not original.deleted:
            # The first followup after a "thinking" defer fills the loading message in.
            fill_message(world, original, body, uploads, editing=True, allowed_flags=EDIT_FLAGS)
            ix.original_edits.append(time.monotonic())
            self.gateway.message_event("MESSAGE_UPDATE", original)
            message = original
        else:
            message = Message(
                id=world.ids.next(),
                channel_id=ix.channel_id,
                guild_id=ix.guild_id,
                author_id=world.bot.id,
                webhook_id=world.application_id,
                application_id=world.application_id,
                interaction_id=ix.id,
            )
            fill_message(
                world,
                message,
                body,
                uploads,
                editing=False,
                allowed_flags=CREATE_FLAGS | MessageFlag.EPHEMERAL,
            )
            ix.followup_ids.append(message.id)
            self._note_message(world.channels[ix.channel_id], message)
            self.gateway.message_event("MESSAGE_CREATE", message)
        if request.query.get("wait") not in ("1", "true", "True"):
            return no_content()
        return json_response(world.message_payload(message))

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        _, message = self._webhook_message(request)
        return json_response(self.world.message_payload(message))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        ix, message = self._webhook_message(request)
        body = self._body(request)
        uploads: list[Upload] = request[UPLOADS]
        fill_message(self.world, message, body, uploads, editing=True, allowed_flags=EDIT_FLAGS)
        if message.id == ix.original_id:
            ix.original_edits.append(time.monotonic())
        self.gateway.message_event("MESSAGE_UPDATE", message)
        return json_response(self.world.message_payload(message))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        _, message = self._webhook_message(request)
        message.deleted = True
        self.gateway.message_deleted(message)
        return no_content()

    # -- files ---------------------------------------------------------------------------------

    async def attachment(self, request: web.Request) -> web.Response:
        try:
            item = self.world.attachments.get(int(request.match_info["attachment_id"]))
        except ValueError:
            item = None
        if item is None or item.filename != request.match_info["filename"]:
            raise web.HTTPNotFound()
        # Discord's CDN serves a file's bytes forever under one URL.
        headers = {"Content-Type": item.content_type, "Cache-Control": "max-age=86400"}
        return web.Response(body=item.data, headers=headers)
