"""The fake REST API under ``/api/v10``: the middleware every request passes (auth, rate
limits, injected faults, the request log, Discord's errors) and ``RestApi``, which composes
the route groups, each a ``RestState`` mixin in a module of its own: ``fake_rest_app`` (the
gateway's address, users, DMs, the application, commands), ``fake_rest_channels`` (guilds,
channels, messages, attachments), ``fake_rest_threads`` and ``fake_rest_interactions``
(callbacks and the application's webhook); ``fake_events`` serves scheduled events."""

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

from sandbox.fake_bodies import Upload
from sandbox.fake_gateway import Gateway
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
    json_response,
)
from sandbox.fake_rest_app import AppRoutes
from sandbox.fake_rest_channels import ChannelRoutes
from sandbox.fake_rest_interactions import InteractionRoutes
from sandbox.fake_rest_state import API_PREFIX, BODY, UPLOADS
from sandbox.fake_rest_threads import ThreadRoutes
from sandbox.fake_world import World

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


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


@dataclass(eq=False, repr=False)
class RestApi(AppRoutes, ChannelRoutes, ThreadRoutes, InteractionRoutes):
    """Discord's REST API for the bot, on the fake's world and gateway."""

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
