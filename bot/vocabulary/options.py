"""Game options that belong to the table, not to the rules.

A game's stored options hold both the engine's options (match length, cube) and table
options the service enforces (hints allowed). Everything that builds an engine state from
stored options goes through :func:`engine_options`, so engines only ever see their own keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

HINTS = "hints"  # both players agreed to /hint; such games are never rated
# Tutor mode (bot.service.tutor): a costly move is questioned before it is stored; chosen on
# /play, or agreed by everyone at /challenge; such games are never rated.
TUTOR = "tutor"
LOCALE = "locale"  # the server's language when the game started: public texts use it
# A match clock (``bot.service.time_control``): {"name", "delay", "reserve"} in seconds, the
# reserve for the whole match; absent for correspondence play (the server's hours per move).
CLOCK = "clock"
TABLE_OPTIONS: frozenset[str] = frozenset({HINTS, LOCALE, CLOCK, TUTOR})


def engine_options(options: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in options.items() if key not in TABLE_OPTIONS}


def table_locale(options: Mapping[str, Any]) -> str | None:
    """The language of a game's public texts (``None``: the default, for older games)."""
    locale = options.get(LOCALE)
    return str(locale) if locale else None
