"""Post-game review in Discord. ``/review`` and the Review button land here; the game's
manifest says whether it has a review and which function shows it (``ReviewSpec.present``).

Backgammon's is :func:`show_backgammon`: acknowledge at once, review in the worker pool, then
show the numbers, a win-probability chart and the three costliest decisions as board cards."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
from PIL import Image

from bot.i18n import tr
from bot.service.models import Game
from bot.service.review import ReviewUnavailable
from bot.ui.buttons import REVIEW, Fields
from bot.ui.clicks import Clicks
from bot.ui.replies import locale_of
from bot.ui.services import Services
from renderers import PlayerInfo
from renderers.review import decision_card, win_chart


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=False, compress_level=3)
    return buffer.getvalue()


class ReviewUI:
    def __init__(self, services: Services, clicks: Clicks) -> None:
        self.services = services
        self.reviews = services.reviews
        self.games = services.games
        self.items = [REVIEW.bind(clicks.guard(self._on_review, kind="review"))]

    async def _on_review(
        self, interaction: discord.Interaction[Any], fields: Fields, on_message: bool
    ) -> None:
        await self.show(interaction, fields["game_id"])

    async def show(self, interaction: discord.Interaction[Any], typed: str) -> None:
        locale = locale_of(interaction)
        # An unknown id or a game that cannot be reviewed is refused before "Reviewing…".
        game_id = await self.reviews.check(
            typed, guild_id=interaction.guild_id, user_id=interaction.user.id
        )
        game = await self.games.load(game_id)
        review = game.spec.review
        if review is None:  # reviews.check refuses these; a game cannot lose its review
            raise ReviewUnavailable("error.review_backgammon_only")
        await review.presenter()(self.services, interaction, game, locale)


async def show_backgammon(
    services: Services, interaction: discord.Interaction[Any], game: Game, locale: str | None
) -> None:
    """Answer ``interaction`` with the expert's review of the finished backgammon ``game``."""
    reviews, game_id = services.reviews, game.id
    await interaction.response.defer(ephemeral=True, thinking=True)  # a review takes seconds
    if await reviews.cached(game_id) is None:
        await interaction.edit_original_response(content=tr("review.working", locale))
    review = await reviews.review(game_id)
    names = [seat.name for seat in game.seats]
    embed = discord.Embed(
        title=tr("review.title", locale, game=game_id), colour=discord.Colour.teal()
    )
    for player in review.players:
        embed.add_field(
            name=f"{names[player.seat]} ({game.rules.SEATS[player.seat]})",
            value=tr(
                "review.player",
                locale,
                pr=f"{player.pr:.1f}",
                rate=f"{player.error_rate_mp:.1f}",
                decisions=player.decisions,
                errors=player.errors,
                blunders=player.blunders,
                luck=f"{player.luck_mp:+.0f}",
            ),
            inline=True,
        )
    worst = sorted(
        (d for p in review.players for d in p.worst), key=lambda d: d.loss_mp, reverse=True
    )[:3]
    for decision in worst:
        embed.add_field(
            name=tr(
                "review.decision",
                locale,
                name=names[decision.seat],
                dice="-".join(map(str, decision.dice)) or "cube",
            ),
            value=tr(
                "review.decision_text",
                locale,
                played=decision.played,
                best=decision.best,
                loss=f"{decision.loss_mp:.0f}",
            ),
            inline=False,
        )
    players = [PlayerInfo(s.name, s.seat) for s in game.seats]
    cards = [await reviews.decision_state(game_id, d) for d in worst]

    def draw() -> list[tuple[str, bytes]]:
        files = [("chart.png", _png(win_chart(review.series, names)))]
        for index, (state, d) in enumerate(cards, start=1):
            card = decision_card(
                state,
                d.played_steps,
                d.best_steps,
                played=d.played,
                best=d.best,
                loss_mp=d.loss_mp,
                players=players,
            )
            files.append((f"decision-{index}.png", _png(card)))
        return files

    images = await asyncio.to_thread(draw)
    embed.set_image(url="attachment://chart.png")
    embed.set_footer(text=tr("review.footer", locale))
    await interaction.edit_original_response(
        content=None,
        embed=embed,
        attachments=[discord.File(io.BytesIO(data), filename=name) for name, data in images],
    )
