"""REST routes of interactions: the callback (within the acknowledgement deadline, once), and
the application's webhook for followups and for reading, editing and deleting its messages."""

from __future__ import annotations

import time

from aiohttp import web

from sandbox.fake_bodies import CREATE_FLAGS, EDIT_FLAGS, Upload, fill_message
from sandbox.fake_model import (
    ApiError,
    CallbackType,
    Interaction,
    InteractionType,
    Json,
    Message,
    MessageFlag,
    MessageType,
    invalid_form,
    json_response,
)
from sandbox.fake_rest_state import UPLOADS, RestState, no_content

# Followups an interaction may send where the app is no member of the channel (a user install
# used in a DM or group DM).
FOLLOWUPS_AWAY = 5


class InteractionRoutes(RestState):
    """``/interactions/{id}/{token}/callback`` and ``/webhooks/{app_id}/{token}/...``."""

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
