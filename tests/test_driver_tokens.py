"""The end-to-end driver reads the buttons the way the bot makes them: over seeded games of
random clicks through each game's own menu, every token the menu offers is written and read
back by the driver as the bot does, and the driver files each click as the bot's log files
the action it resolves to (a roll, a move, a cube decision; nothing for a draft-only click).
A token a game adds or renames without the driver knowing it fails here, not in a game."""

from __future__ import annotations

import random

import pytest

from bot import games
from bot.engines.common import Phase, Roll
from bot.games import AnyGame
from bot.games.menu import Choice, DoAction, Draft
from bot.games.spec import Asked
from bot.ui.buttons import GameClick, game_button
from tests.driver.boards import game_click
from tests.driver.tokens import CLICK_WEIGHTS, LUDO_MOVE, UR_MOVE, click_kind

SEEDS = range(6)
STEPS = 600


def offered_over_a_game(game: AnyGame, seed: int) -> list[tuple[str, str | None, object]]:
    """(token, the log's kind of what it does or None, the action) for every button the
    game's menu offers along a game of random clicks."""
    rng = random.Random(seed)
    state, draft = game.rules.new_game(game.options.parse(Asked())), Draft()
    seen: list[tuple[str, str | None, object]] = []
    for _ in range(STEPS):
        if state.phase == Phase.FINISHED:
            break
        choices: list[Choice] = game.menu.choices(state, draft)
        for choice in choices:
            resolution = game.menu.resolve(state, draft, choice.token)
            if isinstance(resolution, DoAction):
                action = resolution.action
                seen.append((choice.token, game.action_kind(action), action))
            else:
                seen.append((choice.token, None, None))
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
def test_the_driver_files_every_offered_token_as_the_log_does(game: AnyGame) -> None:
    offered = [entry for seed in SEEDS for entry in offered_over_a_game(game, seed)]
    assert {kind for _, kind, _ in offered} >= {"roll", "move"}
    for token, kind, action in offered:
        assert click_kind(token) == kind, (game.kind, token, action)
        assert game_click(game_button("0123abcd", 7, token).custom_id) == GameClick(
            "0123abcd", 7, token
        )
        if (ur_move := UR_MOVE.match(token)) and kind == "move":
            assert getattr(action, "source", None) == int(ur_move[1]), (token, action)
        if (ludo_move := LUDO_MOVE.match(token)) and kind == "move":
            wanted = (getattr(action, "die", None), getattr(action, "token", None))
            assert wanted == (int(ludo_move[1]), int(ludo_move[2])), (token, action)


def test_the_players_weights_name_tokens_the_menus_offer() -> None:
    offered = {
        token
        for game in games.all()
        for seed in SEEDS
        for token, _, _ in offered_over_a_game(game, seed)
    }
    assert set(CLICK_WEIGHTS) <= offered, set(CLICK_WEIGHTS) - offered
