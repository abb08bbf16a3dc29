"""Every shipped language, checked the same way (a new `<locale>.json` is covered the moment
it is added): every key of the English catalogues with exactly the English placeholders,
nothing left in English unless the language's glossary says so, every plural category of the
language filled, and the slash command texts within Discord's rules."""

from __future__ import annotations

import re
import string
import unicodedata
from functools import cache
from pathlib import Path

import discord
import pytest

from bot import games
from bot.i18n import ALIASES, available_locales, catalogue, normalise_locale, plural_categories
from bot.translator import command_catalogue, command_locales

ROOT = Path(__file__).resolve().parents[2]
GLOSSARIES = ROOT / "docs" / "glossary"
LOCALES = [locale for locale in available_locales() if locale != "en"]
NAME_LIMIT, TEXT_LIMIT = 32, 100
CATEGORIES = ("zero", "one", "two", "few", "many", "other")  # every CLDR plural category
KEPT = re.compile(r"^Kept as in English:(.*)$", re.MULTILINE)
DISCORD_LOCALES = {locale.value for locale in discord.Locale}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def kept_as_in_english(locale: str) -> set[str]:
    """The keys ``docs/glossary/<locale>.md`` lists on its ``Kept as in English:`` lines
    (comma-separated, backticks allowed, any number of such lines)."""
    path = GLOSSARIES / f"{locale}.md"
    if not path.is_file():
        return set()
    keys: set[str] = set()
    for line in KEPT.findall(path.read_text(encoding="utf-8")):
        keys.update(k.strip().strip("`").rstrip(".") for k in line.split(","))
    return keys - {""}


def has_words(text: str) -> bool:
    """Whether ``text`` says something beyond its placeholders, marks and emoji."""
    bare = re.sub(r"\{[^}]*\}|`[^`]*`", "", text)
    return any(ch.isalpha() for ch in bare)


@cache
def english() -> dict[str, str]:
    games.all()  # the games' catalogues are merged in when they register
    return catalogue("en")


def plural_bases(keys: dict[str, str]) -> set[str]:
    """``count.games`` for ``count.games.one`` + ``count.games.other``."""
    return {
        k.removesuffix(".other")
        for k in keys
        if k.endswith(".other") and k.removesuffix(".other") + ".one" in keys
    }


def one_is_only_one(locale: str) -> bool:
    """Whether ``one`` in ``locale`` is said of 1 alone (English, German: ``a game``), so its
    sentence may leave ``{count}`` out; Russian's ``one`` is also 21, 31..."""
    from bot.i18n import babel_locale

    rule = babel_locale(locale).plural_form
    return all(rule(n) != "one" for n in (0, *range(2, 1000)))


def test_locales_are_named_as_discord_names_them() -> None:
    assert "en" in available_locales() and "de" in available_locales()
    for locale in available_locales():
        assert locale in DISCORD_LOCALES or locale == "en", locale
        assert normalise_locale(locale) == locale
        assert normalise_locale(locale.upper()) == locale
    for alias, served in ALIASES.items():
        assert alias in DISCORD_LOCALES
        expected = served if served in available_locales() else "en"
        assert normalise_locale(alias) == expected


def catalogue_problems(
    locale: str, en: dict[str, str], other: dict[str, str], kept: set[str]
) -> list[str]:
    """What is wrong with ``other``, the catalogue of ``locale``, against English ``en``."""
    problems: list[str] = []
    bases = plural_bases(en)
    plural_keys = {
        f"{b}.{c}" for b in bases for c in ("zero", "one", "two", "few", "many", "other")
    }
    singular = {k for k in en if k not in plural_keys}
    problems += [f"missing {k}" for k in sorted(singular - set(other))]
    problems += [f"unknown {k}" for k in sorted(set(other) - set(en) - plural_keys)]
    problems += [
        f"placeholders of {k}"
        for k in sorted(singular & set(other))
        if fields(other[k]) != fields(en[k])
    ]
    categories = plural_categories(locale)
    lenient_one = one_is_only_one(locale)
    for base in sorted(bases):
        forms = {k.rsplit(".", 1)[1] for k in other if k.rsplit(".", 1)[0] == base}
        if forms != set(categories):
            problems.append(f"{base} has {sorted(forms)}, not {list(categories)}")
        for category in sorted(forms & set(categories)):
            found, wanted = fields(other[f"{base}.{category}"]), fields(en[f"{base}.other"])
            if category == "one" and lenient_one and found == fields(en[f"{base}.one"]):
                continue
            if found != wanted:
                problems.append(f"placeholders of {base}.{category}")
    problems += [f"glossary keeps unknown {k}" for k in sorted(kept - set(en))]
    problems += [
        f"untranslated {k}"
        for k, text in sorted(other.items())
        if en.get(k) == text and has_words(text) and k not in kept
    ]
    return problems


@pytest.mark.parametrize("locale", LOCALES)
def test_each_catalogue_is_complete_translated_and_plural(locale: str) -> None:
    """Every key with the English placeholders; every plural category of the language; no
    sentence left in English unless ``docs/glossary/<locale>.md`` keeps it ("Kept as in
    English: key1, key2")."""
    problems = catalogue_problems(locale, english(), catalogue(locale), kept_as_in_english(locale))
    assert not problems, f"{locale}: {problems}"


@pytest.mark.parametrize("locale", LOCALES)
def test_each_language_has_its_glossary(locale: str) -> None:
    """The game terms as the language's players say them: docs/glossary/<locale>.md."""
    path = GLOSSARIES / f"{locale}.md"
    assert path.is_file(), f"docs/glossary/{locale}.md is missing (see docs/languages.md)"
    assert "|" in path.read_text(encoding="utf-8"), "the glossary has no table of terms"


def test_the_checks_catch_each_fault() -> None:
    en = {
        "count.games.one": "{count} game",
        "count.games.other": "{count} games",
        "button.roll": "Roll",
        "text.seat": "{name} ({colour})",
        "help.group.info": "Info",
    }
    good = {
        "count.games.one": "{count} партия",
        "count.games.few": "{count} партии",
        "count.games.many": "{count} партий",
        "count.games.other": "{count} партии",
        "button.roll": "Бросить",
        "text.seat": "{name} ({colour})",  # no words of its own: the same in every language
        "help.group.info": "Info",
    }
    assert catalogue_problems("ru", en, good, {"help.group.info"}) == []
    # Russian's one is also 21: "одна партия" without {count} would be wrong for 21.
    assert catalogue_problems("ru", en, {**good, "count.games.one": "партия"}, {"help.group.info"})
    missing_few = {k: v for k, v in good.items() if k != "count.games.few"}
    assert catalogue_problems("ru", en, missing_few, {"help.group.info"}) == [
        "count.games has ['many', 'one', 'other'], not ['one', 'few', 'many', 'other']"
    ]
    assert catalogue_problems("ru", en, good, set()) == ["untranslated help.group.info"]
    assert catalogue_problems("ru", en, {**good, "button.roll": "Roll"}, {"help.group.info"}) == [
        "untranslated button.roll"
    ]
    assert catalogue_problems("ru", en, {**good, "text.seat": "{name}"}, {"help.group.info"}) == [
        "placeholders of text.seat"
    ]
    assert "missing button.roll" in catalogue_problems(
        "ru", en, {k: v for k, v in good.items() if k != "button.roll"}, {"help.group.info"}
    )
    # German's one is 1 alone: "ein Spiel" may leave the number out.
    german = {"count.games.one": "eine Partie", "count.games.other": "{count} Partien"}
    assert catalogue_problems("de", {k: en[k] for k in german}, german, set()) == [
        "placeholders of count.games.one"
    ]  # ...unless English leaves it out too
    assert (
        catalogue_problems(
            "de", {"count.games.one": "a game", "count.games.other": "{count} games"}, german, set()
        )
        == []
    )


def test_the_glossary_line_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(__import__(__name__, fromlist=["x"]), "GLOSSARIES", tmp_path)
    (tmp_path / "xx.md").write_text(
        "# Glossary\n\nKept as in English: `button.start`, help.group.info.\n"
        "Some words about Kept as in English: not.a.key\nKept as in English: share.ids\n",
        encoding="utf-8",
    )
    assert kept_as_in_english("xx") == {"button.start", "help.group.info", "share.ids"}
    assert kept_as_in_english("yy") == set()


@pytest.mark.parametrize("locale", LOCALES)
def test_each_game_has_its_own_file_in_the_language(locale: str) -> None:
    for game in games.all():
        assert game.catalogue is not None
        assert game.catalogue.joinpath(f"{locale}.json").is_file(), (game.kind, locale)


def valid_name(name: str) -> bool:
    """Discord's rule for command and option names: ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]
    {1,32}$``, lowercase wherever a letter has a lower case."""
    if not 1 <= len(name) <= NAME_LIMIT or name != name.lower():
        return False
    for ch in name:
        point = ord(ch)
        devanagari = 0x0900 <= point <= 0x097F or 0xA8E0 <= point <= 0xA8FF
        thai = 0x0E00 <= point <= 0x0E7F
        letter_or_digit = unicodedata.category(ch)[0] in "LN"
        if not (ch in "-_'" or letter_or_digit or devanagari or thai):
            return False
    return True


def test_the_name_rule_is_discords() -> None:
    assert valid_name("play") and valid_name("jogar") and valid_name("τάβλι")
    assert valid_name("нарды") and valid_name("खेलें") and valid_name("auto_roll")
    assert not valid_name("Play") and not valid_name("auto roll") and not valid_name("a" * 33)
    assert not valid_name("") and not valid_name("play!")


@pytest.mark.parametrize("language", command_locales())
def test_command_localisations_keep_discords_rules(language: str) -> None:
    assert language in available_locales(), f"commands.{language}.json but no {language}.json"
    assert language in DISCORD_LOCALES
    sections = command_catalogue(language)
    assert set(sections) <= {"descriptions", "choices", "names"}, sorted(sections)
    for english_name, name in sections.get("names", {}).items():
        assert valid_name(english_name), english_name
        assert valid_name(name), f"commands.{language}.json names: {english_name} -> {name!r}"
    for section in ("descriptions", "choices"):
        for english_text, text in sections.get(section, {}).items():
            assert 1 <= len(text) <= TEXT_LIMIT, (language, section, english_text, text)
            assert text.strip() == text, (language, section, english_text)


def test_localised_names_are_unique_within_each_command() -> None:
    """Discord refuses a command whose options share a name in some language."""
    from tests.bot.test_translator import synced

    _, payloads = synced()

    def check(options: list[dict[str, object]], where: str) -> None:
        for locale in {loc for o in options for loc in o.get("name_localizations") or {}}:
            names = [
                (o.get("name_localizations") or {}).get(locale, o["name"])  # type: ignore[union-attr]
                for o in options
            ]
            assert len(names) == len(set(names)), (where, locale, names)
        for option in options:
            nested = option.get("options")
            if isinstance(nested, list):
                check(nested, f"{where} {option['name']}")

    top = [{"name": name, **payload} for name, payload in payloads.items()]
    check(top, "/")
