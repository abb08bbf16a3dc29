"""Message catalogues: every user-facing sentence is looked up here by key.

The shared sentences are JSON files in ``bot/locales/`` (``en.json`` is complete by definition;
a test fails when another catalogue lacks a key). Each game brings its own sentences (its
colours, rules, move lines, menu labels...) in a catalogue of its own, a folder of
``<locale>.json`` files its manifest names; registering the game adds it here
(:func:`add_catalogue`) and every lookup sees the shared and the games' keys as one
catalogue. A key lives in one catalogue only. The locale comes from the user's Discord
client; anything we do not ship falls back to English.

Catalogues are named in Discord's spelling of the locale (``de``, ``pt-BR``, ``es-ES``):
:func:`normalise_locale` maps whatever Discord or a stored game names (any case, a region we
do not ship, ``es-419``) to one of them. A plural message is one key per CLDR plural category
of the language, ``<base>.<category>`` (``count.games.one``, ``count.games.few``...), and
:func:`plural_category` picks the category with Babel's rule for the locale.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, Final

from babel import Locale

DEFAULT_LOCALE = "en"

# Discord locales served from another shipped catalogue (Latin American Spanish reads the
# Spanish of Spain; both are Discord locales of their own).
ALIASES: Final = {"es-419": "es-ES"}

# The registered games' catalogues, in the order they were added.
_game_catalogues: list[Traversable] = []


class CatalogueClash(ValueError):
    """Two catalogues define one key: a game's sentences must be its own."""


def _read(path: Traversable) -> dict[str, str]:
    if not path.is_file():
        return {}
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


@cache
def catalogue(locale: str) -> dict[str, str]:
    """Every sentence shipped in ``locale``: the shared ones and the registered games'."""
    merged = _read(resources.files("bot.locales").joinpath(f"{locale}.json"))
    for folder in _game_catalogues:
        own = _read(folder.joinpath(f"{locale}.json"))
        clash = sorted(own.keys() & merged.keys())
        if clash:
            raise CatalogueClash(f"{folder} repeats keys of another catalogue: {clash}")
        merged.update(own)
    return merged


def add_catalogue(folder: Traversable) -> None:
    """Merge a game's catalogue (a folder of ``<locale>.json``) into every lookup; raises
    :class:`CatalogueClash`, and adds nothing, if it repeats a key already shipped."""
    if folder in _game_catalogues:
        return
    _game_catalogues.append(folder)
    catalogue.cache_clear()
    try:
        for locale in available_locales():
            catalogue(locale)
    except CatalogueClash:
        remove_catalogue(folder)
        raise


def remove_catalogue(folder: Traversable) -> None:
    """Drop a game's catalogue again (a game registered for a while: a test's)."""
    if folder in _game_catalogues:
        _game_catalogues.remove(folder)
        catalogue.cache_clear()


def game_catalogues() -> tuple[Traversable, ...]:
    """The registered games' catalogue folders (the completeness tests read each)."""
    return tuple(_game_catalogues)


@cache  # the shipped files do not change while the bot runs; tr() asks on every call
def available_locales() -> tuple[str, ...]:
    names = (p.name for p in resources.files("bot.locales").iterdir())
    # Dotted names (commands.de.json) are the slash command catalogues of bot.translator.
    locales = (n.removesuffix(".json") for n in names if n.endswith(".json"))
    return tuple(sorted(name for name in locales if "." not in name))


@cache
def normalise_locale(discord_locale: str | None) -> str:
    """Map a locale code (``de``, ``pt-br``, ``es-419``, ``en-US``, ``fr_FR``) to the name of a
    shipped catalogue: the code itself in any case, its alias, its language alone, then the
    first shipped locale of the same language; English when none is shipped."""
    if not discord_locale:
        return DEFAULT_LOCALE
    code = str(discord_locale).replace("_", "-").lower()
    shipped = {name.lower(): name for name in available_locales()}
    aliases = {alias.lower(): name for alias, name in ALIASES.items()}
    language = code.split("-")[0]
    for candidate in (code, aliases.get(code, ""), language):
        if candidate in shipped:
            return shipped[candidate]
    for lowered, name in shipped.items():
        if lowered.split("-")[0] == language:
            return name
    return DEFAULT_LOCALE


@cache
def _babel_locale(locale: str) -> Locale:
    return Locale.parse(locale.replace("-", "_"))


def babel_locale(locale: str | None) -> Locale:
    """Babel's locale for the catalogue ``locale`` serves (numbers, plural rules)."""
    return _babel_locale(normalise_locale(locale))


@cache
def plural_categories(locale: str) -> tuple[str, ...]:
    """The CLDR plural categories of ``locale``'s language (``one``, ``few``, ``many``,
    ``other``...): the keys a plural message has in that catalogue."""
    tags = set(_babel_locale(locale).plural_form.tags) | {"other"}
    order = ("zero", "one", "two", "few", "many", "other")
    return tuple(tag for tag in order if tag in tags)


def plural_category(count: float, locale: str | None) -> str:
    """The plural category ``count`` takes in ``locale`` (Babel's CLDR rule)."""
    return str(babel_locale(locale).plural_form(count))


def tr(key: str, locale: str | None = None, /, **params: Any) -> str:
    """The sentence ``key`` in ``locale`` (or English), with ``{params}`` filled in."""
    text = catalogue(normalise_locale(locale)).get(key) or catalogue(DEFAULT_LOCALE).get(key)
    if text is None:
        raise KeyError(f"no message {key!r} in the English catalogue")
    return text.format(**params) if params else text


def tr_plural(base: str, count: float, locale: str | None = None, /, **params: Any) -> str:
    """The plural message ``base`` for ``count`` in ``locale``: ``<base>.<category>`` by the
    locale's plural rule, with ``{count}`` and ``params`` filled in. A catalogue that lacks
    the category (one of a language we do not ship) reads its ``other`` form."""
    name = normalise_locale(locale)
    category = plural_category(count, name)
    if f"{base}.{category}" not in catalogue(name):
        category = "other" if f"{base}.other" in catalogue(name) else category
    return tr(f"{base}.{category}", name, count=count, **params)
