"""REST routes of guilds, channels and their messages (list, post, edit, delete) and the
files messages carry, with the permission checks Discord makes on each."""

from __future__ import annotations

from aiohttp import web

from sandbox.fake_bodies import CREATE_FLAGS, EDIT_FLAGS, Upload, fill_message
from sandbox.fake_gateway import GUILDS
from sandbox.fake_model import (
    ApiError,
    Channel,
    Json,
    Message,
    MessageType,
    Perm,
    invalid_form,
    json_response,
)
from sandbox.fake_rest_state import UPLOADS, RestState, no_content


class ChannelRoutes(RestState):
    """``/guilds/...``, ``/channels/{id}``, ``/channels/{id}/messages/...`` and attachments."""

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
        self._check_dm_open(channel)
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

    def _check_dm_open(self, channel: Channel) -> None:
        """A person who takes no DMs from the bot: Discord refuses the message (the channel
        itself opens: ``POST /users/@me/channels`` still answers it)."""
        recipient = self.world.users.get(channel.recipient_id or 0) if channel.is_dm else None
        if recipient is not None and recipient.dms_closed:
            raise ApiError(403, 50007, "Cannot send messages to this user")

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
