"""Message catalogues: every user-facing sentence is looked up here by key.

Catalogues are JSON files in ``bot/locales/`` (``en.json`` is complete by definition; a test
fails when another catalogue lacks a key). The locale comes from the user's Discord client;
anything we do not ship falls back to English.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

DEFAULT_LOCALE = "en"


@cache
def catalogue(locale: str) -> dict[str, str]:
    path = resources.files("bot.locales").joinpath(f"{locale}.json")
    if not path.is_file():
        return {}
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


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
