"""The games' menus write nothing in a language: a button's label is a catalogue key, which the
UI writes in the board's language, or text that is the same in every language (a move's
notation, a point number, the board's own marker words)."""

from __future__ import annotations

import random
import re

import discord
import pytest

from bot import games
from bot.engines.common import Phase, Roll
from bot.games.menu import Choice, DoAction, Draft
from bot.games.spec import Asked, GameSpec
from bot.i18n import catalogue, tr
from bot.ui.buttons import build_view, game_button
from bot.vocabulary.errors import Msg, msg

# Words printed on the boards' markers too, so a button matches its marker in any language.
MARKER_WORDS = re.compile(r"\b(bar|off|enter)\b")


def labels_over_a_game(game: GameSpec, seed: int, steps: int = 400) -> list[str | Msg]:
    """Every label the game's menu offers along a game of random clicks."""
    rng = random.Random(seed)
    state, draft = game.rules.new_game(game.options.parse(Asked())), Draft()
    seen: list[str | Msg] = []
    for _ in range(steps):
        if state.phase == Phase.FINISHED:
            break
        choices: list[Choice] = game.menu.choices(state, draft)
        seen += [choice.label for choice in choices]
        resolution = game.menu.resolve(state, draft, rng.choice(choices).token)
        if isinstance(resolution, DoAction):
            action = resolution.action
            if isinstance(action, Roll):
                action = game.rules.roll(state, rng)
            state, draft = game.rules.apply(state, action), Draft()
        else:
            draft = resolution.draft
    return seen


@pytest.mark.parametrize("game", games.all(), ids=lambda g: g.kind)
def test_labels_are_keys_or_the_same_in_every_language(game: GameSpec) -> None:
    english, german = catalogue("en"), catalogue("de")
    labels = [label for seed in range(3) for label in labels_over_a_game(game, seed)]
    keys = {label.key for label in labels if isinstance(label, Msg)}
    assert "button.roll" in keys
    assert keys <= set(english) and keys <= set(german)
    for text in (label for label in labels if isinstance(label, str)):
        assert not re.search(r"[A-Za-z]", MARKER_WORDS.sub("", text)), text


def label_of(view: discord.ui.View) -> str | None:
    (item,) = view.children
    assert isinstance(item, discord.ui.DynamicItem)
    return item.item.label


def test_the_ui_writes_a_key_label_in_the_boards_language() -> None:
    button = game_button("0123abcd", 3, "roll")
    choice = Choice("roll", msg("button.roll"), "primary")
    for locale in ("en", "de"):
        assert label_of(build_view([(button, choice)], locale)) == tr("button.roll", locale)
    assert tr("button.roll", "de") != tr("button.roll", "en")
    plain = Choice("s13", "13")
    assert label_of(build_view([(game_button("0123abcd", 3, "s13"), plain)], "de")) == "13"
