"""A slash command typed as one line in the sandbox's message box, read as Discord reads it.

``/play game:ur difficulty:easy`` names its options; ``/play ur easy`` gives them in order (a
shortcut Discord's own box does not have, handy when typing fast). Values are checked against
the command the bot registered: choices by value or by their shown name, members by name or
mention, channels by name or mention. Mistakes raise :class:`CommandLineError` with a sentence
for the person typing.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sandbox.fake_model import ApplicationCommand, Guild, Json, Role
from sandbox.fake_world import World

SUBCOMMAND, GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
TYPE_NAMES = {11: "attachment"}
TRUE_WORDS = {"true", "yes", "on", "1"}
FALSE_WORDS = {"false", "no", "off", "0"}
MENTION = re.compile(r"^<(@!?|@&|#)(\d{15,21})>$")
OPTION_LIKE = re.compile(r"^([a-z][-_a-z0-9]{0,31}):")


class CommandLineError(ValueError):
    """The line cannot be sent; ``str()`` says why, for the person who typed it."""


@dataclass(frozen=True, slots=True)
class CommandLine:
    """A parsed line: ``name`` includes a subcommand (``"game start"``); ``options`` hold what
    :meth:`FakeDiscord.slash` takes (user ids for members, channel ids, roles)."""

    name: str
    options: dict[str, Any]
    focused: str | None = None


def guild_commands(
    world: World, guild: Guild, *, private: bool = False
) -> list[ApplicationCommand]:
    """The slash commands members of ``guild`` see: the guild's own shadow global ones.
    ``private``: those people see in their own DMs and group DMs instead, the global ones
    the app offers to a user install there (integration type 1, context 2)."""
    chat = [c for c in world.commands if c.body.get("type", 1) == 1]
    if private:
        return sorted(
            (
                c
                for c in chat
                if c.guild_id is None
                and 1 in (c.body.get("integration_types") or [0])
                and 2 in (c.body.get("contexts") or [0, 1, 2])
            ),
            key=lambda c: c.name,
        )
    own = {c.name: c for c in chat if c.guild_id == guild.id}
    merged = {c.name: c for c in chat if c.guild_id is None}
    merged.update(own)
    return sorted(merged.values(), key=lambda c: c.name)


def parse_command_line(
    text: str,
    world: World,
    guild: Guild,
    *,
    private: bool = False,
    focused: str | None = None,
) -> CommandLine:
    """Read ``/name [subcommand] [value ...] [option:value ...]`` (``private``: typed in a DM
    or group DM, see :func:`guild_commands`). ``focused``: the line is still being typed and
    that option's value asks for the bot's suggestions (autocomplete)."""
    line = text.strip()
    if not line.startswith("/"):
        raise CommandLineError("A command starts with /.")
    head, _, rest = line[1:].partition(" ")
    name = head.lower()
    command = next(
        (c for c in guild_commands(world, guild, private=private) if c.name == name), None
    )
    if command is None:
        raise CommandLineError(f"There is no command /{head}.")
    path = [name]
    schema: list[Json] = command.body.get("options") or []
    while any(o["type"] in (SUBCOMMAND, GROUP) for o in schema):
        word, _, rest = rest.strip().partition(" ")
        found = next((o for o in schema if o["name"] == word.lower()), None)
        if found is None or found["type"] not in (SUBCOMMAND, GROUP):
            names = ", ".join(o["name"] for o in schema)
            raise CommandLineError(f"/{' '.join(path)} needs one of: {names}.")
        path.append(found["name"])
        schema = found.get("options") or []
    full = " ".join(path)
    raw = _split_values(rest, schema, full)
    if focused is not None:
        return _partial(full, schema, raw, focused, world, guild)
    options = {key: _convert(spec_of(schema, key), value, world, guild) for key, value in raw}
    missing = [o["name"] for o in schema if o.get("required") and o["name"] not in options]
    if missing:
        raise CommandLineError(f"/{full} needs {_listing(missing)}.")
    return CommandLine(full, options)


def _partial(
    full: str,
    schema: Sequence[Json],
    raw: Sequence[tuple[str, str]],
    focused: str,
    world: World,
    guild: Guild,
) -> CommandLine:
    """A line still being typed, as Discord sends it for autocomplete: the focused option's
    text as typed so far (even empty), the other options that already read as valid."""
    if not any(o["name"] == focused and o.get("autocomplete") for o in schema):
        raise CommandLineError(f"/{full} suggests nothing for {focused!r}.")
    options: dict[str, Any] = {}
    for key, value in raw:
        if key == focused:
            continue
        with contextlib.suppress(CommandLineError):
            options[key] = _convert(spec_of(schema, key), value, world, guild)
    typed = dict(raw).get(focused, "")
    kind = spec_of(schema, focused)["type"]
    if kind == STRING:
        options[focused] = typed
    else:  # a number being typed: what reads as one so far
        with contextlib.suppress(ValueError):
            options[focused] = int(typed) if kind == INTEGER else float(typed)
        options.setdefault(focused, 0)
    return CommandLine(full, options, focused)


def spec_of(schema: Sequence[Json], name: str) -> Json:
    return next(o for o in schema if o["name"] == name)


def _split_values(rest: str, schema: Sequence[Json], command: str) -> list[tuple[str, str]]:
    """``name:value`` pairs (a value runs up to the next known ``name:``), after the values
    given in order. Returns (option name, raw text) in the order typed."""
    known = [o["name"] for o in schema]
    marker = re.compile(
        r"(?:^|\s)(" + "|".join(re.escape(n) for n in known) + r"):" if known else r"(?!)",
        re.IGNORECASE,
    )
    found = list(marker.finditer(rest))
    leading = rest[: found[0].start()] if found else rest
    pairs: list[tuple[str, str]] = []
    for index, match in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(rest)
        name, value = match[1].lower(), rest[match.end() : end].strip()
        spec = spec_of(schema, name)
        if spec["type"] != STRING or spec.get("choices"):
            # Only free text runs on over spaces; anything else ends at the first word, so a
            # further "name:" is an option the command does not have.
            for word in value.split()[1:]:
                option = OPTION_LIKE.match(word)
                if option:
                    raise CommandLineError(f"/{command} has no option {option[1]!r}.")
        pairs.append((name, _unquote(value)))
    named = [key for key, _ in pairs]
    twice = sorted({key for key in named if named.count(key) > 1})
    if twice:
        raise CommandLineError(f"/{command} got {_listing(twice)} more than once.")
    words = leading.split()
    for word in words:
        option = OPTION_LIKE.match(word)
        if option:
            raise CommandLineError(f"/{command} has no option {option[1]!r}.")
    free = [n for n in known if n not in named]
    if len(words) > len(free):
        if not known:
            raise CommandLineError(f"/{command} takes no options.")
        raise CommandLineError(
            f"/{command} takes {_listing(known)}; {' '.join(words[len(free) :])!r} is extra."
        )
    return list(zip(free, words, strict=False)) + pairs


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _convert(spec: Json, value: str, world: World, guild: Guild) -> Any:
    name, kind = spec["name"], spec["type"]
    if not value:
        raise CommandLineError(f"{name} is empty.")
    converted: Any
    if kind == STRING:
        converted = value
    elif kind in (INTEGER, NUMBER):
        converted = _number(name, value, integer=kind == INTEGER)
    elif kind == BOOLEAN:
        converted = _boolean(name, value)
    elif kind == USER:
        converted = _member(name, value, world, guild)
    elif kind == CHANNEL:
        converted = _channel(name, value, world, guild)
    elif kind == ROLE:
        converted = _role(name, value, guild)
    elif kind == MENTIONABLE:
        try:
            converted = _role(name, value, guild)
        except CommandLineError:
            converted = _member(name, value, world, guild)
    else:
        what = TYPE_NAMES.get(kind, f"type {kind}")
        raise CommandLineError(f"{name} takes an {what}, which the sandbox cannot send.")
    return _choice(spec, converted, value)


def _choice(spec: Json, converted: Any, typed: str) -> Any:
    choices: list[Json] = spec.get("choices") or []
    if not choices:
        return converted
    for choice in choices:
        if converted == choice["value"] or typed.lower() == str(choice["name"]).lower():
            return choice["value"]
    if isinstance(converted, str):
        for choice in choices:
            if str(choice["value"]).lower() == typed.lower():
                return choice["value"]
    offered = ", ".join(str(c["value"]) for c in choices)
    raise CommandLineError(f"{spec['name']} is one of: {offered}.")


def _number(name: str, value: str, *, integer: bool) -> int | float:
    try:
        return int(value) if integer else float(value)
    except ValueError:
        kind = "a whole number" if integer else "a number"
        raise CommandLineError(f"{name} takes {kind}, not {value!r}.") from None


def _boolean(name: str, value: str) -> bool:
    word = value.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise CommandLineError(f"{name} is true or false, not {value!r}.")


def _member(name: str, value: str, world: World, guild: Guild) -> int:
    mention = MENTION.match(value)
    if mention and mention[1] in ("@", "@!"):
        user_id = int(mention[2])
        if user_id in guild.members:
            return user_id
    wanted = value.removeprefix("@").lower()
    for user_id, member in guild.members.items():
        user = world.users[user_id]
        names = {user.name.lower(), (user.global_name or "").lower(), (member.nick or "").lower()}
        if wanted in names or wanted == str(user_id):
            return user_id
    raise CommandLineError(f"{name}: nobody called {value!r} is on this server.")


def _channel(name: str, value: str, world: World, guild: Guild) -> int:
    mention = MENTION.match(value)
    if mention and mention[1] == "#" and int(mention[2]) in guild.channel_ids:
        return int(mention[2])
    wanted = value.removeprefix("#").lower()
    for channel_id in guild.channel_ids:
        channel = world.channels[channel_id]
        if not channel.deleted and channel.name.lower() == wanted:
            return channel_id
    raise CommandLineError(f"{name}: there is no channel {value!r}.")


def _role(name: str, value: str, guild: Guild) -> Role:
    mention = MENTION.match(value)
    if mention and mention[1] == "@&" and int(mention[2]) in guild.roles:
        return guild.roles[int(mention[2])]
    wanted = value.removeprefix("@").lower()
    for role in guild.roles.values():
        if role.name.lower().removeprefix("@") == wanted:
            return role
    raise CommandLineError(f"{name}: there is no role {value!r}.")


def _listing(names: Sequence[str]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]
