"""Slash command texts in the user's language.

When the command tree is synced, discord.py asks an :class:`app_commands.Translator` for every
command description, option description and choice name in every Discord locale; plain
``str`` texts in the cogs are wrapped into ``locale_str`` for this (``auto_locale_strings``),
so the cogs stay in plain English. Discord then shows each user the texts of their client
language.

The German texts live in ``bot/locales/commands.de.json``, keyed by the English text as the cogs
write it, in two sections: ``descriptions`` (commands and options) and ``choices``. A
``locale_str(..., key="...")`` in a cog may name its catalogue key explicitly instead.
Command and option *names* are not translated: they are identifiers that the help text, the
rules and players' habits refer to.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Final

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

__all__ = [
    "SECTIONS",
    "CatalogueTranslator",
    "command_catalogue",
    "command_locales",
    "translate_text",
]

# Which catalogue section answers for which kind of text; anything else stays English.
SECTIONS: Final[Mapping[Where, str]] = {
    Where.command_description: "descriptions",
    Where.group_description: "descriptions",
    Where.parameter_description: "descriptions",
    Where.choice_name: "choices",
}
_PREFIX, _SUFFIX = "commands.", ".json"


@cache
def command_catalogue(language: str) -> Mapping[str, Mapping[str, str]]:
    """The sections of ``commands.<language>.json``; empty when that language is not shipped."""
    path = resources.files("bot.locales").joinpath(f"{_PREFIX}{language}{_SUFFIX}")
    if not path.is_file():
        return {}
    data: dict[str, dict[str, str]] = json.loads(path.read_text(encoding="utf-8"))
    return data


def command_locales() -> tuple[str, ...]:
    """Languages with a command catalogue, e.g. ``("de",)``."""
    names = (p.name for p in resources.files("bot.locales").iterdir())
    return tuple(
        sorted(
            n.removeprefix(_PREFIX).removesuffix(_SUFFIX)
            for n in names
            if n.startswith(_PREFIX) and n.endswith(_SUFFIX)
        )
    )


def translate_text(text: str, locale: discord.Locale | str, section: str) -> str | None:
    """``text`` from ``section`` in the catalogue for ``locale`` (``de``, ``pt-BR``: the full
    code first, then the language), or None when there is no translation."""
    code = str(locale.value if isinstance(locale, discord.Locale) else locale)
    for candidate in (code, code.split("-")[0]):
        found = command_catalogue(candidate).get(section, {}).get(text)
        if found:
            return found
    return None


class CatalogueTranslator(app_commands.Translator):
    """Answers discord.py's translation requests from the command catalogues."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        section = SECTIONS.get(context.location)
        if section is None:
            return None
        key = string.extras.get("key", string.message)
        return translate_text(str(key), locale, section)
