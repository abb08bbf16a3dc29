"""The world as Discord sends it: members, channels, threads' members, guilds (and the
gateway's GUILD_CREATE), messages with their interaction metadata (``WorldPayloads``, a base
of ``sandbox.fake_world.World``)."""

from __future__ import annotations

from sandbox.fake_model import (
    Channel,
    Guild,
    Interaction,
    InteractionType,
    Json,
    Member,
    Message,
    MessageType,
    User,
)


class WorldPayloads:
    """JSON payloads of the world's records, as the REST routes and the gateway send them."""

    users: dict[int, User]
    guilds: dict[int, Guild]
    channels: dict[int, Channel]
    messages: dict[int, Message]
    interactions: dict[int, Interaction]
    bot: User

    def member_payload(self, member: Member, *, with_user: bool = True) -> Json:
        payload: Json = {
            "roles": [str(r) for r in member.roles],
            "nick": member.nick,
            "avatar": None,
            "banner": None,
            "joined_at": member.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            payload["user"] = member.user.payload()
        return payload

    def channel_payload(self, channel: Channel) -> Json:
        if channel.is_group_dm:
            return {
                "id": str(channel.id),
                "type": int(channel.type),
                "last_message_id": _opt_str(channel.last_message_id),
                "flags": 0,
                "name": channel.name,
                "icon": None,
                "owner_id": str(channel.owner_id),
                "recipients": [self.users[u].payload() for u in channel.recipient_ids],
            }
        if channel.is_dm:
            assert channel.recipient_id is not None
            return {
                "id": str(channel.id),
                "type": int(channel.type),
                "last_message_id": _opt_str(channel.last_message_id),
                "flags": 0,
                "recipients": [self.users[channel.recipient_id].payload()],
            }
        payload: Json = {
            "id": str(channel.id),
            "type": int(channel.type),
            "guild_id": str(channel.guild_id),
            "name": channel.name,
            "position": channel.position,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "flags": 0,
            "last_message_id": _opt_str(channel.last_message_id),
        }
        if channel.is_thread:
            payload.update(
                parent_id=str(channel.parent_id),
                owner_id=str(channel.owner_id),
                message_count=channel.message_count,
                total_message_sent=channel.message_count,
                member_count=len(channel.thread_members),
                thread_metadata={
                    "archived": channel.archived,
                    "locked": channel.locked,
                    "auto_archive_duration": channel.auto_archive_duration,
                    "archive_timestamp": channel.created_at,
                    "create_timestamp": channel.created_at,
                    "invitable": True,
                },
            )
        else:
            payload.update(
                topic=None,
                parent_id=None,
                default_auto_archive_duration=1440,
                permission_overwrites=[ow.payload() for ow in channel.overwrites.values()],
            )
        return payload

    def thread_member_payload(self, thread: Channel, user_id: int) -> Json:
        return {
            "id": str(thread.id),
            "user_id": str(user_id),
            "join_timestamp": thread.created_at,
            "flags": 0,
        }

    def guild_payload(self, guild: Guild) -> Json:
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
        }

    def guild_create_payload(self, guild: Guild, *, all_members: bool) -> Json:
        """GUILD_CREATE: without the members intent Discord sends only the bot's own member."""
        members = [m for uid, m in guild.members.items() if all_members or uid == self.bot.id]
        live = [self.channels[c] for c in guild.channel_ids if not self.channels[c].deleted]
        return {
            **self.guild_payload(guild),
            "unavailable": False,
            "large": False,
            "joined_at": guild.members[self.bot.id].joined_at,
            "member_count": len(guild.members),
            "members": [self.member_payload(m) for m in members],
            "channels": [self.channel_payload(c) for c in live if not c.is_thread],
            "threads": [self.channel_payload(c) for c in live if c.is_thread and not c.archived],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def message_payload(self, message: Message) -> Json:
        author = self.users[message.author_id]
        guild = self.guilds.get(message.guild_id)  # None: a direct message
        mentions = []
        for uid in message.mention_ids:
            user_payload = self.users[uid].payload()
            member = guild.members.get(uid) if guild is not None else None
            if member is not None:
                user_payload["member"] = self.member_payload(member, with_user=False)
            mentions.append(user_payload)
        payload: Json = {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "guild_id": str(message.guild_id),
            "author": author.payload(),
            "content": message.content,
            "timestamp": message.timestamp,
            "edited_timestamp": message.edited_timestamp,
            "tts": message.tts,
            "mention_everyone": message.mention_everyone,
            "mentions": mentions,
            "mention_roles": [str(r) for r in message.mention_role_ids],
            "attachments": [a.payload() for a in message.attachments],
            "embeds": message.embeds,
            "components": message.components,
            "pinned": False,
            "type": int(message.type),
            "flags": message.flags,
        }
        if guild is None:
            del payload["guild_id"]
        elif message.webhook_id is None and author.id in guild.members:
            payload["member"] = self.member_payload(guild.members[author.id], with_user=False)
        if message.webhook_id is not None:
            payload["webhook_id"] = str(message.webhook_id)
        if message.application_id is not None:
            payload["application_id"] = str(message.application_id)
        if message.nonce is not None:
            payload["nonce"] = message.nonce
        if message.reference is not None:
            payload["message_reference"] = message.reference
            referenced = self.messages.get(int(message.reference.get("message_id", 0)))
            if message.type == MessageType.REPLY:
                payload["referenced_message"] = (
                    None
                    if referenced is None or referenced.deleted
                    else self.message_payload(referenced)
                )
        if message.thread_id is not None:
            payload["thread"] = self.channel_payload(self.channels[message.thread_id])
        if message.interaction_id is not None:
            payload.update(self._interaction_metadata(message))
        return payload

    def _interaction_metadata(self, message: Message) -> Json:
        assert message.interaction_id is not None
        ix = self.interactions[message.interaction_id]
        user = self.users[ix.user_id].payload()
        metadata: Json = {
            "id": str(ix.id),
            "type": int(ix.type),
            "user": user,
            "authorizing_integration_owners": {"0": str(ix.guild_id)},
        }
        if ix.original_id is not None and ix.original_id != message.id:
            metadata["original_response_message_id"] = str(ix.original_id)
        if ix.message_id is not None:
            metadata["interacted_message_id"] = str(ix.message_id)
        extra: Json = {"interaction_metadata": metadata}
        if ix.type == InteractionType.APPLICATION_COMMAND:
            extra["interaction"] = {"id": str(ix.id), "type": 2, "name": ix.name, "user": user}
        return extra


def _opt_str(value: int | None) -> str | None:
    return None if value is None else str(value)
