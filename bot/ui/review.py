"""Post-game review in Discord. ``/review`` and the Review button land here; the game's
manifest says whether it has a review and which function shows it (``ReviewSpec.present``).

Every page does the same: acknowledge at once (a review may take seconds), say that it is
being made unless a current one is stored, make or read it, then edit in the numbers, a chart
and the costliest moves as board cards (drawn in a worker thread). :func:`show_chances` is
the page of every chance review (Ur's, Ludo's), worded and drawn by the game's
:class:`~bot.games.review.ChanceLook`; backgammon's is its own
(:mod:`bot.ui.backgammon_review`).
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable, Sequence
from typing import Any

import discord
from PIL import Image

from bot.games import titles
from bot.games.review import ChanceLook, ChanceMove, ChanceReview, ReviewUnavailable
from bot.i18n import tr
from bot.service.models import Game
from bot.service.review_labels import LABELS
from bot.ui.buttons import REVIEW, Fields
from bot.ui.clicks import Clicks
from bot.ui.names import Speaker
from bot.ui.replies import locale_of, translate
from bot.ui.services import Services
from renderers import PlayerInfo
from renderers.review import move_card, stacked

Draw = Callable[[], list[tuple[str, bytes]]]


class ReviewUI:
    def __init__(self, services: Services, clicks: Clicks) -> None:
        self.services = services
        self.reviews = services.reviews
        self.games = services.games
        # No click deadline for the database: the page answers first, and a review's analysis
        # takes seconds before it is stored.
        self.items = [
            REVIEW.bind(clicks.guard(self._on_review, kind="review", database_seconds=None))
        ]

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
            raise ReviewUnavailable("error.review_not_offered", games=titles(lambda g: g.review))
        await review.presenter()(self.services, interaction, game, locale)


def png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=False, compress_level=3)
    return buffer.getvalue()


async def fetch(
    services: Services, interaction: discord.Interaction[Any], game: Game, working: str
) -> Any:
    """Acknowledge ``interaction``, say ``working`` while no current review is stored, and
    return the game's review."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    if await services.reviews.cached(game.id) is None:
        # Filled in, not answered: an error meanwhile still replaces "working" (follow_up).
        await interaction.edit_original_response(content=working)
    return await services.reviews.review(game.id)


def new_embed(game: Game, locale: str | None) -> discord.Embed:
    title = tr("review.title", locale, game=game.id)
    return discord.Embed(title=title, colour=discord.Colour.teal())


def players_of(game: Game) -> list[PlayerInfo]:
    return [PlayerInfo(s.name, s.seat) for s in game.seats]


async def finish(
    interaction: discord.Interaction[Any],
    embed: discord.Embed,
    footer: str,
    draw: Draw,
    view: discord.ui.View | None = None,
) -> None:
    """Draw the chart and the cards in a worker thread and edit them in with ``embed`` (and
    the buttons of ``view``, if any)."""
    images = await asyncio.to_thread(draw)
    embed.set_image(url="attachment://chart.png")
    embed.set_footer(text=footer)
    await interaction.edit_original_response(
        content=None,
        embed=embed,
        attachments=[discord.File(io.BytesIO(data), filename=name) for name, data in images],
        view=view,
    )


async def show_chances(
    services: Services, interaction: discord.Interaction[Any], game: Game, locale: str | None
) -> None:
    """Answer ``interaction`` with the chance review of the finished ``game``: each judged
    player's accuracy and labels, the chart, the three costliest moves made and best."""
    spec = game.spec
    look = spec.review.look if spec.review is not None else None
    if look is None:
        raise ReviewUnavailable("error.review_not_offered", games=titles(lambda g: g.review))
    review: ChanceReview = await fetch(services, interaction, game, tr(look.working, locale))
    names = [seat.name for seat in game.seats]
    embed = new_embed(game, locale)
    for player in review.players:
        counts = ", ".join(label_count(name, player.counts[name], locale) for name in LABELS)
        colour = tr(f"colour.{spec.seats[player.seat]}", locale)
        embed.add_field(
            name=f"{names[player.seat]} ({colour})",
            value=tr(
                "review.chance_player",
                locale,
                accuracy=f"{player.accuracy:.1f}",
                moves=player.moves,
                counts=counts,
            ),
            inline=True,
        )
    note = look.note(review)
    if note is not None:
        embed.description = translate(note, locale)
    worst = sorted((m for p in review.players for m in p.worst), key=lambda m: (-m.loss, m.index))
    cards = []
    for move in worst[:3]:
        label = tr(f"review.verdict.{move.label}", locale)
        loss = f"{100 * move.loss:.1f}"
        dice = "-".join(map(str, move.dice))
        state = await services.reviews.state_before(game.id, move.index)
        embed.add_field(
            name=tr(look.move, locale, name=names[move.seat], dice=dice),
            value=tr(
                "review.chance_move_text",
                locale,
                played=in_words(game, state, move.played, locale),
                best=in_words(game, state, move.best, locale),
                loss=loss,
                label=label,
            ),
            inline=False,
        )
        verdict = tr("review.chance_card", locale, loss=loss, label=label)
        cards.append((state, move, verdict))
    await finish(
        interaction, embed, tr(look.footer, locale), _chance_images(game, look, review, cards)
    )


def _chance_images(
    game: Game,
    look: ChanceLook,
    review: ChanceReview,
    cards: Sequence[tuple[Any, ChanceMove, str]],
) -> Draw:
    rules, players = game.rules, players_of(game)
    names = [seat.name for seat in game.seats]

    def after(state: Any, notation: str) -> tuple[str, Any]:
        # The card's caption in words (English, as the pictures are), not the notation.
        return in_words(game, state, notation, None), rules.apply(
            state, rules.parse(state, notation)
        )

    def draw() -> list[tuple[str, bytes]]:
        files = [("chart.png", png(look.chart(review.series, names)))]
        images = [
            move_card(
                game.spec.renderer,
                after(state, move.played),
                after(state, move.best),
                perspective=int(state.turn),
                verdict=verdict,
                players=players,
                scale=look.card_scale,
            )
            for state, move, verdict in cards
        ]
        if images:  # one picture: Discord shows it whole, not as a grid of thumbnails
            files.append(("moves.png", png(stacked(images))))
        return files

    return draw


def label_count(label: str, count: int, locale: str | None) -> str:
    """``1 blunder``, ``3 blunders``: a review label with its count."""
    key = f"review.label_one.{label}" if count == 1 else f"review.label.{label}"
    return f"{count} {tr(key, locale)}"


def in_words(game: Game, before: Any, notation: str, locale: str | None) -> str:
    """A move of a review (stored as notation) as the board's log says it: ``token 3
    moved 5``, not ``5:t3 36-41``."""
    rules = game.rules
    action = rules.parse(before, notation)
    after = rules.apply(before, action)
    return game.spec.texts.action(before, action, after, Speaker(game, locale), notation)
