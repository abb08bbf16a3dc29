"""Message catalogues: every user-facing sentence is looked up here by key.

The shared sentences are JSON files in ``bot/locales/`` (``en.json`` is complete by definition;
a test fails when another catalogue lacks a key). Each game brings its own sentences (its
colours, rules, move lines, menu labels...) in a catalogue of its own, a folder of
``<locale>.json`` files its manifest names; registering the game adds it here
(:func:`add_catalogue`) and every lookup sees the shared and the games' keys as one
catalogue. A key lives in one catalogue only. The locale comes from the user's Discord
client; anything we do not ship falls back to English.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

DEFAULT_LOCALE = "en"

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
    """Map Discord's locale codes (``de``, ``es-ES``, ``en-US``) to a catalogue name."""
    if not discord_locale:
        return DEFAULT_LOCALE
    code = str(discord_locale).lower()
    for candidate in (code, code.split("-")[0]):
        if candidate in available_locales():
            return candidate
    return DEFAULT_LOCALE


def tr(key: str, locale: str | None = None, /, **params: Any) -> str:
    """The sentence ``key`` in ``locale`` (or English), with ``{params}`` filled in."""
    text = catalogue(normalise_locale(locale)).get(key) or catalogue(DEFAULT_LOCALE).get(key)
    if text is None:
        raise KeyError(f"no message {key!r} in the English catalogue")
    return text.format(**params) if params else text
