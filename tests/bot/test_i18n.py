from __future__ import annotations

import re
import string
from importlib import resources
from pathlib import Path

import pytest

from bot import games
from bot.i18n import (
    available_locales,
    catalogue,
    game_catalogues,
    normalise_locale,
    plural_categories,
    plural_category,
    tr,
    tr_plural,
)
from bot.ui.names import plural

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


# Each shipped language's completeness, placeholders and plural forms: tests/bot/test_locales.py.


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


def test_discord_codes_find_their_catalogue(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any case, ``_`` for ``-``, a region we do not ship (its language's), Latin American
    Spanish read from Spain's: shown with the new languages' names as if shipped."""
    import bot.i18n as i18n

    shipped = ("de", "en", "es-ES", "pt-BR", "ru")
    monkeypatch.setattr(i18n, "available_locales", lambda: shipped)
    i18n.normalise_locale.cache_clear()
    try:
        assert normalise_locale("pt-BR") == normalise_locale("pt-br") == "pt-BR"
        assert normalise_locale("pt_BR") == normalise_locale("pt") == "pt-BR"
        assert normalise_locale("es-419") == normalise_locale("es-ES") == "es-ES"
        assert normalise_locale("ES") == "es-ES"
        assert normalise_locale("de-AT") == "de"
        assert normalise_locale("fr") == normalise_locale("zh-CN") == "en"
    finally:
        i18n.normalise_locale.cache_clear()


@pytest.mark.parametrize(
    ("locale", "categories"),
    [
        ("en", ("one", "other")),
        ("de", ("one", "other")),
        ("ru", ("one", "few", "many", "other")),
        ("pt-BR", ("one", "many", "other")),
        ("hi", ("one", "other")),
    ],
)
def test_plural_categories_are_cldrs(locale: str, categories: tuple[str, ...]) -> None:
    assert plural_categories(locale) == categories


def test_plural_category_uses_the_catalogues_language() -> None:
    assert [plural_category(n, "de") for n in (0, 1, 2, 21)] == ["other", "one", "other", "other"]
    assert plural_category(1.5, "en") == "other"


def test_plural_picks_the_category_and_reads_other_when_a_form_is_missing() -> None:
    assert plural("count.games", 1, "de") == tr("count.games.one", "de", count=1)
    assert plural("count.games", 3, "de") == tr("count.games.other", "de", count=3)
    assert plural("count.games", 0, "en") == "0 games"
    # Polish, not shipped, reads English: English's rule, so 21 is "21 games".
    assert plural("count.games", 21, "pl") == "21 games"
    # Russian, shipped, uses its own rule: 21 is its "one".
    assert plural("count.games", 21, "ru") == tr("count.games.one", "ru", count=21)
    assert tr_plural("count.games", 2, "en") == "2 games"
