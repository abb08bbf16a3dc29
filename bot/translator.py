"""Slash command texts in the user's language.

When the command tree is synced, discord.py asks an :class:`app_commands.Translator` for every
command description, option description and choice name in every Discord locale; plain
``str`` texts in the cogs are wrapped into ``locale_str`` for this (``auto_locale_strings``),
so the cogs stay in plain English. Discord then shows each user the texts of their client
language.

Each language's texts live in ``bot/locales/commands.<locale>.json`` (``commands.de.json``,
``commands.pt-BR.json``: Discord's spelling of the locale), keyed by the English text as the
cogs write it, in up to three sections: ``descriptions`` (commands and options, at most 100
characters), ``choices`` (choice names as players say them: ``tavla``, ``нарды``; at most
100; a game's own name may instead be ``choice.<kind>`` in the game's own catalogue) and
``names`` (command, group and option names: lowercase, Discord's name pattern, at most 32
characters). A ``locale_str(..., key="...")`` in a cog may name its catalogue key
explicitly instead. A language without a ``names`` section keeps the English names
(German does: its players type ``/play``). Discord hands the bot the English names whatever
the user typed, so the cogs read options by their English names in every language.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Final

import discord
from babel import Locale, UnknownLocaleError
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import ALIASES, available_locales, catalogue

__all__ = [
    "GAME_CHOICE",
    "SECTIONS",
    "CatalogueTranslator",
    "catalogue_for",
    "command_catalogue",
    "command_locales",
    "language_choices",
    "language_name",
    "translate_text",
]

# Which catalogue section answers for which kind of text; anything else stays English.
SECTIONS: Final[Mapping[Where, str]] = {
    Where.command_description: "descriptions",
    Where.group_description: "descriptions",
    Where.parameter_description: "descriptions",
    Where.choice_name: "choices",
    Where.command_name: "names",
    Where.group_name: "names",
    Where.parameter_name: "names",
}
_PREFIX, _SUFFIX = "commands.", ".json"
GAME_CHOICE: Final = "choice."  # a game's own catalogue key for its choice name: choice.<kind>


@cache
def command_catalogue(language: str) -> Mapping[str, Mapping[str, str]]:
    """The sections of ``commands.<language>.json``; empty when that language is not shipped."""
    path = resources.files("bot.locales").joinpath(f"{_PREFIX}{language}{_SUFFIX}")
    if not path.is_file():
        return {}
    data: dict[str, dict[str, str]] = json.loads(path.read_text(encoding="utf-8"))
    return data


@cache
def command_locales() -> tuple[str, ...]:
    """Languages with a command catalogue, e.g. ``("de", "pt-BR")``."""
    names = (p.name for p in resources.files("bot.locales").iterdir())
    return tuple(
        sorted(
            n.removeprefix(_PREFIX).removesuffix(_SUFFIX)
            for n in names
            if n.startswith(_PREFIX) and n.endswith(_SUFFIX)
        )
    )


def catalogue_for(locale: discord.Locale | str) -> str | None:
    """The command catalogue serving Discord's ``locale`` (``de``, ``pt-BR``; ``es-419``
    reads ``es-ES``; ``de-AT`` its language's), or None when none is shipped. Only what
    Discord offers is asked, so a language is never served another region's words except by
    :data:`bot.i18n.ALIASES`."""
    code = str(locale.value if isinstance(locale, discord.Locale) else locale)
    shipped = {name.lower(): name for name in command_locales()}
    for candidate in (code.lower(), ALIASES.get(code, "").lower(), code.split("-")[0].lower()):
        if candidate in shipped:
            return shipped[candidate]
    return None


def translate_text(text: str, locale: discord.Locale | str, section: str) -> str | None:
    """``text`` from ``section`` in the catalogue for ``locale`` (see :func:`catalogue_for`),
    or None when there is no translation."""
    language = catalogue_for(locale)
    if language is None:
        return None
    found = command_catalogue(language).get(section, {}).get(text)
    if not found and section == "choices":
        # A game names itself in its own catalogue (``choice.<kind>``), so adding a game
        # touches no shared file.
        found = catalogue(language).get(f"{GAME_CHOICE}{text}")
    return found or None


def language_name(code: str, reader: discord.Locale | str | None = None) -> str:
    """The shipped language ``code`` as its own speakers name it, and as ``reader``'s language
    does when that differs: ``Deutsch``, ``Português (Brasil) · Portuguese (Brazil)`` (CLDR's
    names, from Babel: no catalogue has to name every other language)."""
    own = Locale.parse(code.replace("-", "_"))
    autonym = str(own.get_display_name(own))
    autonym = autonym[:1].upper() + autonym[1:]
    text = str(reader.value if isinstance(reader, discord.Locale) else reader or "en")
    try:
        theirs = str(own.get_display_name(Locale.parse(text.replace("-", "_"))))
    except (UnknownLocaleError, ValueError):
        theirs = str(own.get_display_name("en"))
    theirs = theirs[:1].upper() + theirs[1:]
    return autonym if theirs == autonym else f"{autonym} · {theirs}"


def language_choices() -> list[app_commands.Choice[str]]:
    """``/prefs language``'s choices: ``auto`` and every shipped language, named by
    :func:`language_name` in each Discord locale (the translator answers for them)."""
    named = [
        app_commands.Choice(
            name=app_commands.locale_str(language_name(code), language=code), value=code
        )
        for code in available_locales()
    ]
    return [app_commands.Choice(name="auto", value="auto"), *named]


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
        language = string.extras.get("language")
        if language is not None and context.location is Where.choice_name:
            return language_name(str(language), locale)
        key = string.extras.get("key", string.message)
        return translate_text(str(key), locale, section)
