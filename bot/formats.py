"""Numbers and dates as a reader of the locale writes them, with Babel: ``12.3`` in English is
``12,3`` in German, French, Russian or Turkish; thousands are grouped the locale's way.

The bot's sentences take these as ready strings (``tr(..., pr=decimal(pr, locale))``). Times
and dates sent to Discord are its timestamps (``<t:…:R>``), which every client writes in its
own language, so only what a picture or a stored text states needs :func:`day`; a clock's
``m:ss`` reads the same everywhere (:func:`bot.service.time_control.format_seconds`).
"""

from __future__ import annotations

import datetime

from babel import dates, numbers

from bot.i18n import babel_locale

__all__ = ["day", "decimal", "duration", "integer", "percent"]

MINUS = "\u2212"  # a true minus sign, as wide as the plus sign it answers


def integer(value: int, locale: str | None) -> str:
    """``1,500`` / ``1.500`` / ``1 500``."""
    return numbers.format_decimal(value, locale=babel_locale(locale))


def decimal(value: float, locale: str | None, digits: int = 1, *, signed: bool = False) -> str:
    """``value`` with exactly ``digits`` decimals in the locale's digits and separators;
    ``signed`` writes ``+`` before a positive value (and ``−`` before a negative one)."""
    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    text = numbers.format_decimal(
        round(value, digits), format=pattern, locale=babel_locale(locale), decimal_quantization=True
    )
    text = text.replace("-", MINUS)
    if signed and not text.startswith(MINUS) and round(value, digits) != 0:
        text = "+" + text
    return text


def percent(fraction: float, locale: str | None, digits: int = 1) -> str:
    """``0.123`` as ``12.3%`` / ``12,3 %`` / ``%12,3`` (Turkish)."""
    where = babel_locale(locale)
    # The locale's own pattern (its spacing and the side the sign stands on), with our digits.
    pattern = numbers.parse_pattern(where.percent_formats[None].pattern)
    pattern.frac_prec = (digits, digits)
    return str(pattern.apply(fraction, where)).replace("-", MINUS)


def duration(seconds: float, locale: str | None) -> str:
    """A span in words, rounded to its largest unit: ``3 hours``, ``3 Stunden``, ``3 часа``."""
    return dates.format_timedelta(
        datetime.timedelta(seconds=seconds), locale=babel_locale(locale), threshold=1.0
    )


def day(date: datetime.date, locale: str | None) -> str:
    """A calendar day: ``Nov 28, 2026``, ``28.11.2026``, ``28 нояб. 2026 г.``."""
    return dates.format_date(date, format="medium", locale=babel_locale(locale))
