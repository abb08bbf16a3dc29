"""REST routes of threads: started from a message or on their own (public or private), and
their members."""

from __future__ import annotations

from aiohttp import web

from sandbox.fake_model import (
    ApiError,
    Channel,
    ChannelType,
    Json,
    Message,
    MessageFlag,
    MessageType,
    Perm,
    invalid_form,
    json_response,
)
from sandbox.fake_rest_state import RestState, no_content


class ThreadRoutes(RestState):
    """``/channels/{id}/.../threads`` and ``/channels/{id}/thread-members/...``."""

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
