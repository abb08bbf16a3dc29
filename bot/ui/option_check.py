"""Every slash command's options checked against what the command told Discord (bounds,
choices, types) before its callback runs.

Discord refuses such values itself, but the bot must not rely on it: a second shard still on
an older definition, a future option change, or a forged request can deliver ``points:-1`` or
``clock:blitz``. The check reads the command's own definition (discord.py's parameters), so it
cannot drift from what Discord was told; the bounds themselves are defined once, in
:mod:`bot.vocabulary.bounds`, and the service checks them again where it takes the values."""

from __future__ import annotations

import math
from typing import Any

import discord
from discord import app_commands

from bot.vocabulary.bounds import BadOption

_STRING = discord.AppCommandOptionType.string
_INTEGER = discord.AppCommandOptionType.integer
_NUMBER = discord.AppCommandOptionType.number
_BOOLEAN = discord.AppCommandOptionType.boolean


class OptionRefused(app_commands.CheckFailure):
    """A command's option it does not take; ``original`` is the refusal to answer with (the
    bot's error handler answers an app command error's ``original``)."""

    def __init__(self, original: BadOption) -> None:
        super().__init__(str(original))
        self.original = original


def refusal(command: app_commands.Command[Any, ..., Any], values: Any) -> BadOption | None:
    """What is wrong with the options in ``values`` (the interaction's namespace) for
    ``command``, or None."""
    for param in command.parameters:
        value = getattr(values, param.display_name, None)
        if value is None:
            continue
        problem = _problem(param, value)
        if problem is not None:
            return problem
    return None


def _problem(param: app_commands.Parameter, value: object) -> BadOption | None:
    name = param.display_name
    kind = param.type
    if kind is _BOOLEAN:
        return None if isinstance(value, bool) else BadOption("option.wrong_type", option=name)
    if kind is _STRING and not isinstance(value, str):
        return BadOption("option.wrong_type", option=name)
    if kind in (_INTEGER, _NUMBER):
        plain = isinstance(value, int) and not isinstance(value, bool)
        number = plain or (kind is _NUMBER and isinstance(value, float) and math.isfinite(value))
        if not number:
            return BadOption("option.wrong_type", option=name)
    if kind not in (_STRING, _INTEGER, _NUMBER):
        return None  # users, channels, roles: resolved by discord.py from Discord's data
    if param.choices and value not in [choice.value for choice in param.choices]:
        choices = ", ".join(str(choice.value) for choice in param.choices)
        return BadOption("option.not_a_choice", option=name, choices=choices)
    measured = len(value) if isinstance(value, str) else value
    assert isinstance(measured, int | float)
    low, high = param.min_value, param.max_value
    if (low is not None and measured < low) or (high is not None and measured > high):
        key = "option.too_long" if isinstance(value, str) else "option.out_of_range"
        return BadOption(key, option=name, low=low, high=high)
    return None


async def check_options(interaction: discord.Interaction[Any]) -> bool:
    """The cogs' ``interaction_check``: True, or :class:`OptionRefused`."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return True
    problem = refusal(command, interaction.namespace)
    if problem is not None:
        raise OptionRefused(problem)
    return True
