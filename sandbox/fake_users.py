"""What members do, as a Discord client does it: use a slash command (or type in one for
autocomplete), press a button or choose in a select, submit a modal, post a plain line.

Each refuses what Discord's client would not let a person do (a disabled button, another
member's ephemeral message, a value outside an option's choices) unless the method says it
delivers it anyway (``click_stale``, ``unchecked=True``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sandbox.fake_bodies import SELECT_TYPES
from sandbox.fake_command_data import FakeCommandData
from sandbox.fake_interactions import FakeInteractions
from sandbox.fake_model import CallbackType, Interaction, InteractionType, Json, Message
from sandbox.fake_state import ChannelLike, MessageLike, UserLike


class FakeUsers(FakeInteractions, FakeCommandData):
    """Members' actions; each returns the interaction (or message) it sent."""

    async def slash(
        self,
        user: UserLike,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel: ChannelLike | None = None,
        locale: str | None = None,
        unchecked: bool = False,
    ) -> Interaction:
        """Use a synced slash command; ``command`` may name a subcommand: ``"game start"``.
        ``locale`` is the user's client language (``"de"`` for German). ``unchecked``
        delivers a value that is not among an option's choices, as a forged request or a
        client on an older command definition can (Discord itself refuses it)."""
        kind = InteractionType.APPLICATION_COMMAND
        return self._command(
            kind, user, command, options or {}, None, channel, locale, unchecked=unchecked
        )

    async def autocomplete(
        self,
        user: UserLike,
        command: str,
        options: Mapping[str, Any],
        focused: str,
        *,
        channel: ChannelLike | None = None,
    ) -> Interaction:
        kind = InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE
        return self._command(kind, user, command, options, focused, channel, None)

    def _command(
        self,
        kind: InteractionType,
        user: UserLike,
        command: str,
        options: Mapping[str, Any],
        focused: str | None,
        channel: ChannelLike | None,
        locale: str | None,
        *,
        unchecked: bool = False,
    ) -> Interaction:
        found = self._channel(channel)
        data = self._command_data(found, command, options, focused=focused, unchecked=unchecked)
        return self._send_interaction(
            kind, self._user(user), found, data, name=command, locale=locale
        )

    async def click(
        self,
        user: UserLike,
        message: MessageLike,
        custom_id: str,
        *,
        values: Iterable[str] | None = None,
    ) -> Interaction:
        """Press a button (or choose ``values`` in a select) on the message as it is now."""
        clicker = self._user(user)
        found = self.message(message)
        if found.deleted:
            raise LookupError(f"message {found.id} was deleted")
        component = found.component(custom_id)
        if component is None:
            raise LookupError(
                f"no component {custom_id!r} on message {found.id}: {found.custom_ids()}"
            )
        if component.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        if found.ephemeral and found.interaction_id is not None:
            owner = self.world.interactions[found.interaction_id].user_id
            if owner != clicker.id:
                raise PermissionError("only the user who got an ephemeral message can use it")
        data: Json = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] in SELECT_TYPES:
            chosen = list(values or [])
            low, high = component.get("min_values", 1), component.get("max_values", 1)
            if not low <= len(chosen) <= high:
                raise ValueError(f"select {custom_id!r} takes {low}..{high} values, got {chosen}")
            if component["type"] == 3:
                offered = {o["value"] for o in component.get("options", [])}
                if not set(chosen) <= offered:
                    raise ValueError(f"{chosen} not among the options {sorted(offered)}")
            data["values"] = chosen
        elif values is not None:
            raise ValueError("values are only for select menus")
        channel = self.world.channels[found.channel_id]
        return self._send_interaction(
            InteractionType.MESSAGE_COMPONENT, clicker, channel, data, name=custom_id, message=found
        )

    async def click_stale(
        self, user: UserLike, message: MessageLike, custom_id: str, *, component_type: int = 2
    ) -> Interaction:
        """Press a button the message no longer has (or never had), as a Discord client that
        has not refreshed yet does, or as a forged request would: Discord delivers it anyway."""
        clicker = self._user(user)
        found = self.message(message)
        if found.deleted:
            raise LookupError(f"message {found.id} was deleted")
        data: Json = {"custom_id": custom_id, "component_type": component_type}
        channel = self.world.channels[found.channel_id]
        return self._send_interaction(
            InteractionType.MESSAGE_COMPONENT, clicker, channel, data, name=custom_id, message=found
        )

    async def submit_modal(
        self,
        user: UserLike,
        interaction: Interaction,
        values: Mapping[str, str | list[str] | bool],
    ) -> Interaction:
        """Fill in and submit the modal the bot showed in answer to ``interaction``: a text
        input or radio group takes a string, a select or checkbox group a list, a checkbox a
        bool (a field left out is answered empty, a checkbox with its default)."""
        if interaction.callback_type != CallbackType.MODAL or interaction.callback_data is None:
            raise ValueError("the bot did not answer that interaction with a modal")
        modal = interaction.callback_data
        rows = [self._modal_answer(c, values) for c in modal.get("components", [])]
        data: Json = {"custom_id": modal["custom_id"], "components": rows}
        channel = self.world.channels[interaction.channel_id]
        message = self.world.messages.get(interaction.message_id or 0)
        return self._send_interaction(
            InteractionType.MODAL_SUBMIT,
            self._user(user),
            channel,
            data,
            name=str(modal["custom_id"]),
            message=message,
        )

    async def say(
        self, user: UserLike, content: str, *, channel: ChannelLike | None = None
    ) -> Message:
        """A member posts a plain message."""
        author = self._user(user)
        found = self._channel(channel)
        message = Message(
            id=self.world.ids.next(),
            channel_id=found.id,
            guild_id=found.guild_id,
            author_id=author.id,
            content=content,
        )
        self.world.resolve_mentions(message, None)
        self.world.messages[message.id] = message
        found.last_message_id = message.id
        self.gateway.message_event("MESSAGE_CREATE", message)
        self._notify()
        return message
