"""The Ludo review in Discord: acknowledge at once, judge the moves in a worker thread, then
show each human seat's accuracy and labels, every seat's winning chance over the game and
the three costliest moves as board cards (made vs best)."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from PIL import Image

from bot.engines import ludo
from bot.i18n import tr
from bot.service.models import Game
from bot.service.review_labels import LABELS
from renderers import PlayerInfo
from renderers.ludo_review import move_card, seat_chart

if TYPE_CHECKING:
    from bot.ui.services import Services


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=False, compress_level=3)
    return buffer.getvalue()


def _move(state: ludo.LudoState, text: str) -> ludo.Move:
    move = ludo.parse(state, text)
    if not isinstance(move, ludo.Move):
        raise ValueError(f"A reviewed move reads {text!r}, which is not a move.")
    return move


async def show_ludo(
    services: Services, interaction: discord.Interaction[Any], game: Game, locale: str | None
) -> None:
    """Answer ``interaction`` with the review of the finished Ludo ``game``."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    if await services.reviews.ludo.cached(game.id) is None:
        await interaction.edit_original_response(content=tr("review.ludo_working", locale))
    review = await services.reviews.ludo_review(game.id)
    names = [seat.name for seat in game.seats]
    embed = discord.Embed(
        title=tr("review.title", locale, game=game.id), colour=discord.Colour.teal()
    )
    for player in review.players:
        counts = ", ".join(
            f"{player.counts[name]} {tr(f'review.label.{name}', locale)}" for name in LABELS
        )
        embed.add_field(
            name=f"{names[player.seat]} ({ludo.SEATS[player.seat]})",
            value=tr(
                "review.ludo_player",
                locale,
                accuracy=f"{player.accuracy:.1f}",
                moves=player.moves,
                counts=counts,
            ),
            inline=True,
        )
    if not review.players:
        embed.description = tr("review.ludo_nobody", locale)
    worst = sorted((m for p in review.players for m in p.worst), key=lambda m: (-m.loss, m.index))[
        :3
    ]
    cards = []
    for move in worst:
        label = tr(f"review.label.{move.label}", locale)
        loss = f"{100 * move.loss:.1f}"
        embed.add_field(
            name=tr(
                "review.ludo_move",
                locale,
                name=names[move.seat],
                dice="-".join(map(str, move.dice)),
            ),
            value=tr(
                "review.ludo_move_text",
                locale,
                played=move.played,
                best=move.best,
                loss=loss,
                label=label,
            ),
            inline=False,
        )
        state = await services.reviews.ludo.move_state(game.id, move)
        verdict = tr("review.ludo_card", locale, loss=loss, label=label)
        cards.append((state, _move(state, move.played), _move(state, move.best), verdict))
    players = [PlayerInfo(s.name, s.seat) for s in game.seats]

    def draw() -> list[tuple[str, bytes]]:
        files = [("chart.png", _png(seat_chart(review.series, names)))]
        for index, (state, played, best, verdict) in enumerate(cards, start=1):
            card = move_card(state, played, best, verdict=verdict, players=players)
            files.append((f"move-{index}.png", _png(card)))
        return files

    images = await asyncio.to_thread(draw)
    embed.set_image(url="attachment://chart.png")
    embed.set_footer(text=tr("review.ludo_footer", locale))
    await interaction.edit_original_response(
        content=None,
        embed=embed,
        attachments=[discord.File(io.BytesIO(data), filename=name) for name, data in images],
    )
