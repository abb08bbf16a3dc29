"""Leaderboards as embeds, paged with persistent buttons (``tabula:lb:<page>:<game>-<scope>``)."""

from __future__ import annotations

from typing import Any

import discord

from bot import games
from bot.i18n import tr
from bot.service.models import Choice
from bot.ui.buttons import LEADERBOARD, LeaderboardPage, Route, build_view, leaderboard_button
from bot.ui.clicks import Clicks
from bot.ui.component import Component
from bot.ui.replies import locale_of
from bot.ui.services import Services
from bot.ui.standings import leaderboard_line
from bot.vocabulary.bounds import LEADERBOARD_PAGE
from bot.vocabulary.errors import MalformedButton

SCOPES = {"server": "s", "global": "g"}


class LeaderboardUI(Component):
    def __init__(self, services: Services, clicks: Clicks) -> None:
        self.ratings = services.ratings
        self.routes = [Route(LEADERBOARD, clicks.guard(self._on_page, kind="leaderboard page"))]

    async def _on_page(
        self, interaction: discord.Interaction[Any], fields: LeaderboardPage, on_message: bool
    ) -> None:
        await self.on_button(interaction, fields.board, fields.page)

    async def page(
        self, interaction: discord.Interaction[Any], game: str, scope: str, page: int
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        locale = locale_of(interaction)
        guild_id = interaction.guild_id if scope == "server" else None
        board = await self.ratings.leaderboard(game, guild_id, page)
        title_key = "leaderboard.title_server" if guild_id else "leaderboard.title_global"
        embed = discord.Embed(
            title=tr(title_key, locale, game=games.get(game).title), colour=discord.Colour.gold()
        )
        if not board.rows:
            embed.description = tr("leaderboard.empty", locale)
        else:
            embed.description = "\n".join(leaderboard_line(game, row, locale) for row in board.rows)
        embed.set_footer(text=tr("leaderboard.footer", locale, page=board.page, pages=board.pages))
        key = f"{game}-{SCOPES[scope]}"
        buttons = []
        if board.page > 1:
            buttons.append(
                (
                    leaderboard_button(board.page - 1, key),
                    Choice("prev", tr("button.previous", locale)),
                )
            )
        if board.page < board.pages:
            buttons.append(
                (
                    leaderboard_button(board.page + 1, key),
                    Choice("next", tr("button.next", locale)),
                )
            )
        return embed, build_view(buttons) if buttons else None

    async def on_button(self, interaction: discord.Interaction[Any], key: str, page: int) -> None:
        game, _, scope_code = key.partition("-")
        scope = next((name for name, code in SCOPES.items() if code == scope_code), None)
        if game not in games.kinds() or scope is None or not LEADERBOARD_PAGE.holds(page):
            raise MalformedButton()  # a page no button of ours was drawn with
        embed, view = await self.page(interaction, game, scope, page)
        await interaction.response.edit_message(embed=embed, view=view)
