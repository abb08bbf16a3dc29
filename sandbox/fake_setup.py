"""Setting up and changing the world around the bot, as a server's owner or moderator does:
servers, members, channels, group DMs, roles, permission overwrites, deleted messages. Each
change reaches the bot as the gateway event Discord sends for it."""

from __future__ import annotations

from collections.abc import Iterable

from sandbox.fake_gateway import GUILD_MEMBERS, GUILDS
from sandbox.fake_model import Channel, Guild, Overwrite, PermissionsLike, Role, User, to_bits
from sandbox.fake_state import ChannelLike, FakeState, MessageLike, UserLike


class FakeSetup(FakeState):
    """The owner's and moderators' side of the fake guilds."""

    async def add_member(
        self,
        name: str,
        *,
        bot: bool = False,
        roles: Iterable[Role] = (),
        guild: Guild | None = None,
    ) -> User:
        guild = guild or self.guild
        user = self.world.add_user(name, bot=bot)
        member = self.world.add_member(guild, user, [r.id for r in roles])
        payload = {**self.world.member_payload(member), "guild_id": str(guild.id)}
        self.gateway.dispatch("GUILD_MEMBER_ADD", payload, intent=GUILD_MEMBERS)
        self._notify()
        return user

    async def join_guild(self, user: UserLike, guild: Guild) -> User:
        """An existing user joins another server (one person, two servers: what a member
        of one server may try in the other)."""
        found = self._user(user)
        member = self.world.add_member(guild, found, [])
        payload = {**self.world.member_payload(member), "guild_id": str(guild.id)}
        self.gateway.dispatch("GUILD_MEMBER_ADD", payload, intent=GUILD_MEMBERS)
        self._notify()
        return found

    async def add_guild(
        self,
        name: str,
        *,
        shard: tuple[int, int] | None = None,
        channel_names: Iterable[str] = ("general",),
        owner: User | None = None,
    ) -> Guild:
        """Another server with the bot in it (the bot gets GUILD_CREATE on its shard's
        sessions); ``shard`` (id, count) picks a server id on that shard."""
        owner = owner or self.world.add_user(f"{name} owner")
        guild = self.world.add_guild(name, owner, shard=shard)
        for channel_name in channel_names:
            self.world.add_channel(guild, channel_name)
        self.gateway.guild_joined(guild.id)
        self._notify()
        return guild

    def shard_of(self, guild: Guild, shard_count: int) -> int:
        """The shard ``guild``'s events go to when the bot runs ``shard_count`` shards."""
        return (guild.id >> 22) % shard_count

    async def add_channel(self, name: str, *, guild: Guild | None = None) -> Channel:
        channel = self.world.add_channel(guild or self.guild, name)
        self.gateway.channel_event("CHANNEL_CREATE", channel)
        self._notify()
        return channel

    def close_dms(self, user: UserLike, closed: bool = True) -> User:
        """``user`` takes no direct messages from the bot (``closed=False``: again does), as a
        person's privacy settings or a block make it on Discord: the bot's DM channel with
        them still opens (``POST /users/@me/channels``), and every message sent there is
        refused with 403, error 50007 "Cannot send messages to this user". No event tells
        the bot."""
        found = self._user(user)
        found.dms_closed = closed
        return found

    async def group_dm(self, members: Iterable[UserLike]) -> Channel:
        """A group DM of ``members`` (the first owns it) that the bot is no member of: its
        commands come from the app installed on a member's account (``context`` 2), and the
        bot token's channel routes there answer 403 Missing Access."""
        people = [self._user(m) for m in members]
        if not 1 <= len(people) <= 10:
            raise ValueError("a group DM has 1 to 10 people")
        channel = self.world.add_group_dm(people)
        self._notify()
        return channel

    async def add_role(
        self, name: str, permissions: PermissionsLike = 0, *, guild: Guild | None = None
    ) -> Role:
        guild = guild or self.guild
        role = self.world.add_role(guild, name, to_bits(permissions))
        self.gateway.dispatch(
            "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()}, intent=GUILDS
        )
        self._notify()
        return role

    async def give_role(self, user: UserLike, role: Role) -> None:
        guild = self.world.guilds[role.guild_id]
        member = guild.members[self._user(user).id]
        if role.id not in member.roles:
            member.roles.append(role.id)
        payload = {**self.world.member_payload(member), "guild_id": str(guild.id)}
        # Discord always tells a bot about changes to its own member.
        intent = 0 if member.user.id == self.world.bot.id else GUILD_MEMBERS
        self.gateway.dispatch("GUILD_MEMBER_UPDATE", payload, intent=intent)
        self._notify()

    async def set_role_permissions(self, role: Role, permissions: PermissionsLike) -> None:
        role.permissions = to_bits(permissions)
        data = {"guild_id": str(role.guild_id), "role": role.payload()}
        self.gateway.dispatch("GUILD_ROLE_UPDATE", data, intent=GUILDS)
        self._notify()

    async def set_permissions(
        self,
        channel: ChannelLike | None = None,
        *,
        allow: PermissionsLike = 0,
        deny: PermissionsLike = 0,
        target: User | Role | None = None,
    ) -> None:
        """Set a permission overwrite on a text channel (for the bot's member by default).

        Allow and deny both empty removes the overwrite. Threads follow their parent channel.
        """
        found = self._channel(channel)
        if found.is_thread:
            raise ValueError("threads take their permissions from the parent channel")
        who = target if target is not None else self.world.bot
        kind = 0 if isinstance(who, Role) else 1
        allow_bits, deny_bits = to_bits(allow), to_bits(deny)
        if allow_bits or deny_bits:
            found.overwrites[who.id] = Overwrite(who.id, kind, allow_bits, deny_bits)
        else:
            found.overwrites.pop(who.id, None)
        self.gateway.channel_event("CHANNEL_UPDATE", found)
        self._notify()

    async def delete_message(self, message: MessageLike) -> None:
        """A moderator deletes ``message`` (the bot sees MESSAGE_DELETE, as in Discord)."""
        found = self.message(message)
        found.deleted = True
        self.gateway.message_deleted(found)
        self._notify()
