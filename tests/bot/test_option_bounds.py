"""Every number and every choice a slash command takes is checked by the bot itself, against
the same bounds Discord is told: the command definitions carry them (from
``bot.vocabulary.bounds``), the cogs' check reads them back, and the services check them
again where they take the values."""

from __future__ import annotations

import importlib
import pkgutil
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

import cogs
from bot.service.challenges import parse_rating_range
from bot.ui.option_check import refusal
from bot.vocabulary import bounds
from bot.vocabulary.bounds import BadOption, Bounds, check_choice
from bot.vocabulary.errors import TabulaError

NUMBERS = (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number)


def every_command() -> list[app_commands.Command[Any, ..., Any]]:
    found: list[app_commands.Command[Any, ..., Any]] = []
    for module in pkgutil.iter_modules(cogs.__path__):
        loaded = importlib.import_module(f"cogs.{module.name}")
        for value in vars(loaded).values():
            if not (isinstance(value, type) and issubclass(value, commands.Cog)):
                continue
            for item in vars(value).values():
                if isinstance(item, app_commands.Command):
                    found.append(item)
                elif isinstance(item, app_commands.Group):
                    found += [
                        c for c in item.walk_commands() if isinstance(c, app_commands.Command)
                    ]
    return found


def numeric_options() -> list[tuple[str, app_commands.Parameter]]:
    return [
        (f"/{command.qualified_name} {param.display_name}", param)
        for command in every_command()
        for param in command.parameters
        if param.type in NUMBERS
    ]


def test_the_commands_are_found() -> None:
    names = {command.qualified_name for command in every_command()}
    assert {"challenge", "settings", "tournament create", "games", "prefs"} <= names


def _option_id(value: object) -> str:
    # a Parameter's repr holds its address, which differs between xdist workers
    return value if isinstance(value, str) else ""


@pytest.mark.parametrize(("where", "param"), numeric_options(), ids=_option_id)
def test_every_number_option_has_bounds_from_the_one_definition(
    where: str, param: app_commands.Parameter
) -> None:
    assert param.min_value is not None and param.max_value is not None, where
    defined = {(b.low, b.high) for b in vars(bounds).values() if isinstance(b, Bounds)}
    assert (param.min_value, param.max_value) in defined, where


def _command(name: str) -> app_commands.Command[Any, ..., Any]:
    return next(c for c in every_command() if c.qualified_name == name)


@pytest.mark.parametrize(("where", "param"), numeric_options(), ids=_option_id)
def test_the_check_refuses_just_outside_and_takes_the_ends(
    where: str, param: app_commands.Parameter
) -> None:
    command = param.command
    low, high = param.min_value, param.max_value
    assert low is not None and high is not None
    step = 1 if param.type is discord.AppCommandOptionType.integer else 0.001
    for value in (low, high):
        assert refusal(command, SimpleNamespace(**{param.display_name: value})) is None, where
    for value in (low - step, high + step, -(10**12), 10**12):
        problem = refusal(command, SimpleNamespace(**{param.display_name: value}))
        assert problem is not None and problem.key == "option.out_of_range", (where, value)
        assert problem.params == {"option": param.display_name, "low": low, "high": high}


@pytest.mark.parametrize(
    ("command", "option", "value", "key"),
    [
        ("challenge", "clock", "blitz", "option.not_a_choice"),
        ("challenge", "cube", "maybe", "option.not_a_choice"),
        ("challenge", "points", "3", "option.wrong_type"),
        ("challenge", "points", True, "option.wrong_type"),
        ("challenge", "points", 2.5, "option.wrong_type"),
        ("challenge", "rating_range", {"low": 1}, "option.wrong_type"),
        ("prefs", "theme", "neon", "option.not_a_choice"),
        ("settings", "threads", "sometimes", "option.not_a_choice"),
        ("settings", "game", "chess", "option.not_a_choice"),
        ("settings", "offered", "yes", "option.wrong_type"),
        ("tournament create", "format", "ladder", "option.not_a_choice"),
        ("tournament create", "round_hours", float("nan"), "option.wrong_type"),
        ("tournament create", "round_hours", float("inf"), "option.wrong_type"),
        ("games", "scope", "everyone", "option.not_a_choice"),
    ],
)
def test_choices_and_types_are_checked(command: str, option: str, value: Any, key: str) -> None:
    problem = refusal(_command(command), SimpleNamespace(**{option: value}))
    assert problem is not None and problem.key == key


def test_what_discord_would_send_passes() -> None:
    given = SimpleNamespace(game="backgammon", points=7, cube="off", clock="casual")
    assert refusal(_command("challenge"), given) is None
    hours = SimpleNamespace(game="ur", format="swiss", rounds=3, round_hours=1)
    assert refusal(_command("tournament create"), hours) is None  # an int for a number


def test_bounds_and_choices() -> None:
    assert bounds.MATCH_POINTS.check(25) == 25
    for wrong in (0, 26, -1, 10**9, True, 2.5, float("nan")):
        with pytest.raises(BadOption):
            bounds.MATCH_POINTS.check(wrong)  # type: ignore[arg-type]
    assert bounds.ROUND_HOURS.holds(0.01) and not bounds.ROUND_HOURS.holds(-1.0)
    assert check_choice("clock", "normal", ("normal",)) == "normal"
    with pytest.raises(BadOption) as refused:
        check_choice("clock", {"name": "normal"}, ("normal",))
    assert refused.value.key == "option.not_a_choice"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("--1600", "challenge.bad_rating_range"),
        ("1200--1600", "challenge.bad_rating_range"),
        ("+1200-", "challenge.bad_rating_range"),
        ("١٢٠٠-", "challenge.bad_rating_range"),
        ("-", "challenge.bad_rating_range"),
        ("99999999999999999999-", "challenge.rating_out_of_range"),
        ("-4001", "challenge.rating_out_of_range"),
        ("1" * 3000 + "-", "challenge.bad_rating_range"),
        ("1600-1200", "challenge.rating_range_empty"),
    ],
)
def test_rating_ranges_nobody_can_meet_are_refused(text: str, key: str) -> None:
    with pytest.raises(TabulaError) as refused:
        parse_rating_range(text)
    assert refused.value.key == key


@pytest.mark.parametrize(
    ("text", "expected"),
    [("1200-1600", (1200, 1600)), ("1200-", (1200, None)), ("-1600", (None, 1600)),
     (" 0 - 4000 ", (0, 4000)), ("1500-1500", (1500, 1500))],
)  # fmt: skip
def test_rating_ranges_that_can_be_met(text: str, expected: tuple[int | None, int | None]) -> None:
    assert parse_rating_range(text) == expected
