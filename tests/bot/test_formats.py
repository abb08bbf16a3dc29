"""Numbers and dates in the reader's language (bot.formats, Babel): German with the shipped
catalogue; a language without one reads English, numbers included."""

from __future__ import annotations

import datetime

from bot.formats import day, decimal, duration, integer, percent


def test_decimals_follow_the_language() -> None:
    assert decimal(12.345, "en") == "12.3"
    assert decimal(12.345, "de") == "12,3"
    assert decimal(1234.5, "de") == "1.234,5"
    assert decimal(0.1234, "en", 3, signed=True) == "+0.123"
    assert decimal(-0.1234, "de", 3, signed=True) == "\u22120,123"
    assert decimal(0.0, "en", 1, signed=True) == "0.0"
    assert decimal(7.0, "en", 0, signed=True) == "+7"
    # Not shipped: the sentence is English, and so is its number.
    assert decimal(12.345, "xx") == "12.3"


def test_percentages_integers_durations_and_days() -> None:
    assert percent(0.1234, "en") == "12.3%"
    assert percent(0.1234, "de") == "12,3\u00a0%"
    assert integer(1500, "en") == "1,500"
    assert integer(1500, "de") == "1.500"
    assert duration(3 * 3600, "en") == "3 hours"
    assert duration(3 * 3600, "de") == "3 Stunden"
    assert day(datetime.date(2026, 11, 28), "de") == "28.11.2026"
    assert day(datetime.date(2026, 11, 28), "en") == "Nov 28, 2026"
