"""/rules and /help: the bot explains itself."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands

from bot import games
from bot.games import AnyGame
from bot.i18n import DEFAULT_LOCALE, catalogue, tr
from bot.ui.game_choices import game_choices
from bot.ui.replies import follow_up, locale_of
from cogs.base import TabulaCog, anywhere
from renderers.rule_pictures import picture_pngs

if TYPE_CHECKING:
    from bot.client import TabulaBot

# /help in the order a newcomer meets the commands; every registered command must be listed
# (an end-to-end test compares this with the commands the bot syncs).
HELP_GROUPS: Final = (
    ("playing", ("challenge", "play", "games", "tournament")),
    ("in_game", ("board", "hint", "resign", "prefs")),
    ("records", ("leaderboard", "stats", "export", "verify", "review")),
    ("train", ("analyze", "puzzle", "puzzles", "train")),
    ("server", ("settings", "fairplay")),
    ("info", ("rules", "help")),
)


class Info(TabulaCog):
    @app_commands.command(description="A short illustrated summary of a game's rules.")
    @anywhere
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=game_choices())
    async def rules(self, interaction: discord.Interaction[Any], game: str) -> None:
        """The rules in words, then one picture per rule (entering, capturing, ...), each
        with a one-line caption; the pictures are drawn once and cached."""
        locale = locale_of(interaction)
        spec = games.get(game)
        await interaction.response.defer(ephemeral=True, thinking=True)
        pictures = await asyncio.to_thread(picture_pngs, spec.rule_pictures, spec.renderer)
        # Components V2, as the boards: one container, the rules in words, then each picture
        # under its caption (which is also the picture's alt text).
        title = tr("rules.title", locale, game=spec.title)
        summary = spec.rules_summary(locale) + solved_table_note(spec, locale)
        container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
            accent_colour=discord.Colour.dark_gold()
        )
        container.add_item(discord.ui.TextDisplay(f"## {title}\n{summary}"[:2000]))
        files = []
        for number, (caption_key, png) in enumerate(pictures, start=1):
            filename = f"{game}-rules-{number}.png"
            caption = tr(caption_key, locale)
            gallery: discord.ui.MediaGallery[discord.ui.LayoutView] = discord.ui.MediaGallery()
            gallery.add_item(media=f"attachment://{filename}", description=caption[:1024])
            container.add_item(discord.ui.TextDisplay(caption))
            container.add_item(gallery)
            files.append(discord.File(io.BytesIO(png), filename=filename))
        layout = discord.ui.LayoutView(timeout=None)
        layout.add_item(container)
        await follow_up(interaction, files=files, view=layout)

    @app_commands.command(name="help", description="What Tabula can do and how to start.")
    @anywhere
    @app_commands.describe(game="A game: what each command offers in it")
    @app_commands.choices(game=game_choices())
    async def help_command(
        self, interaction: discord.Interaction[Any], game: str | None = None
    ) -> None:
        locale = locale_of(interaction)
        embed = help_embed(locale) if game is None else game_help_embed(locale, games.get(game))
        await interaction.response.send_message(embed=embed, ephemeral=True)


def solved_table_note(spec: AnyGame, locale: str | None) -> str:
    """For a game with a solved table: whether it is installed, and if not, how to."""
    if not spec.solved:
        return ""
    if spec.table_ready():
        return "\n\n" + tr("table.ready", locale)
    return "\n\n" + tr("table.missing", locale, **spec.table_missing)


FIELD_LIMIT: Final = 1024  # Discord's limit on an embed field's value
EMBED_LIMIT: Final = 6000  # and on an embed's text in all
CONTINUED: Final = "\u200b"  # the name of a group's further fields: Discord needs one, shown blank
CUT: Final = " …"  # where games' details were left out for room

Details = Callable[[str, str], list[str]]
"""``details(command, locale)``: what each game adds to ``command``'s line, a piece a game."""


def game_detail_pieces(command: str, locale: str, only: AnyGame | None = None) -> list[str]:
    """What each game (or ``only`` that one) adds to ``command``'s line in /help, from its
    own catalogue's ``help.<command>.<kind>`` (" Backgammon: also expert."); a game without it
    is not named."""
    known = catalogue(DEFAULT_LOCALE)
    return [
        f" {game.title}: {tr(key, locale)}."
        for game in (games.all() if only is None else (only,))
        if (key := f"help.{command}.{game.kind}") in known
    ]


def game_details(command: str, locale: str) -> str:
    """The games' details of ``command``'s line, joined."""
    return "".join(game_detail_pieces(command, locale))


def _command_lines(base: str, pieces: list[str]) -> list[str]:
    """A command's line with the games' pieces after it, as lines of at most a field each:
    the pieces that do not fit go on lines of their own below it."""
    lines = [base]
    for piece in pieces:
        piece = piece[: FIELD_LIMIT - 1]
        if len(lines[-1]) + len(piece) > FIELD_LIMIT:
            lines.append("↳" + piece)
        else:
            lines[-1] += piece
    return lines


def _fields(lines: list[str]) -> list[str]:
    """``lines`` packed into as few field values of at most :data:`FIELD_LIMIT` as keep
    each line whole."""
    values = [""]
    for line in lines:
        if values[-1] and len(values[-1]) + 1 + len(line) > FIELD_LIMIT:
            values.append(line)
        else:
            values[-1] = f"{values[-1]}\n{line}" if values[-1] else line
    return values


def _compose(
    title: str, locale: str, intro: str, pieces: dict[str, list[str]], shown: int
) -> discord.Embed:
    """/help with the first ``shown`` of the games' pieces (in the order of the commands);
    where some are left out, the last line shown ends with :data:`CUT`."""
    embed = discord.Embed(title=title, description=intro, colour=discord.Colour.dark_gold())
    left = shown
    for group, names in HELP_GROUPS:
        lines: list[str] = []
        for name in names:
            mine = pieces[name][: max(left, 0)]
            if len(mine) < len(pieces[name]) and left >= 0:
                mine = [*mine, CUT]
                left = -1  # the cut is shown once
            elif left >= 0:
                left -= len(mine)
            lines += _command_lines(tr(f"help.command.{name}", locale, details=""), mine)
        for number, value in enumerate(_fields(lines)):
            name = tr(f"help.group.{group}", locale) if number == 0 else CONTINUED
            embed.add_field(name=name, value=value, inline=False)
    # The skill record's figures in words (/stats, the PR board, /fairplay use them).
    embed.add_field(
        name=tr("help.group.formulas", locale), value=tr("help.formulas", locale), inline=False
    )
    return embed


def _no_details(command: str, locale: str) -> list[str]:
    return []


def help_embed(locale: str, details: Details = _no_details) -> discord.Embed:
    """Every command, grouped, and the games from the registry. What each game adds to a
    command (its levels, options, hints) is ``/help game:``'s (:func:`game_help_embed`): with
    a dozen games those lines alone would pass Discord's 6,000 characters an embed.

    With ``details``, however many games add to a line, no field passes Discord's 1,024
    characters (a group goes on in further fields, a line's games on lines of their own) and
    the whole stays within 6,000 (the details last in the order of the commands are left out,
    marked)."""
    titles = ", ".join(f"**{game.title}**" for game in games.all())
    intro = tr("help.intro", locale, games=titles) + "\n\n" + tr("help.per_game", locale)
    return _fitted(tr("help.title", locale), intro, locale, details)


def game_help_embed(locale: str, game: AnyGame) -> discord.Embed:
    """Every command, grouped, each with what ``game`` adds to it (from the game's own
    catalogue), and for a game with a solved table whether it is installed here."""

    def details(command: str, locale: str) -> list[str]:
        return game_detail_pieces(command, locale, game)

    intro = tr("help.intro", locale, games=f"**{game.title}**")
    intro += solved_table_note(game, locale)
    return _fitted(tr("help.game_title", locale, game=game.title), intro, locale, details)


def _fitted(title: str, intro: str, locale: str, details: Details) -> discord.Embed:
    pieces = {name: details(name, locale) for _, names in HELP_GROUPS for name in names}
    shown = sum(len(p) for p in pieces.values())
    embed = _compose(title, locale, intro, pieces, shown)
    while len(embed) > EMBED_LIMIT and shown > 0:
        shown -= 1
        embed = _compose(title, locale, intro, pieces, shown)
    return embed


async def setup(bot: TabulaBot) -> None:
    await bot.add_cog(Info(bot))
