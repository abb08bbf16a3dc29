"""A slash command's ``data`` as Discord builds it from a synced command: the subcommand path,
typed option values checked against the command's schema, and the ``resolved`` users,
members, roles, channels and attachments (a :class:`~sandbox.fake_model.FileOption` given
to an attachment option is stored as an attachment the bot downloads from its ``url``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sandbox.fake_model import (
    ApplicationCommand,
    Attachment,
    Channel,
    FileOption,
    Json,
    Role,
    User,
)
from sandbox.fake_state import FakeState


class FakeCommandData(FakeState):
    """Finding a synced command and filling in its options."""

    def _find_command(self, channel: Channel, name: str) -> ApplicationCommand:
        found = self._synced_command(channel, name)
        if channel.is_group_dm:
            # Discord offers a command in people's own DMs only when it allows the user install
            # (integration type 1) and private channels (context 2).
            body = found.body
            if 1 not in (body.get("integration_types") or [0]) or 2 not in (
                body.get("contexts") or [0, 1, 2]
            ):
                raise LookupError(f"/{name} is not offered in group DMs for a user install")
        return found

    def _synced_command(self, channel: Channel, name: str) -> ApplicationCommand:
        for scope in (channel.guild_id, None):
            for command in self.world.commands:
                if (
                    command.guild_id == scope
                    and command.name == name
                    and command.body.get("type", 1) == 1
                ):
                    return command
        synced = sorted({c.name for c in self.world.commands})
        raise LookupError(f"no synced slash command {name!r}; synced: {synced}")

    def _command_data(
        self,
        channel: Channel,
        command: str,
        options: Mapping[str, Any],
        *,
        focused: str | None,
        unchecked: bool = False,
    ) -> Json:
        head, *path = command.split()
        found = self._find_command(channel, head)
        top: list[Json] = []
        container = top
        schema: list[Json] = found.body.get("options") or []
        for part in path:
            spec = next((o for o in schema if o["name"] == part and o["type"] in (1, 2)), None)
            if spec is None:
                raise LookupError(f"/{head} has no subcommand {part!r}")
            node: Json = {"name": part, "type": spec["type"], "options": []}
            container.append(node)
            container = node["options"]
            schema = spec.get("options") or []
        if any(o["type"] in (1, 2) for o in schema):
            raise ValueError(f"/{command} needs a subcommand: {[o['name'] for o in schema]}")
        resolved: Json = {}
        for name, value in options.items():
            spec = next((o for o in schema if o["name"] == name), None)
            if spec is None:
                raise LookupError(
                    f"/{command} has no option {name!r}: {[o['name'] for o in schema]}"
                )
            entry: Json = {
                "name": name,
                "type": spec["type"],
                "value": self._option_value(channel, spec, value, resolved, unchecked),
            }
            if name == focused:
                entry["focused"] = True
            container.append(entry)
        if focused is None:
            missing = [o["name"] for o in schema if o.get("required") and o["name"] not in options]
            if missing:
                raise ValueError(f"/{command} is missing required options {missing}")
        data: Json = {
            "id": str(found.id),
            "name": found.name,
            "type": 1,
            "options": top,
            "resolved": resolved,
        }
        if found.guild_id is not None:
            data["guild_id"] = str(found.guild_id)
        return data

    def _option_value(
        self, channel: Channel, spec: Json, value: Any, resolved: Json, unchecked: bool = False
    ) -> Any:
        kind = spec["type"]
        world = self.world
        guild = world.guilds.get(channel.guild_id)
        if kind in (6, 9) and isinstance(value, User | int) and not isinstance(value, bool):
            user_id = value.id if isinstance(value, User) else value
            if kind == 9 and guild is not None and user_id in guild.roles:
                resolved.setdefault("roles", {})[str(user_id)] = guild.roles[user_id].payload()
                return str(user_id)
            user = self._user(user_id)
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            member = guild.members.get(user.id) if guild is not None else None
            if member is not None:
                perms = world.permissions_in(channel, user.id)
                resolved.setdefault("members", {})[str(user.id)] = {
                    **world.member_payload(member, with_user=False),
                    "permissions": str(perms),
                }
            return str(user.id)
        if kind in (8, 9) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        if kind == 7:
            target = self._channel(value)
            entry = {
                "id": str(target.id),
                "name": target.name,
                "type": int(target.type),
                "permissions": str(world.permissions_in(target, world.bot.id)),
            }
            if target.is_thread:
                entry["parent_id"] = str(target.parent_id)
                entry["thread_metadata"] = world.channel_payload(target)["thread_metadata"]
            resolved.setdefault("channels", {})[str(target.id)] = entry
            return str(target.id)
        if kind == 11 and isinstance(value, FileOption):
            attachment = Attachment(
                id=world.ids.next(),
                channel_id=channel.id,
                filename=value.filename,
                data=value.data,
                content_type=value.content_type,
                base_url=world.base_url,
            )
            world.add_attachment(attachment)
            entry = {**attachment.payload(), "ephemeral": True}
            resolved.setdefault("attachments", {})[str(attachment.id)] = entry
            return str(attachment.id)
        converted: Any
        plain_int = isinstance(value, int) and not isinstance(value, bool)
        if (
            (kind == 3 and isinstance(value, str))
            or (kind == 4 and plain_int)
            or (kind == 5 and isinstance(value, bool))
        ):
            converted = value
        elif kind == 10 and isinstance(value, int | float) and not isinstance(value, bool):
            converted = float(value)
        else:
            raise TypeError(f"option {spec['name']!r} (type {kind}) cannot take {value!r}")
        choices = spec.get("choices")
        if choices and not unchecked and converted not in [c["value"] for c in choices]:
            raise ValueError(f"{converted!r} is not a choice of {spec['name']!r}: {choices}")
        return converted
