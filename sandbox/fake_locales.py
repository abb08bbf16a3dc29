"""Discord's client languages, and the ones an app ships: what the sandbox lets a pretend
member pick as their Discord language (sent as the ``locale`` of their interactions).

An app shows which languages it speaks by the localisations of the commands it registered
(``name_localizations``, ``description_localizations``); English is always there, as Discord's
own default. The names are those Discord's language menu shows.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

DEFAULT_LOCALE = "en-US"

# Discord's locales, in the order of its reference, each with its own name for itself.
DISCORD_LOCALES: dict[str, str] = {
    "id": "Bahasa Indonesia",
    "da": "Dansk",
    "de": "Deutsch",
    "en-GB": "English, UK",
    "en-US": "English, US",
    "es-ES": "Español",
    "es-419": "Español, LATAM",
    "fr": "Français",
    "hr": "Hrvatski",
    "it": "Italiano",
    "lt": "Lietuviškai",
    "hu": "Magyar",
    "nl": "Nederlands",
    "no": "Norsk",
    "pl": "Polski",
    "pt-BR": "Português do Brasil",
    "ro": "Română",
    "fi": "Suomi",
    "sv-SE": "Svenska",
    "vi": "Tiếng Việt",
    "tr": "Türkçe",
    "cs": "Čeština",
    "el": "Ελληνικά",
    "bg": "български",
    "ru": "Pусский",
    "uk": "Українська",
    "hi": "हिन्दी",
    "th": "ไทย",
    "zh-CN": "中文",
    "ja": "日本語",
    "zh-TW": "繁體中文",
    "ko": "한국어",
}


def shipped_locales(commands: Iterable[dict[str, Any]]) -> list[dict[str, str]]:
    """The Discord locales the app speaks, judged by its registered ``commands`` (their
    bodies), as ``{"code", "name"}`` in Discord's order: English and every localised one."""
    found = {"en-US", "en-GB"}
    for body in commands:
        for command in _with_options(body):
            for key in ("name_localizations", "description_localizations"):
                found.update((command.get(key) or {}).keys())
    return [{"code": code, "name": name} for code, name in DISCORD_LOCALES.items() if code in found]


def _with_options(body: dict[str, Any]) -> Iterable[dict[str, Any]]:
    yield body
    for option in body.get("options") or []:
        if isinstance(option, dict):
            yield from _with_options(option)
