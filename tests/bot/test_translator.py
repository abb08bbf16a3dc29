"""Slash command texts: every description and choice the cogs declare has a German text, and
the translator hands discord.py exactly those (names stay English)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from functools import cache
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from pydantic import SecretStr

from bot.client import COGS, TabulaBot
from bot.config import Settings
from bot.i18n import available_locales
from bot.translator import (
    SECTIONS,
    CatalogueTranslator,
    command_catalogue,
    command_locales,
    translate_text,
)

DISCORD_TEXT_LIMIT = 100  # descriptions and choice names: 1 to 100 characters


@dataclass(frozen=True)
class Asked:
    text: str
    where: Where
    locale: discord.Locale


class RecordingTranslator(CatalogueTranslator):
    """The real translator, noting every request discord.py makes while building payloads."""

    def __init__(self) -> None:
        self.asked: list[Asked] = []

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        self.asked.append(Asked(string.message, context.location, locale))
        return await super().translate(string, locale, context)


@cache
def synced() -> tuple[tuple[Asked, ...], dict[str, dict[str, Any]]]:
    """What a sync would send: the translator's requests and each command's payload."""

    async def build() -> tuple[tuple[Asked, ...], dict[str, dict[str, Any]]]:
        bot = TabulaBot(Settings(discord_token=SecretStr("unused")))
        for name in COGS:
            await bot.load_extension(name)
        translator = RecordingTranslator()
        payloads = {
            command.name: await command.get_translated_payload(bot.tree, translator)
            for command in bot.tree.get_commands()
        }
        return tuple(translator.asked), payloads

    return asyncio.run(build())


def texts_for(section: str) -> set[str]:
    asked, _ = synced()
    return {
        a.text
        for a in asked
        if SECTIONS.get(a.where) == section and a.locale == discord.Locale.german
    }


def test_plain_str_descriptions_reach_the_translator() -> None:
    # discord.py wraps plain str texts into locale_str (auto_locale_strings), so the cogs need
    # no locale_str of their own; this pins that behaviour of the library.
    asked, payloads = synced()
    play = payloads["play"]
    assert Asked(play["description"], Where.command_description, discord.Locale.german) in asked
    assert {"easy", "medium", "hard"} <= texts_for("choices")


@pytest.mark.parametrize("language", command_locales())
@pytest.mark.parametrize("section", sorted(set(SECTIONS.values())))
def test_every_command_text_is_translated(language: str, section: str) -> None:
    catalogue = command_catalogue(language).get(section, {})
    missing = sorted(texts_for(section) - set(catalogue))
    assert not missing, f"commands.{language}.json [{section}] lacks: {missing}"
    unused = sorted(set(catalogue) - texts_for(section))
    assert not unused, f"commands.{language}.json [{section}] has texts no command uses: {unused}"
    for english, translated in catalogue.items():
        assert 1 <= len(translated) <= DISCORD_TEXT_LIMIT, (english, translated)
        assert translated.strip() == translated


def test_german_is_shipped_for_commands_and_messages() -> None:
    assert "de" in command_locales()
    # A command catalogue is no locale of the message catalogues (bot.i18n).
    assert "de" in available_locales()
    assert not [name for name in available_locales() if "." in name]
    for language in command_locales():
        assert language in available_locales(), f"commands.{language}.json but no {language}.json"


def test_payload_carries_german_descriptions_and_choices_but_english_names() -> None:
    _, payloads = synced()
    play = payloads["play"]
    assert play["description_localizations"]["de"] == "Spiel eine Partie gegen den Bot."
    assert play["name_localizations"] == {}
    difficulty = next(o for o in play["options"] if o["name"] == "difficulty")
    assert difficulty["description_localizations"] == {"de": "Wie stark der Bot spielt"}
    assert difficulty.get("name_localizations", {}) == {}
    names = {c["value"]: c["name_localizations"] for c in difficulty["choices"]}
    assert names == {
        "easy": {"de": "leicht"},
        "medium": {"de": "mittel"},
        "hard": {"de": "schwer"},
        "expert": {"de": "Experte"},
        "perfect": {"de": "perfekt"},
    }
    # Only German is shipped: no other locale gets a (wrong) text.
    for payload in payloads.values():
        assert set(payload["description_localizations"]) <= {"de"}


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        (discord.Locale.german, "Welches Spiel"),
        ("de", "Welches Spiel"),
        ("de-AT", "Welches Spiel"),  # a regional variant falls back to its language
        (discord.Locale.american_english, None),
        (discord.Locale.french, None),
    ],
)
def test_translate_text_by_locale(locale: discord.Locale | str, expected: str | None) -> None:
    assert translate_text("Which game", locale, "descriptions") == expected


def test_sections_keep_choices_and_descriptions_apart() -> None:
    assert translate_text("on", "de", "choices") == "an"
    assert translate_text("on", "de", "descriptions") is None
    assert translate_text("no such text", "de", "descriptions") is None


async def test_translator_answers_by_location_and_explicit_key() -> None:
    translator = CatalogueTranslator()
    german = discord.Locale.german

    def context(where: Where) -> Any:
        return app_commands.TranslationContext(where, None)  # type: ignore[call-overload]

    which = app_commands.locale_str("Which game")
    assert await translator.translate(which, german, context(Where.parameter_description)) == (
        "Welches Spiel"
    )
    # Names are identifiers: never translated, even when the text happens to be known.
    name = app_commands.locale_str("on")
    assert await translator.translate(name, german, context(Where.parameter_name)) is None
    assert await translator.translate(name, german, context(Where.command_name)) is None
    keyed = app_commands.locale_str("Pick one", key="Which game")
    assert await translator.translate(keyed, german, context(Where.parameter_description)) == (
        "Welches Spiel"
    )
