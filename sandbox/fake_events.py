"""Guild scheduled events in the fake Discord: create and modify, checked as Discord's
documentation describes them (the subset a bot announcing a tournament uses: external
events, with a location and an end time), kept per id for the tests to read."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from aiohttp import web

from sandbox.fake_model import (
    ApiError,
    Guild,
    Json,
    invalid_form,
    json_response,
    missing_permissions,
)
from sandbox.fake_world import World


class RestApi(Protocol):
    """What the events need of the fake's REST API (named here so the two modules do not
    import each other)."""

    world: World

    def _bot_guild(self, request: web.Request) -> Guild: ...

    def _body(self, request: web.Request) -> Json: ...


MANAGE_EVENTS = 1 << 33
CREATE_EVENTS = 1 << 44
EXTERNAL = 3
GUILD_ONLY = 2
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
# Discord's allowed status changes: a scheduled event starts or is cancelled, an active one
# completes; nothing leaves completed or cancelled.
TRANSITIONS = {SCHEDULED: {ACTIVE, CANCELED}, ACTIVE: {COMPLETED}}


def _time(body: Json, key: str) -> datetime:
    value = body.get(key)
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        raise invalid_form([key], "DATE_TIME_TYPE_COERCE", "Could not parse the time.") from None


def _text(body: Json, key: str, most: int, *, required: bool = True) -> None:
    value = body.get(key)
    if value is None and not required:
        return
    if not isinstance(value, str) or not 1 <= len(value) <= most:
        raise invalid_form([key], "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {most}.")


class ScheduledEvents:
    def __init__(self, rest: RestApi) -> None:
        self.rest = rest
        self.events: dict[int, Json] = {}

    def install(self, app: web.Application, prefix: str) -> None:
        base = prefix + "/guilds/{guild_id}/scheduled-events"
        app.router.add_route("POST", base, self.create)
        app.router.add_route("PATCH", base + "/{event_id}", self.modify)

    def _perms(self, request: web.Request) -> tuple[Any, int]:
        guild = self.rest._bot_guild(request)
        return guild, self.rest.world.base_permissions(guild, self.rest.world.bot.id)

    async def create(self, request: web.Request) -> web.Response:
        # Since February 2026 creating an event takes CREATE_EVENTS; MANAGE_EVENTS alone
        # no longer does (Discord's changelog, "Guild scheduled event permissions").
        guild, perms = self._perms(request)
        if not perms & CREATE_EVENTS:
            raise missing_permissions()
        body: Json = self.rest._body(request)
        _text(body, "name", 100)
        _text(body, "description", 1000, required=False)
        if body.get("privacy_level") != GUILD_ONLY:
            raise invalid_form(["privacy_level"], "BASE_TYPE_CHOICES", "Value must be 2.")
        if body.get("entity_type") != EXTERNAL:
            raise invalid_form(["entity_type"], "BASE_TYPE_CHOICES", "Only external here.")
        if body.get("channel_id") is not None:
            raise invalid_form(["channel_id"], "BASE_TYPE_BAD", "External events have none.")
        metadata = body.get("entity_metadata") or {}
        _text(metadata, "location", 100)
        start, end = _time(body, "scheduled_start_time"), _time(body, "scheduled_end_time")
        if start.tzinfo is None or end <= start:
            raise invalid_form(["scheduled_end_time"], "BASE_TYPE_BAD", "End before start.")
        if start.timestamp() <= datetime.now().timestamp():
            raise ApiError(400, 50035, "Cannot schedule event in the past.")
        event_id = self.rest.world.ids.next()
        event: Json = {
            "id": str(event_id),
            "guild_id": str(guild.id),
            "channel_id": None,
            "creator_id": str(self.rest.world.bot.id),
            "name": body["name"],
            "description": body.get("description"),
            "scheduled_start_time": body["scheduled_start_time"],
            "scheduled_end_time": body["scheduled_end_time"],
            "privacy_level": GUILD_ONLY,
            "status": SCHEDULED,
            "entity_type": EXTERNAL,
            "entity_id": None,
            "entity_metadata": {"location": metadata["location"]},
            "user_count": 0,
            "image": None,
        }
        self.events[event_id] = event
        return json_response(event)

    async def modify(self, request: web.Request) -> web.Response:
        _guild, perms = self._perms(request)
        event = self.events.get(int(request.match_info["event_id"]))
        if event is None:
            raise ApiError(404, 10070, "Unknown Guild Scheduled Event")
        # Any event with MANAGE_EVENTS; one's own with CREATE_EVENTS.
        own = event["creator_id"] == str(self.rest.world.bot.id)
        if not perms & MANAGE_EVENTS and not (own and perms & CREATE_EVENTS):
            raise missing_permissions()
        body: Json = self.rest._body(request)
        status = body.get("status")
        if status is not None:
            if status not in TRANSITIONS.get(int(event["status"]), set()):
                raise invalid_form(["status"], "BASE_TYPE_BAD", "Invalid status change.")
            event["status"] = status
        for key in ("name", "description", "scheduled_end_time"):
            if key in body:
                event[key] = body[key]
        return json_response(event)
