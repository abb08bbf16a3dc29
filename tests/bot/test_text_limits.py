"""Every reply fits Discord's limits: a quoted input is clipped, a sentence past 2,000
characters (4,000 in a V2 message's text) is cut at a safe place, in every language."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n import tr
from bot.ui.replies import error_text
from bot.ui.text_limits import (
    ELLIPSIS,
    MESSAGE_LIMIT,
    QUOTE_LIMIT,
    TEXT_DISPLAY_LIMIT,
    clip,
    units,
)
from bot.vocabulary.errors import ChallengeRefused, GameNotFound, IllegalAction, msg

LOCALES = ("en", "de")


def open_markup(text: str) -> list[str]:
    """The Markdown ``text`` leaves open (what the clip must never leave)."""
    found = []
    if text.count("```") % 2:
        found.append("```")
    rest = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    if rest.count("`") % 2:
        found.append("`")
    plain = re.sub(r"\\.", "", re.sub(r"`[^`]*`", "", rest), flags=re.DOTALL)
    found += [m for m in ("**", "__", "~~", "||") if plain.count(m) % 2]
    return found


def test_short_text_is_left_alone() -> None:
    assert clip("hello") == "hello"
    assert clip("x" * MESSAGE_LIMIT) == "x" * MESSAGE_LIMIT


def test_long_text_is_cut_with_an_ellipsis() -> None:
    cut = clip("x" * 5000)
    assert cut.endswith(ELLIPSIS) and units(cut) <= MESSAGE_LIMIT
    assert units(clip("y" * 5000, TEXT_DISPLAY_LIMIT)) == TEXT_DISPLAY_LIMIT


def test_an_astral_character_counts_twice_and_is_never_split() -> None:
    text = "😀" * 1500  # 3,000 UTF-16 code units
    cut = clip(text)
    assert units(cut) <= MESSAGE_LIMIT
    assert set(cut[:-1]) == {"😀"}


def test_a_letter_keeps_its_combining_marks_and_a_zwj_sequence_stays_whole() -> None:
    accented = "e\u0301" * 1500
    cut = clip(accented, 101)
    assert not cut[:-1].endswith("e")  # never a letter without its mark
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one emoji of five code points
    cut = clip(family * 400, 100)
    assert cut[:-1].endswith("\U0001f467") or cut == ELLIPSIS


@pytest.mark.parametrize("marker", ["`", "**", "__", "~~", "||"])
def test_a_cut_never_leaves_markup_open(marker: str) -> None:
    text = "a" * 1990 + marker + "b" * 200 + marker
    cut = clip(text)
    assert open_markup(cut) == [], cut[-30:]
    assert units(cut) <= MESSAGE_LIMIT


def test_a_cut_inside_a_code_block_drops_the_block() -> None:
    text = "intro\n```\n" + "line\n" * 1000 + "```"
    cut = clip(text)
    assert open_markup(cut) == [] and cut.startswith("intro")


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["a", " ", "`", "*", "_", "~", "|", "\\", "😀", "e\u0301", "\n"]),
        max_size=400,
    ).map("".join),
    st.integers(min_value=1, max_value=300),
)
def test_any_text_is_cut_to_its_limit_and_balanced(text: str, limit: int) -> None:
    cut = clip(text, limit)
    assert units(cut) <= max(limit, 1)
    if cut != text:
        assert cut.endswith(ELLIPSIS)
        assert open_markup(cut) == [], repr(cut)
        assert text.startswith(cut[: -len(ELLIPSIS)].rstrip().rstrip("\\")) or not cut[:-1]


@pytest.mark.parametrize("locale", LOCALES)
def test_a_refusal_quotes_a_long_input_clipped(locale: str) -> None:
    typed = "1" * 3000 + "-"
    text = error_text(ChallengeRefused("challenge.bad_rating_range", text=typed), locale)
    assert units(text) <= MESSAGE_LIMIT
    assert "1" * QUOTE_LIMIT not in text and "1" * (QUOTE_LIMIT - 2) in text
    assert ELLIPSIS in text
    assert open_markup(text) == [], text
    # The sentence around the quote is whole: it is the input that was cut.
    assert text.endswith(tr("challenge.bad_rating_range", locale, text="X").split("X")[-1])


@pytest.mark.parametrize("locale", LOCALES)
def test_a_refusal_with_a_long_reason_fits_a_message(locale: str) -> None:
    reason = msg("error.no_such_game", game="`" + "f" * 5000)
    text = error_text(IllegalAction(reason=reason), locale)
    assert units(text) <= MESSAGE_LIMIT and open_markup(text) == []


@pytest.mark.parametrize("locale", LOCALES)
def test_a_short_refusal_is_word_for_word(locale: str) -> None:
    error = GameNotFound("error.no_such_game", game="1a2b3c4d")
    assert error_text(error, locale) == tr("error.no_such_game", locale, game="1a2b3c4d")
