"""/help is composed from the registry: its intro lists every registered game, and what a game
adds to a command's line comes from that game's own catalogue (``help.<command>.<kind>``)."""

from __future__ import annotations

import pytest

from bot import games
from bot.i18n import available_locales, tr
from cogs.info import game_details, help_embed
from tests.toy_game import GAME as TOY


@pytest.mark.usefixtures("toy_registered")
@pytest.mark.parametrize("locale", available_locales())
def test_help_lists_every_registered_game_within_discords_limits(locale: str) -> None:
    embed = help_embed(locale)
    assert embed.description is not None and len(embed.description) <= 4096
    for game in games.all():
        assert f"**{game.title}**" in embed.description
    assert TOY.title in [game.title for game in games.all()]
    assert all(len(field.value or "") <= 1024 for field in embed.fields)
    assert len(embed) <= 6000
    # The toy game adds nothing to any command: no line names it.
    assert not any(TOY.title in (field.value or "") for field in embed.fields)


@pytest.mark.parametrize("locale", available_locales())
def test_a_games_own_help_lines_go_under_the_command(locale: str) -> None:
    play = next(
        line
        for field in help_embed(locale).fields
        for line in (field.value or "").splitlines()
        if line.startswith("`/play ")
    )
    for game in games.all():
        assert f" {game.title}: {tr(f'help.play.{game.kind}', locale)}." in play
    assert game_details("verify", locale) == ""  # no game adds to /verify
