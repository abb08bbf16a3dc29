"""``/analyze`` and the Share position button: positions as text, through the game's
:class:`~bot.games.spec.PositionTools` (only games whose positions travel as IDs have them).

``/analyze`` reads the pasted ID first (a bad one is refused privately, before anything is
acknowledged, and so is a position standing on the board of a live rated game: see
:meth:`~bot.service.games.GameService.refuse_live_position`), then acknowledges (privately
unless ``public``), asks the game's strongest AI in its worker (seconds at most) and edits
in the board and the verdict. Share position answers privately with the IDs of the board
it sits under, as it is now (on a rated game in play: not before it ends).
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from bot import games
from bot.engines.common import GameState
from bot.games import AnyGame
from bot.games.spec import PositionTools
from bot.i18n import tr
from bot.ui.boards import DESCRIPTION_LIMIT
from bot.ui.buttons import CARD_SHARE, SHARE, CardShare, GameClick, Route
from bot.ui.clicks import Clicks
from bot.ui.component import Component
from bot.ui.names import ColourWords
from bot.ui.replies import locale_of
from bot.ui.services import Services
from bot.ui.venues import viewer_of
from bot.vocabulary.errors import TabulaError
from renderers import render_png


def analysed_games() -> list[AnyGame]:
    return [game for game in games.all() if game.positions is not None]


class AnalyzeUI(Component):
    def __init__(self, services: Services, clicks: Clicks) -> None:
        self.services = services
        share = clicks.guard(self._on_share, kind="share position")
        self.routes: list[Route[Any]] = [Route(SHARE, share), Route(CARD_SHARE, share)]

    def _tools(self) -> tuple[AnyGame, PositionTools[GameState]]:
        for game in analysed_games():
            if game.positions is not None:
                return game, game.positions
        raise TabulaError("analyze.not_offered")

    async def analyze(
        self, interaction: discord.Interaction[Any], text: str, public: bool = False
    ) -> None:
        locale = locale_of(interaction)
        game, tools = self._tools()
        state = tools.read(text)  # refused here, privately, before the acknowledgement
        # So is a position on the board of a live rated game: one indexed read.
        await self.services.games.refuse_live_position(game.kind, state)
        await interaction.response.defer(ephemeral=not public, thinking=True)
        expert = self.services.games.expert if self.services.expert_enabled else None
        verdict = await tools.analyze(state, expert, locale)
        png = await asyncio.to_thread(
            render_png, state, renderer=game.renderer, perspective=tools.perspective(state)
        )
        filename = "position.png"
        embed = discord.Embed(
            title=tr("analyze.title", locale),
            description=verdict[:4096],
            colour=discord.Colour.dark_gold(),
        )
        embed.set_image(url=f"attachment://{filename}")
        embed.set_footer(text=_footer(tools.share(state, locale)))
        picture = discord.File(
            io.BytesIO(png), filename=filename, description=position_alt(game, state, locale)
        )
        await interaction.followup.send(embed=embed, file=picture)

    async def _on_share(
        self, interaction: discord.Interaction[Any], fields: GameClick | CardShare, on_message: bool
    ) -> None:
        """Share position: the IDs of the board the button sits under (a review card's: the
        board before its action). Only of a game the clicker may see: a forged id of another
        server's game or someone's DM game is refused as an unknown one."""
        game = await self.services.games.find(fields.game_id, viewer_of(interaction))
        tools = game.spec.positions
        if tools is None:
            raise TabulaError("analyze.not_offered")
        if game.rated and not game.finished:
            raise TabulaError("share.live_rated")  # its IDs would take it to an engine
        state = (
            await self.services.reviews.state_before(game.id, fields.index)
            if isinstance(fields, CardShare)
            else game.state
        )
        await interaction.response.send_message(
            tools.share(state, locale_of(interaction)), ephemeral=True
        )


def position_alt(game: AnyGame, state: GameState, locale: str | None) -> str:
    """The analysed board's alt text: the position as the game describes its boards (the
    seats by colour: the position has no players), else the analysis's title."""
    words = game.texts.describe(state, ColourWords(game.kind, locale))
    return (words or tr("analyze.title", locale))[:DESCRIPTION_LIMIT]


def _footer(ids: str) -> str:
    """The IDs without the Markdown a footer does not render."""
    return ids.replace("`", "")[:2048]
