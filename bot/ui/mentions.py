"""Who a message may ping: exactly the people it means to, named by id.

Discord pings whoever a message's text mentions unless ``allowed_mentions`` says otherwise;
``users=True`` would let a display name that reads ``<@someone>`` (drawn as text anyway, see
``bot.vocabulary.markup``) or any other mention in the text ping a bystander. Every message
the bot sends names its pinged users in a list; the bot's default (``TabulaBot``) pings
nobody, for any message that names none.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from discord.types.message import AllowedMentions as AllowedMentionsPayload

__all__ = ["NOBODY", "Pings", "pinging"]


class Pings(discord.AllowedMentions):
    """``AllowedMentions`` that writes its ids as snowflake strings, as Discord's API
    describes them (discord.py writes numbers), also once merged with the bot's default."""

    def merge(self, other: discord.AllowedMentions) -> Pings:
        merged = super().merge(other)
        return Pings(
            everyone=merged.everyone,
            users=merged.users,
            roles=merged.roles,
            replied_user=merged.replied_user,
        )

    def to_dict(self) -> AllowedMentionsPayload:
        data = super().to_dict()
        if "users" in data:
            data["users"] = [str(uid) for uid in data["users"]]
        if "roles" in data:
            data["roles"] = [str(rid) for rid in data["roles"]]
        return data


NOBODY = Pings.none()


def pinging(user_ids: Iterable[int | None]) -> Pings:
    """Pings for ``user_ids`` only (AI seats, ``None``, are left out): no other user, no
    role, no ``@everyone``, no reply ping."""
    users = [discord.Object(id=uid) for uid in dict.fromkeys(user_ids) if uid is not None]
    return Pings(everyone=False, users=users, roles=False, replied_user=False)
