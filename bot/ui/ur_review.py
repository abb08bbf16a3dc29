"""Ur in Discord from the solved table: the review (each player's accuracy and labels, light's
winning chance over the game, the three costliest moves as board cards). /hint's text is the
game's own (``bot.games.ur_texts``)."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from PIL import Image

from bot.engines import ur
from bot.i18n import tr
from bot.service.models import Game
from bot.service.review_labels import LABELS
from renderers import PlayerInfo
from renderers.ur_review import chance_chart, move_card

if TYPE_CHECKING:
    from bot.ui.services import Services


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=False, compress_level=3)
    return buffer.getvalue()


def _move(state: ur.UrState, text: str) -> ur.Move:
    move = ur.parse(state, text)
    if not isinstance(move, ur.Move):
        raise ValueError(f"A reviewed move reads {text!r}, which is not a move.")
    return move


async def show_ur(
    services: Services, interaction: discord.Interaction[Any], game: Game, locale: str | None
) -> None:
    """Answer ``interaction`` with the review of the finished Ur ``game``."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    if await services.reviews.ur.cached(game.id) is None:
        await interaction.edit_original_response(content=tr("review.ur_working", locale))
    review = await services.reviews.ur_review(game.id)
    names = [seat.name for seat in game.seats]
    embed = discord.Embed(
        title=tr("review.title", locale, game=game.id), colour=discord.Colour.teal()
    )
    for player in review.players:
        counts = ", ".join(
            f"{player.counts[name]} {tr(f'review.label.{name}', locale)}" for name in LABELS
        )
        embed.add_field(
            name=f"{names[player.seat]} ({tr(f'colour.{ur.SEATS[player.seat]}', locale)})",
            value=tr(
                "review.ur_player",
                locale,
                accuracy=f"{player.accuracy:.1f}",
                moves=player.moves,
                counts=counts,
            ),
            inline=True,
        )
    if not review.complete:
        pieces = review.level.rpartition("-")[2]
        embed.description = tr("review.ur_partial", locale, pieces=pieces)
    worst = sorted((m for p in review.players for m in p.worst), key=lambda m: (-m.loss, m.index))
    cards = []
    for move in worst[:3]:
        label = tr(f"review.label.{move.label}", locale)
        loss = f"{100 * move.loss:.1f}"
        embed.add_field(
            name=tr("review.ur_move", locale, name=names[move.seat], roll=move.roll),
            value=tr(
                "review.ur_move_text",
                locale,
                played=move.played,
                best=move.best,
                loss=loss,
                label=label,
            ),
            inline=False,
        )
        state = await services.reviews.ur.move_state(game.id, move)
        verdict = tr("review.ur_card", locale, loss=loss, label=label)
        cards.append((state, _move(state, move.played), _move(state, move.best), verdict))
    players = [PlayerInfo(s.name, s.seat) for s in game.seats]

    def draw() -> list[tuple[str, bytes]]:
        files = [("chart.png", _png(chance_chart(review.series, names)))]
        for index, (state, played, best, verdict) in enumerate(cards, start=1):
            card = move_card(state, played, best, verdict=verdict, players=players)
            files.append((f"move-{index}.png", _png(card)))
        return files

    images = await asyncio.to_thread(draw)
    embed.set_image(url="attachment://chart.png")
    embed.set_footer(text=tr("review.ur_footer", locale))
    await interaction.edit_original_response(
        content=None,
        embed=embed,
        attachments=[discord.File(io.BytesIO(data), filename=name) for name, data in images],
    )
