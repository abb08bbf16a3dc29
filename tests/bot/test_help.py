"""/help is composed from the registry: its intro lists every registered game, and what a game
adds to a command's line comes from that game's own catalogue (``help.<command>.<kind>``)."""

from __future__ import annotations

import pytest

from bot import games
from bot.i18n import available_locales, tr
from cogs.info import (
    CUT,
    EMBED_LIMIT,
    FIELD_LIMIT,
    HELP_GROUPS,
    Details,
    game_details,
    game_help_embed,
    help_embed,
)
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
def test_a_games_own_help_lines_go_under_the_command_in_its_own_help(locale: str) -> None:
    general = "\n".join(field.value or "" for field in help_embed(locale).fields)
    assert "/help game:" in (help_embed(locale).description or "")
    for game in games.all():
        assert f" {game.title}: " not in general  # the general /help names no game's details
        embed = game_help_embed(locale, game)
        assert all(0 < len(field.value or "") <= FIELD_LIMIT for field in embed.fields)
        assert len(embed) <= EMBED_LIMIT and CUT not in str(embed.fields)
        play = next(
            line
            for field in embed.fields
            for line in (field.value or "").splitlines()
            if line.startswith("`/play ")
        )
        assert f" {game.title}: {tr(f'help.play.{game.kind}', locale)}." in play
        others = [g for g in games.all() if g is not game]
        assert not any(f" {g.title}: " in str(embed.fields) for g in others)
    assert game_details("verify", locale) == ""  # no game adds to /verify


@pytest.mark.parametrize("locale", available_locales())
def test_a_solved_games_help_says_whether_its_table_is_here(locale: str) -> None:
    for game in games.all():
        description = game_help_embed(locale, game).description or ""
        if game.solved and not game.table_ready():
            assert tr("table.missing", locale, **game.table_missing) in description
        elif not game.solved:
            assert tr("table.ready", locale) not in description


def _many_games(count: int, length: int, commands: tuple[str, ...] = ()) -> Details:
    """``count`` games that each add a piece of about ``length`` characters to every line
    (or to those of ``commands``)."""

    def details(command: str, locale: str) -> list[str]:
        if commands and command not in commands:
            return []
        return [f" Game {n}: {command} {'x' * length}." for n in range(count)]

    return details


@pytest.mark.parametrize("locale", available_locales())
@pytest.mark.parametrize(("count", "length"), [(1, 40), (4, 60), (12, 30), (40, 80), (3, 2000)])
def test_however_many_games_add_lines_every_field_and_the_whole_fit(
    locale: str, count: int, length: int
) -> None:
    embed = help_embed(locale, _many_games(count, length))
    assert all(0 < len(field.value or "") <= FIELD_LIMIT for field in embed.fields)
    assert all(len(field.name or "") <= 256 for field in embed.fields)
    assert len(embed.fields) <= 25
    assert len(embed) <= EMBED_LIMIT
    text = "\n".join(field.value or "" for field in embed.fields)
    # Every command is still listed, and each line's games follow in order.
    for _, names in HELP_GROUPS:
        for name in names:
            assert tr(f"help.command.{name}", locale, details="").split("`")[1] in text
    assert " Game 0: challenge" in text  # the first command's details always fit


@pytest.mark.parametrize("locale", available_locales())
def test_details_left_out_for_room_are_marked_and_the_rest_kept(locale: str) -> None:
    few = help_embed(locale, _many_games(2, 20, ("play", "review")))
    assert CUT not in "".join(field.value or "" for field in few.fields)
    assert all(f" Game 1: {name} " in str(few.fields) for name in ("play", "review"))
    many = help_embed(locale, _many_games(40, 80))
    text = "".join(field.value or "" for field in many.fields)
    assert text.count(CUT) == 1
    assert len(many) > EMBED_LIMIT - 200  # cut only as far as needed
