"""The manifest fields that replaced the edits a new game once needed outside its folder: its
/challenge options as data, its AI levels from the one vocabulary, the kinds its own actions
are logged under, the rolls the table makes for it, the end of one game of a match, and its
seats' accent colours."""

from __future__ import annotations

import itertools

import pytest

from bot import games
from bot.ai.levels import LEVELS, ONE_LOOK, OWN
from bot.engines import backgammon as bg
from bot.engines.common import Abandon, Resign, Roll
from bot.games.spec import Asked, GameSpec
from bot.ui.game_choices import level_choices
from bot.vocabulary.bounds import BadOption
from bot.vocabulary.options import HINTS

ASKED = [
    Asked(points, cube, hints)
    for points, cube, hints in itertools.product((1, 3, 25), (True, False), (True, False))
]


@pytest.mark.parametrize("game", games.all(), ids=lambda g: g.kind)
def test_stored_options_read_back_as_what_was_asked(game: GameSpec) -> None:
    for asked in ASKED:
        stored = game.options.parse(asked)
        read = game.options.read(stored)
        assert read.hints == asked.hints and (HINTS in stored) == asked.hints
        assert read.points == (asked.points if game.options.points else 1)
        assert read.cube == (asked.cube if game.options.cube else True)
        assert set(stored) <= game.options.keys


def test_each_game_says_which_challenge_options_it_takes() -> None:
    backgammon, ur, ludo = (games.get(kind).options for kind in ("backgammon", "ur", "ludo"))
    assert (backgammon.points, backgammon.cube) == ("match_length", "cube")
    assert ur.points is ur.cube is ludo.points is ludo.cube is None
    match = backgammon.parse(Asked(5, False, True))
    assert match == {"match_length": 5, "cube": False, HINTS: True}
    assert [m.key for m in backgammon.describe(match)] == [
        "options.match",
        "options.cube_off",
        "options.hints",
    ]
    assert [m.key for m in backgammon.describe(backgammon.parse(Asked()))] == [
        "options.single",
        "options.cube_on",
    ]
    assert [m.key for m in ur.describe(ur.parse(Asked(hints=True)))] == ["options.hints"]
    assert ludo.describe(ludo.parse(Asked(points=7))) == []


def test_the_ai_levels_are_named_once_and_play_offers_every_games() -> None:
    for game in games.all():
        assert game.ai_levels[: len(OWN)] == OWN
        assert set(game.ai_levels) <= set(LEVELS)
        assert list(game.ai_levels) == [level for level in LEVELS if level in game.ai_levels]
    offered = [choice.value for choice in level_choices()]
    assert offered == [lv for lv in LEVELS if any(lv in g.ai_levels for g in games.all())]
    assert {"expert", "perfect"} <= set(offered) and set(OWN) > ONE_LOOK


def test_shared_actions_are_logged_by_their_kind_and_a_games_own_as_it_says() -> None:
    backgammon, ur = games.get("backgammon"), games.get("ur")
    for game in (backgammon, ur):
        assert game.action_kind(Roll((1, 2))) == "roll"
        assert game.action_kind(Resign(0)) == "resign"
        assert game.action_kind(Abandon()) == "abandon"
    assert [backgammon.action_kind(a) for a in (bg.Double(), bg.Take(), bg.Drop())] == ["cube"] * 3
    opened = bg.apply(bg.new_game(), Roll((5, 2)))
    assert backgammon.action_kind(bg.legal_actions(opened)[0]) == "move"
    state = ur.rules.apply(ur.rules.new_game(), Roll((1, 1, 0, 0)))
    assert ur.action_kind(ur.rules.legal_actions(state)[0]) == "move"


def test_only_backgammons_opening_is_rolled_by_the_table() -> None:
    backgammon = games.get("backgammon")
    start = bg.new_game({"match_length": 3})
    assert backgammon.rolls_itself(start)
    assert not backgammon.rolls_itself(bg.apply(start, Roll((5, 2))))
    for game in games.all():
        # Backgammon's variants (Nackgammon) open as backgammon does, with its hook.
        if game.rolls_itself is not backgammon.rolls_itself:
            assert not game.rolls_itself(game.rules.new_game({}))


def test_the_end_of_a_game_of_a_match_is_shown_from_the_manifest() -> None:
    backgammon = games.get("backgammon")
    assert backgammon.finished_part is bg.finished_game
    # Backgammon's variants (Nackgammon) are played by its engine: matches as it has them.
    assert all(
        g.finished_part is None
        or (g.finished_part is bg.finished_game and g.rules.apply is bg.apply)
        for g in games.all()
    )


@pytest.mark.parametrize("game", games.all(), ids=lambda g: g.kind)
def test_each_seat_has_an_accent_colour(game: GameSpec) -> None:
    assert len(game.accents) == len(game.seats)
    assert len(set(game.accents)) == len(game.seats)
    assert all(len(rgb) == 3 and all(0 <= c <= 255 for c in rgb) for rgb in game.accents)


@pytest.mark.parametrize("points", [0, -1, 26, 1_000_000_000])
def test_a_match_length_outside_the_commands_bounds_is_never_stored(points: int) -> None:
    backgammon = games.get("backgammon").options
    with pytest.raises(BadOption):
        backgammon.parse(Asked(points=points))
    assert backgammon.parse(Asked(points=25))["match_length"] == 25
