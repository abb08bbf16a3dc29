"""The registry of games: the built-in games in order, each manifest complete and its parts
consistent, and extra games named in ``TABULA_EXTRA_GAMES`` registered at start."""

from __future__ import annotations

import inspect
import os
import string
import subprocess
import sys
from pathlib import Path

import pytest

from bot import games
from bot.engines.common import Phase
from bot.games.spec import Asked, GameSpec
from bot.i18n import catalogue

ROOT = Path(__file__).resolve().parents[2]


def test_the_built_in_games_in_the_order_commands_offer_them() -> None:
    built_in = [spec.kind for spec in sorted(games.built_in(), key=lambda s: (s.order, s.kind))]
    assert list(games.kinds()[: len(built_in)]) == built_in
    kinds = [kind for kind in built_in if kind in ("backgammon", "ur", "ludo")]
    assert kinds == ["backgammon", "ur", "ludo"]
    titles = {g.kind: g.title for g in games.all()}
    assert [titles[kind] for kind in kinds] == ["Backgammon", "Royal Game of Ur", "Ludo"]
    for game in games.all():
        assert games.get(game.kind) is game
        assert game.kind == game.rules.GAME
        assert game.renderer.SEATS == game.seats == game.rules.SEATS


def test_an_unknown_game_is_refused_by_name() -> None:
    with pytest.raises(games.UnknownGame, match="chess"):
        games.get("chess")


@pytest.mark.parametrize("game", games.all(), ids=lambda g: g.kind)
def test_each_manifest_holds_together(game: GameSpec) -> None:
    state = game.rules.new_game(game.options.parse(Asked()))
    assert state.phase == Phase.ROLL or game.rolls_itself(state)
    assert game.ranked_by_place == (len(game.seats) > 2)
    assert "easy" in game.ai_levels
    assert game.file.extension.startswith(".")
    if game.review is not None:
        assert inspect.iscoroutinefunction(game.review.presenter())
    assert game.rules_summary("en") and game.rules_summary("de") != game.rules_summary("en")


CHANCE_REVIEWS = [g for g in games.all() if g.review is not None and g.review.look is not None]


@pytest.mark.parametrize("game", CHANCE_REVIEWS, ids=lambda g: g.kind)
def test_a_chance_review_is_worded_from_both_catalogues(game: GameSpec) -> None:
    assert game.review is not None and game.review.look is not None
    look = game.review.look
    for locale in ("en", "de"):
        words = catalogue(locale)
        assert {look.working, look.move, look.footer} <= set(words)
        assert placeholders(words[look.move]) == {"name", "dice"}


def test_the_hooks_sit_where_the_games_need_them() -> None:
    backgammon, ur, ludo = (games.get(kind) for kind in ("backgammon", "ur", "ludo"))
    assert backgammon.hint is not None and ur.hint is not None and ludo.hint is None
    assert ur.start is not None and backgammon.start is None and ludo.start is None
    assert {"ur", "ludo"} <= {g.kind for g in CHANCE_REVIEWS}  # and any game added since
    assert backgammon.review is not None and backgammon.review.needs_expert


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_no_two_games_share_a_file_type_or_a_name() -> None:
    extensions = [g.file.extension for g in games.all()]
    assert len(set(extensions)) == len(extensions)
    clash = GameSpec(**{**games.get("ur").__dict__, "kind": "ur2"})
    with pytest.raises(ValueError, match="file type"):
        games.register(clash)
    assert "ur2" not in games.kinds()


def test_games_named_in_the_environment_are_registered_at_start() -> None:
    env = {**os.environ, "TABULA_EXTRA_GAMES": " tests.toy_game ,", "PYTHONPATH": str(ROOT)}
    listed = subprocess.run(
        [sys.executable, "-c", "from bot import games; print(' '.join(games.kinds()))"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    built_in = [spec.kind for spec in sorted(games.built_in(), key=lambda s: (s.order, s.kind))]
    assert listed.stdout.split() == [*built_in, "toy"]
