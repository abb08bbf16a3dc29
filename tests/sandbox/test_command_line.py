"""A slash command typed as one line in the sandbox's box, read against registered commands
shaped like the bot's own (/play, /challenge, /stats)."""

from __future__ import annotations

import re

import pytest

from sandbox.command_line import CommandLineError, guild_commands, parse_command_line
from sandbox.fake_model import ApplicationCommand, Guild, Json
from sandbox.fake_world import World

GAMES = [{"name": g.title(), "value": g} for g in ("backgammon", "ur", "ludo")]
PLAY: Json = {
    "name": "play",
    "description": "Play a game against the bot.",
    "options": [
        {"name": "game", "type": 3, "required": True, "choices": GAMES, "description": "."},
        {
            "name": "difficulty",
            "type": 3,
            "required": False,
            "choices": [{"name": "Easy", "value": "easy"}, {"name": "Hard", "value": "hard"}],
            "description": ".",
        },
    ],
}
CHALLENGE: Json = {
    "name": "challenge",
    "description": "Challenge someone to a game.",
    "options": [
        {"name": "opponent", "type": 6, "required": True, "description": "."},
        {"name": "game", "type": 3, "required": True, "choices": GAMES, "description": "."},
        {"name": "points", "type": 4, "required": False, "description": "."},
        {"name": "where", "type": 7, "required": False, "description": "."},
    ],
}
HELP: Json = {"name": "help", "description": "What Tabula can do."}
ADMIN: Json = {
    "name": "admin",
    "description": "Subcommands.",
    "options": [
        {
            "name": "reset",
            "type": 1,
            "description": ".",
            "options": [{"name": "hard", "type": 5, "required": True, "description": "."}],
        }
    ],
}


@pytest.fixture
def server() -> tuple[World, Guild]:
    world = World(base_url="", token="t")
    owner = world.add_user("Ada")
    guild = world.add_guild("Sandbox", owner)
    for name in ("Ben", "Cleo"):
        world.add_member(guild, world.add_user(name))
    world.add_channel(guild, "general")
    world.add_channel(guild, "games")
    for number, body in enumerate((PLAY, CHALLENGE, HELP, ADMIN)):
        world.commands.append(ApplicationCommand(number + 1, world.application_id, None, body, 1))
    return world, guild


def user_id(world: World, name: str) -> int:
    return next(u.id for u in world.users.values() if u.name == name)


def test_named_options_as_discord_writes_them(server: tuple[World, Guild]) -> None:
    world, guild = server
    line = parse_command_line("/play game:ur difficulty:easy", world, guild)
    assert (line.name, line.options) == ("play", {"game": "ur", "difficulty": "easy"})


def test_values_in_order_and_choices_by_their_shown_name(server: tuple[World, Guild]) -> None:
    world, guild = server
    assert parse_command_line("/play ur easy", world, guild).options == {
        "game": "ur",
        "difficulty": "easy",
    }
    assert parse_command_line("/PLAY Backgammon difficulty:Hard", world, guild).options == {
        "game": "backgammon",
        "difficulty": "hard",
    }


def test_members_channels_and_numbers(server: tuple[World, Guild]) -> None:
    world, guild = server
    ben = user_id(world, "Ben")
    games = next(c.id for c in world.channels.values() if c.name == "games")
    for typed in ("@Ben", "ben", f"<@{ben}>", f"<@!{ben}>"):
        line = parse_command_line(f"/challenge opponent:{typed} game:ludo points:3", world, guild)
        assert line.options == {"opponent": ben, "game": "ludo", "points": 3}
    line = parse_command_line("/challenge @Cleo ur where:#games", world, guild)
    assert line.options == {"opponent": user_id(world, "Cleo"), "game": "ur", "where": games}


def test_subcommands_and_booleans(server: tuple[World, Guild]) -> None:
    world, guild = server
    line = parse_command_line("/admin reset hard:yes", world, guild)
    assert (line.name, line.options) == ("admin reset", {"hard": True})


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("play game:ur", "A command starts with /"),
        ("/dance", "There is no command /dance"),
        ("/play", "/play needs game"),
        ("/play difficulty:easy", "/play needs game"),
        ("/play game:chess", "game is one of: backgammon, ur, ludo"),
        ("/play game:ur colour:red", "/play has no option 'colour'"),
        ("/play ur easy extra", "'extra' is extra"),
        ("/play game:ur game:ludo", "/play got game more than once"),
        ("/challenge opponent:@Zed game:ur", "nobody called '@Zed'"),
        ("/challenge opponent:@Ben game:ur points:three", "points takes a whole number"),
        ("/challenge opponent:@Ben game:ur where:#attic", "there is no channel '#attic'"),
        ("/help now", "/help takes no options"),
        ("/admin", "/admin needs one of: reset"),
        ("/admin reset hard:maybe", "hard is true or false"),
        ("/play game:", "game is empty"),
    ],
)
def test_mistakes_are_explained(server: tuple[World, Guild], typed: str, says: str) -> None:
    world, guild = server
    with pytest.raises(CommandLineError, match=re.escape(says)):
        parse_command_line(typed, world, guild)


def test_a_guild_command_shadows_the_global_one(server: tuple[World, Guild]) -> None:
    world, guild = server
    local = {**HELP, "description": "This server's help."}
    world.commands.append(ApplicationCommand(9, world.application_id, guild.id, local, 2))
    helps = [c for c in guild_commands(world, guild) if c.name == "help"]
    assert [c.body["description"] for c in helps] == ["This server's help."]


REVIEW: Json = {
    "name": "review",
    "description": "Review a game.",
    "integration_types": [0, 1],
    "contexts": [0, 1, 2],
    "options": [
        {"name": "game", "type": 3, "required": True, "autocomplete": True, "description": "."},
        {"name": "player", "type": 6, "required": False, "description": "."},
    ],
}


def test_a_line_being_typed_for_autocomplete(server: tuple[World, Guild]) -> None:
    """What Discord sends for autocomplete: the focused option as typed so far (even empty),
    the others that already read, and no complaint about what is still missing."""
    world, guild = server
    world.commands.append(ApplicationCommand(10, world.application_id, None, REVIEW, 1))
    line = parse_command_line("/review game:", world, guild, focused="game")
    assert (line.name, line.options, line.focused) == ("review", {"game": ""}, "game")
    ben = user_id(world, "Ben")
    line = parse_command_line("/review player:@Ben game:1a2b", world, guild, focused="game")
    assert line.options == {"player": ben, "game": "1a2b"}
    # An option half typed is left out rather than refused.
    line = parse_command_line("/review player:@Be game:", world, guild, focused="game")
    assert line.options == {"game": ""}
    with pytest.raises(CommandLineError, match="suggests nothing for 'player'"):
        parse_command_line("/review player:", world, guild, focused="player")


def test_a_group_dm_offers_only_what_a_user_install_may_use(server: tuple[World, Guild]) -> None:
    world, guild = server
    world.commands.append(ApplicationCommand(10, world.application_id, None, REVIEW, 1))
    assert [c.name for c in guild_commands(world, guild, private=True)] == ["review"]
    with pytest.raises(CommandLineError, match="There is no command /play"):
        parse_command_line("/play game:ur", world, guild, private=True)
    line = parse_command_line("/review game:1a2b", world, guild, private=True)
    assert line.options == {"game": "1a2b"}
