from __future__ import annotations

import re
import string
from importlib import resources
from pathlib import Path

import pytest

from bot import games
from bot.i18n import available_locales, catalogue, game_catalogues, normalise_locale, tr

ROOT = Path(__file__).resolve().parents[2]


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_english_is_shipped_and_has_every_key_the_code_uses() -> None:
    used: set[str] = set()
    pattern = re.compile(
        r"""(?:tr\(|TabulaError\(|Refused\(|StaleAction\()\s*f?["']([a-z_]+\.[a-z_.]+)["']"""
    )
    for folder in ("bot", "cogs"):
        for path in (ROOT / folder).rglob("*.py"):
            used.update(pattern.findall(path.read_text(encoding="utf-8")))
    for path in (ROOT / "bot").rglob("errors.py"):
        used.update(re.findall(r'key = "([a-z_.]+)"', path.read_text(encoding="utf-8")))
    english = catalogue("en")
    missing = sorted(k for k in used if k not in english and not k.endswith("."))
    assert not missing, f"keys used in code but missing from en.json: {missing}"


@pytest.mark.parametrize("locale", [loc for loc in available_locales() if loc != "en"])
def test_every_catalogue_is_complete_with_the_same_placeholders(locale: str) -> None:
    english, other = catalogue("en"), catalogue(locale)
    assert sorted(set(english) - set(other)) == [], f"{locale} misses keys"
    assert sorted(set(other) - set(english)) == [], f"{locale} has unknown keys"
    for key, text in english.items():
        assert fields(other[key]) == fields(text), f"{locale}:{key} placeholders differ"


@pytest.mark.parametrize("game", games.all(), ids=lambda g: g.kind)
def test_each_game_brings_its_sentences_in_every_language(game: games.GameSpec) -> None:
    """A game's catalogue is its own folder, merged in when the game is registered: the
    completeness test above covers it, and it holds the keys only this game uses."""
    folder = game.catalogue
    assert folder is not None and folder in game_catalogues()
    own = {locale: folder.joinpath(f"{locale}.json") for locale in available_locales()}
    assert all(path.is_file() for path in own.values()), folder
    english = catalogue("en")
    for seat in game.seats:
        assert f"colour.{seat}" in english
    assert f"rules.{game.kind}" in english
    shared = resources.files("bot.locales").joinpath("en.json").read_text(encoding="utf-8")
    assert f'"rules.{game.kind}"' not in shared and f'"colour.{game.seats[0]}"' not in shared


def test_locale_fallbacks() -> None:
    assert normalise_locale(None) == "en"
    assert normalise_locale("en-US") == "en"
    assert normalise_locale("xx-YY") == "en"
    assert tr("button.roll", "xx") == tr("button.roll", "en")
    assert "4" in tr("button.die", "en", die=4)
