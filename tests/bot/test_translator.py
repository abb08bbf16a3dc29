"""Slash command texts: every description and choice the cogs declare has a text in each
shipped command catalogue, and the translator hands discord.py exactly those (names only from
a catalogue's ``names`` section; German keeps the English names)."""

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

from bot import games, i18n
from bot.client import COGS, TabulaBot
from bot.config import Settings
from bot.i18n import available_locales
from bot.translator import (
    GAME_CHOICE,
    SECTIONS,
    CatalogueTranslator,
    catalogue_for,
    command_catalogue,
    command_locales,
    language_name,
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
        if "language" not in string.extras:  # language names come from CLDR, not a catalogue
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


def game_named(text: str, language: str) -> bool:
    """Whether a game's own catalogue names choice ``text`` in ``language``."""
    named = i18n.catalogue(language).get(f"{GAME_CHOICE}{text}", "")
    return 1 <= len(named) <= DISCORD_TEXT_LIMIT and named.strip() == named


@pytest.mark.parametrize("language", command_locales())
@pytest.mark.parametrize("section", sorted(set(SECTIONS.values())))
def test_every_command_text_is_translated(language: str, section: str) -> None:
    if section == "names" and "names" not in command_catalogue(language):
        pytest.skip(f"commands.{language}.json keeps the English names")  # as German does
    catalogue = command_catalogue(language).get(section, {})
    own = {t for t in texts_for(section) if section == "choices" and game_named(t, language)}
    missing = sorted(texts_for(section) - set(catalogue) - own)
    assert not missing, f"commands.{language}.json [{section}] lacks: {missing}"
    unused = sorted(set(catalogue) - texts_for(section))
    assert not unused, f"commands.{language}.json [{section}] has texts no command uses: {unused}"
    for english, translated in catalogue.items():
        assert 1 <= len(translated) <= DISCORD_TEXT_LIMIT, (english, translated)
        assert translated.strip() == translated
    # Discord's rules for the names themselves: tests/bot/test_locales.py.


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
    # German keeps the English names; a catalogue with a names section gives its own.
    assert "de" not in play["name_localizations"]
    assert play["name_localizations"]["fr"] == command_catalogue("fr")["names"]["play"]
    difficulty = next(o for o in play["options"] if o["name"] == "difficulty")
    assert difficulty["description_localizations"]["de"] == "Wie stark der Bot spielt"
    assert "de" not in difficulty.get("name_localizations", {})
    names = {c["value"]: c["name_localizations"]["de"] for c in difficulty["choices"]}
    assert names == {
        "easy": "leicht",
        "medium": "mittel",
        "hard": "schwer",
        "expert": "Experte",
        "perfect": "perfekt",
    }
    # Only the shipped command catalogues' locales get a text (no other gets a wrong one).
    shipped = {catalogue_for(locale) for locale in discord.Locale} - {None}
    assert shipped == set(command_locales())
    for payload in payloads.values():
        served = {catalogue_for(locale) for locale in payload["description_localizations"]}
        assert served <= set(command_locales())


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        (discord.Locale.german, "Welches Spiel"),
        ("de", "Welches Spiel"),
        ("de-AT", "Welches Spiel"),  # a regional variant falls back to its language
        ("DE", "Welches Spiel"),
        (discord.Locale.american_english, None),
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
    # German has no names section: its names stay English, even when the text is known.
    name = app_commands.locale_str("on")
    assert await translator.translate(name, german, context(Where.parameter_name)) is None
    assert await translator.translate(name, german, context(Where.command_name)) is None
    keyed = app_commands.locale_str("Pick one", key="Which game")
    assert await translator.translate(keyed, german, context(Where.parameter_description)) == (
        "Welches Spiel"
    )


def test_a_names_section_names_commands_options_and_groups(tmp_path: Any, monkeypatch: Any) -> None:
    """A catalogue with ``names`` (the new languages have one) answers for command, group and
    option names; Spanish of Latin America reads the Spanish of Spain."""
    import json

    import bot.translator as translator

    catalogue = {"names": {"play": "jugar", "difficulty": "dificultad"}, "choices": {"on": "sí"}}
    monkeypatch.setattr(translator, "command_locales", lambda: ("de", "es-ES"))
    monkeypatch.setattr(
        translator,
        "command_catalogue",
        lambda language: json.loads(json.dumps(catalogue)) if language == "es-ES" else {},
    )
    spanish = discord.Locale.spain_spanish
    latin = discord.Locale.latin_american_spanish
    assert catalogue_for(latin) == catalogue_for(spanish) == "es-ES"
    assert translate_text("play", latin, "names") == "jugar"
    assert translate_text("difficulty", "es-es", "names") == "dificultad"
    assert translate_text("play", "es-ES", "choices") is None
    assert translate_text("on", "es-ES", "choices") == "sí"


def test_prefs_offers_every_shipped_language_by_its_own_name() -> None:
    _, payloads = synced()
    language = next(o for o in payloads["prefs"]["options"] if o["name"] == "language")
    values = [choice["value"] for choice in language["choices"]]
    assert values == ["auto", *available_locales()]
    german = next(c for c in language["choices"] if c["value"] == "de")
    assert german["name"] == "Deutsch · German"
    assert german["name_localizations"]["de"] == "Deutsch"
    assert german["name_localizations"]["pt-BR"] == "Deutsch · Alemão"
    assert language_name("pt-BR", "ru") == "Português (Brasil) · Португальский (Бразилия)"


def test_a_game_names_its_choice_in_its_own_catalogue() -> None:
    """A game whose name the shared command catalogues lack is named by its own catalogue
    (``choice.<kind>``): adding a game touches no shared file."""
    own = [
        (game.kind, language)
        for game in games.all()
        for language in command_locales()
        if game.kind not in command_catalogue(language).get("choices", {})
    ]
    assert own, "every game is named in the shared catalogues"
    for kind, language in own:
        named = translate_text(kind, language, "choices")
        assert named == i18n.catalogue(language)[f"{GAME_CHOICE}{kind}"], (kind, language)
