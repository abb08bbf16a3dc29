"""The matcher the language e2e tests rely on finds English catalogue sentences, rendered with
any values, and lets the language's own sentences and the kept ones through."""

from __future__ import annotations

from bot import games  # noqa: F401  (registers the games' catalogues)
from bot.i18n import tr
from tests.e2e.english_sentences import english_in, kept_keys, line_pattern


def test_a_rendered_english_sentence_is_caught() -> None:
    shown = tr("text.to_move", "en", name="Ana (white)", dice="5-3")
    found = english_in([f"some French first\n{shown}"], "fr")
    assert "text.to_move" in {f.key for f in found}


def test_an_english_game_sentence_is_caught() -> None:
    # Ludo's own catalogue (bot/games/locales/ludo), read through the merged catalogue.
    shown = tr("reason.token_cannot_move", "en", token=2, die=5)
    found = english_in([f"Refusé : {shown}"], "hi")
    assert [f.key for f in found] == ["reason.token_cannot_move"], found


def test_the_locales_own_sentences_pass() -> None:
    for locale in ("fr", "ru", "hi", "pt-BR"):
        shown = [
            tr("text.to_move", locale, name="Ana (blanc)", dice="5-3"),
            tr("error.stale", locale),
            tr("text.footer", locale, game_id="0123abcd", move=12),
        ]
        assert english_in(shown, locale) == [], locale


def test_short_fixed_parts_and_kept_keys_are_not_looked_for() -> None:
    assert line_pattern("{name} · {rating}") is None
    assert line_pattern("PR {pr}") is None
    assert line_pattern("{name} wins") is not None
    # A count is a number; a command's option in code is no sentence.
    assert english_in(["1 game"], "fr") and not english_in(["`/rules game:ur`"], "fr")
    assert "text.finished" in kept_keys("fr")
    # A word inside a longer word is no English word.
    pattern = line_pattern("{name} wins")
    assert pattern is not None and not pattern.search("Ana winsome")
