"""Sending an interaction to the bot: the payload every context has, a guild's fields or a
group DM's (a user-installed app), and a modal's answers as Discord sends them."""

from __future__ import annotations

import time
from collections.abc import Mapping

from sandbox.fake_model import (
    APP_PERMISSIONS_AWAY,
    ATTACHMENT_SIZE_LIMIT,
    Channel,
    Interaction,
    InteractionType,
    Json,
    Message,
    Perm,
    User,
)
from sandbox.fake_state import FakeState


class FakeInteractions(FakeState):
    """The INTERACTION_CREATE payloads members' actions send."""

    def _send_interaction(
        self,
        kind: InteractionType,
        user: User,
        channel: Channel,
        data: Json,
        *,
        name: str,
        message: Message | None = None,
        locale: str | None = None,
    ) -> Interaction:
        """Send the interaction: the fields every context has, and those of where it happens
        (see :meth:`_in_guild` and :meth:`_in_private`)."""
        world = self.world
        place = (
            self._in_private(user, channel)
            if channel.is_group_dm
            else self._in_guild(user, channel)
        )
        context = int(place["context"])
        ix_id = world.ids.next()
        token = world.new_token(ix_id)
        user_perms = world.permissions_in(channel, user.id)
        payload: Json = {
            "id": str(ix_id),
            "application_id": str(world.application_id),
            "type": int(kind),
            "data": data,
            "channel_id": str(channel.id),
            "channel": {**world.channel_payload(channel), "permissions": str(user_perms)},
            "token": token,
            "version": 1,
            "locale": locale or self.user_locales.get(user.id, "en-US"),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            **place,
        }
        if message is not None:
            payload["message"] = world.message_payload(message)
        ix = Interaction(
            id=ix_id,
            token=token,
            type=kind,
            user_id=user.id,
            guild_id=channel.guild_id,
            channel_id=channel.id,
            payload=payload,
            created=time.monotonic(),
            name=name,
            message_id=message.id if message is not None else None,
            born=world.now(),
            context=context,
        )
        world.interactions[ix.id] = ix
        world.interactions_by_token[token] = ix
        if not self.gateway.dispatch("INTERACTION_CREATE", payload):
            raise RuntimeError("the bot has no gateway session to receive the interaction")
        self._notify()
        return ix

    def _in_guild(self, user: User, channel: Channel) -> Json:
        """The fields of an interaction in a guild channel (``context`` 0): the member, their
        permissions and the guild as the authorizing owner."""
        world = self.world
        guild_locale = self.guild_locales.get(channel.guild_id, "en-US")
        guild = world.guilds[channel.guild_id]
        member = guild.members.get(user.id)
        if member is None:
            raise LookupError(f"{user.name} is not a member of {guild.name}")
        user_perms = world.permissions_in(channel, user.id)
        if not user_perms & Perm.VIEW_CHANNEL:
            raise PermissionError(f"{user.name} cannot see #{channel.name}")
        return {
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild_locale, "features": []},
            "member": {**world.member_payload(member), "permissions": str(user_perms)},
            "app_permissions": str(world.permissions_in(channel, world.bot.id)),
            "guild_locale": guild_locale,
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
        }

    def _in_private(self, user: User, channel: Channel) -> Json:
        """The fields of an interaction from people's own DM or group DM (``context`` 2) with
        a command of the app they installed on their account: ``user`` instead of ``member``,
        no guild, and the installing user as the authorizing owner (integration type 1)."""
        if user.id not in channel.recipient_ids:
            raise PermissionError(f"{user.name} is not in the group DM {channel.name}")
        return {
            "user": user.payload(),
            "app_permissions": str(int(APP_PERMISSIONS_AWAY)),
            "authorizing_integration_owners": {"1": str(user.id)},
            "context": 2,
        }

    @staticmethod
    def _modal_answer(component: Json, values: Mapping[str, str | list[str] | bool]) -> Json:
        def answer(item: Json) -> Json:
            custom_id = item.get("custom_id", "")
            if item.get("type") == 23:  # a checkbox answers its state (Discord docs, Checkbox)
                ticked = values.get(custom_id, bool(item.get("default", False)))
                return {
                    "type": 23,
                    "id": item.get("id"),
                    "custom_id": custom_id,
                    "value": bool(ticked),
                }
            value = values.get(custom_id, "")
            if item.get("type") == 21:  # a radio group: the one value chosen, or null
                return {
                    "type": 21,
                    "id": item.get("id"),
                    "custom_id": custom_id,
                    "value": value if isinstance(value, str) and value else None,
                }
            if item.get("type") == 4:
                return {
                    "type": 4,
                    "id": item.get("id"),
                    "custom_id": item["custom_id"],
                    "value": value,
                }
            chosen = value if isinstance(value, list) else [str(value)] if value else []
            return {
                "type": item["type"],
                "id": item.get("id"),
                "custom_id": item["custom_id"],
                "values": chosen,
            }

        if component.get("type") == 1:
            return {"type": 1, "components": [answer(c) for c in component.get("components", [])]}
        if component.get("type") == 18:
            return {
                "type": 18,
                "id": component.get("id"),
                "component": answer(component["component"]),
            }
        return {"type": component.get("type"), "id": component.get("id")}
