"""Post-game review in Discord. ``/review`` and the Review button land here; the game's
manifest says whether it has a review and which function shows it (``ReviewSpec.present``).

Every page does the same: acknowledge at once (a review may take seconds), say that it is
being made unless a current one is stored, make or read it, then edit in the numbers, a chart
and the costliest moves as board cards (drawn in a worker thread). :func:`show_chances` is
the page of every chance review (Ur's, Ludo's), worded and drawn by the game's
:class:`~bot.games.review.ChanceLook`; backgammon's is its own
(:mod:`bot.ui.backgammon_review`).

The page is a Components V2 message (:func:`review_layout`): one container in the winner's
colour, the numbers as text displays, the chart and each card as a gallery item whose
description says in words what it shows (for screen readers), Share position buttons in
action rows under their cards.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from PIL import Image

from bot.engines.common import parse_and_apply
from bot.formats import decimal
from bot.games import titles
from bot.games.review import ChanceLook, ChanceMove, ChanceReview, ReviewUnavailable
from bot.i18n import tr, tr_plural
from bot.service.models import Choice, Game
from bot.ui import boards
from bot.ui.board_view import seat_accent
from bot.ui.buttons import CARD_SHARE, REVIEW, ButtonId, CardShare, GameClick, Route
from bot.ui.clicks import Clicks
from bot.ui.component import Component
from bot.ui.names import Speaker, ai_name, colour_name
from bot.ui.replies import locale_of, translate
from bot.ui.services import Services
from bot.ui.text_limits import clip
from bot.ui.tutor_question import review_note, with_tutor
from bot.ui.venues import viewer_of
from bot.vocabulary.imports import ELSEWHERE
from bot.vocabulary.markup import escape_markdown, plain_name
from bot.vocabulary.review_labels import LABELS
from renderers import PlayerInfo
from renderers.review import move_card

Draw = Callable[[], list[tuple[str, bytes]]]
CHART = "chart.png"
PICTURES = 10  # a gallery's limit; here each picture has its own, and a page ten at most
NEUTRAL = 0x99AAB5  # Discord's grey: an abandoned game has no winner's colour


class ReviewUI(Component):
    def __init__(self, services: Services, clicks: Clicks) -> None:
        self.services = services
        self.reviews = services.reviews
        self.games = services.games
        # No click deadline for the database: the page answers first, and a review's analysis
        # takes seconds before it is stored.
        self.routes = [
            Route(REVIEW, clicks.guard(self._on_review, kind="review", database_seconds=None))
        ]

    async def _on_review(
        self, interaction: discord.Interaction[Any], fields: GameClick, on_message: bool
    ) -> None:
        await self.show(interaction, fields.game_id)

    async def show(self, interaction: discord.Interaction[Any], typed: str) -> None:
        locale = locale_of(interaction)
        # An unknown id or a game that cannot be reviewed is refused before "Reviewing…".
        game_id = await self.reviews.check(typed, viewer_of(interaction))
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
    if not interaction.response.is_done():  # /review import acknowledged before its download
        await interaction.response.defer(ephemeral=True, thinking=True)
    if await services.reviews.cached(game.id) is None:
        # Filled in, not answered: an error meanwhile still replaces "working" (follow_up).
        await interaction.edit_original_response(content=working)
    return await services.reviews.review(game.id)


@dataclass(frozen=True, slots=True)
class Card:
    """One of the costliest moves: its heading and numbers (text displays), its picture's
    file name and alt text, and its Share position button (if the game's positions travel
    as IDs)."""

    heading: str
    text: str
    filename: str
    alt: str
    share: tuple[ButtonId[CardShare], Choice] | None = None


@dataclass(frozen=True, slots=True)
class Page:
    """A review page's words: its title and note, each player's numbers, the chart's alt
    text, the cards, the footer, and its accent (the winner's colour)."""

    title: str
    note: str | None
    players: Sequence[tuple[str, str]]  # (name and colour, numbers)
    chart_alt: str
    cards: Sequence[Card]
    footer: str
    accent: tuple[int, int, int] | None


def review_title(game: Game, locale: str | None) -> str:
    """The page's title; a game played elsewhere says it was imported."""
    return tr("review.title_imported" if game.imported else "review.title", locale, game=game.id)


def players_of(game: Game) -> list[PlayerInfo]:
    return [PlayerInfo(s.name, s.seat) for s in game.seats]


def winner_accent(game: Game) -> tuple[int, int, int] | None:
    """The winner's seat colour, where the game has a winner and its renderer names colours;
    ``None`` (neutral) for an abandoned game."""
    outcome = getattr(game.state, "outcome", None)
    winner = getattr(outcome, "winner", None)
    return None if winner is None else seat_accent(game, int(winner))


def position_words(game: Game, state: Any, locale: str | None) -> str:
    """A card's position in words (the board's alt text), in the reader's language."""
    return game.spec.texts.describe(state, Speaker(game, locale, markdown=False)) or ""


def card_alt(number: int, heading: str, move: str, position: str, locale: str | None) -> str:
    alt = tr("review.card_alt", locale, number=number, heading=heading, move=move)
    if position:
        alt += " " + tr("review.card_position", locale, position=position)
    return _clip(alt, boards.DESCRIPTION_LIMIT)


def chart_names(game: Game, locale: str | None) -> list[str]:
    """Each seat as the chart draws its line: the player and the seat's colour (``Ada
    (orange)``, ``Tabula AI, hard (green)``), as alt text shows them, letter for letter."""
    names = []
    for seat in game.seats:
        person = seat.user_id is not None or seat.ai_level == ELSEWHERE
        who = seat.name if person else ai_name(seat.level, locale)
        colour = colour_name(game, seat.seat, locale)
        names.append(tr("text.seat", locale, name=who, colour=colour))
    return names


def chart_alt(ends: Sequence[tuple[str, float]], locale: str | None) -> str:
    """What the chart shows: each player's winning chance over the game, and where it ended."""
    chances = ", ".join(f"{name} {100 * chance:.0f}%" for name, chance in ends)
    return _clip(tr("review.chart_alt", locale, ends=chances), 1024)


def _clip(text: str, room: int) -> str:
    return clip(text, room)  # never mid-character, never leaving markup open


def review_layout(page: Page, locale: str | None) -> discord.ui.LayoutView:
    """The page in Components V2: one container (the winner's colour): the title and note,
    each player's numbers, the chart, then each costliest move's words, its card (a gallery
    item with its alt text) and its Share position button; the footer in small print.
    Within Discord's limits: 4,000 characters of text, 40 components, 10 gallery items."""
    view = discord.ui.LayoutView(timeout=None)
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
        accent_colour=NEUTRAL if page.accent is None else boards.accent_of(page.accent)
    )
    room, used = boards.TEXT_LIMIT, 1  # characters of text left; components so far

    def text(words: str) -> None:
        nonlocal room, used
        if words and room > 1:
            clipped = _clip(words, room)
            room -= len(clipped)
            container.add_item(discord.ui.TextDisplay(clipped))
            used += 1

    def picture(filename: str, alt: str) -> None:
        nonlocal used
        gallery: discord.ui.MediaGallery[discord.ui.LayoutView] = discord.ui.MediaGallery()
        gallery.add_item(
            media=f"attachment://{filename}", description=_clip(alt, boards.DESCRIPTION_LIMIT)
        )
        container.add_item(gallery)
        used += 1

    text(f"## {page.title}" + (f"\n{page.note}" if page.note else ""))
    # Players' names (and the headings that hold them) drawn as text, never as markup.
    text("\n".join(f"**{plain_name(name)}**\n{numbers}" for name, numbers in page.players))
    picture(CHART, page.chart_alt)
    for card in page.cards[: PICTURES - 1]:
        # Its text, gallery and button row, with room left for the footer.
        needed = 2 + (0 if card.share is None else 2) + 1
        if used + needed > boards.COMPONENT_LIMIT:
            break
        text(f"**{escape_markdown(card.heading)}**\n{card.text}")
        picture(card.filename, card.alt)
        if card.share is not None:
            container.add_item(discord.ui.ActionRow(*boards.button_rows([card.share], locale)[0]))
            used += 2
    text("\n".join(f"-# {line}" for line in page.footer.splitlines() if line))
    view.add_item(container)
    return view


async def finish(
    interaction: discord.Interaction[Any], page: Page, draw: Draw, locale: str | None
) -> None:
    """Draw the chart and the cards in a worker thread and edit them in as the V2 page
    (``content: null`` clears the "working" line: a V2 message has no content)."""
    images = await asyncio.to_thread(draw)
    await interaction.edit_original_response(
        content=None,
        attachments=[discord.File(io.BytesIO(data), filename=name) for name, data in images],
        view=review_layout(page, locale),
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
    players = []
    for player in review.players:
        counts = ", ".join(label_count(name, player.counts[name], locale) for name in LABELS)
        colour = tr(f"colour.{spec.seats[player.seat]}", locale)
        numbers = tr(
            "review.chance_player",
            locale,
            accuracy=decimal(player.accuracy, locale),
            moves=player.moves,
            counts=counts,
        )
        players.append((f"{names[player.seat]} ({colour})", numbers))
    note = look.note(review)
    worst = sorted((m for p in review.players for m in p.worst), key=lambda m: (-m.loss, m.index))
    cards, drawn = [], []
    for number, move in enumerate(worst[:3], start=1):
        label = tr(f"review.verdict.{move.label}", locale)
        loss = decimal(100 * move.loss, locale)
        dice = "-".join(map(str, move.dice))
        state = await services.reviews.state_before(game.id, move.index)
        heading = tr(look.move, locale, name=names[move.seat], dice=dice)
        words = tr(
            "review.chance_move_text",
            locale,
            played=in_words(game, state, move.played, locale),
            best=in_words(game, state, move.best, locale),
            loss=loss,
            label=label,
        )
        filename = f"move{number}.png"
        alt = card_alt(number, heading, words, position_words(game, state, locale), locale)
        share = card_share(game, move.index, number, locale)
        cards.append(Card(heading, words, filename, alt, share))
        verdict = tr("review.chance_card", locale, loss=loss, label=label)
        drawn.append((filename, state, move, verdict))
    ends: list[tuple[str, float]] = []
    if review.series:
        last = review.series[-1][1]
        drawn_as = chart_names(game, locale)
        ends = [
            (drawn_as[seat], chance) for seat, chance in enumerate(last) if seat < len(drawn_as)
        ]
    page = Page(
        title=review_title(game, locale),
        note=with_tutor(
            None if note is None else translate(note, locale),
            await review_note(services, game, locale),
        ),
        players=players,
        chart_alt=chart_alt(ends, locale),
        cards=cards,
        footer=tr(look.footer, locale),
        accent=winner_accent(game),
    )
    await finish(interaction, page, _chance_images(game, look, review, drawn), locale)


def card_share(
    game: Game, index: int, number: int, locale: str | None
) -> tuple[ButtonId[CardShare], Choice] | None:
    """Share position under a card, where the game's positions travel as IDs."""
    if game.spec.positions is None:
        return None
    return (
        CARD_SHARE.button(CardShare(game.id, index)),
        Choice(f"share{number}", tr("button.share_card", locale, number=number)),
    )


def _chance_images(
    game: Game,
    look: ChanceLook,
    review: ChanceReview,
    cards: Sequence[tuple[str, Any, ChanceMove, str]],
) -> Draw:
    players = players_of(game)
    names = [seat.name for seat in game.seats]

    def after(state: Any, notation: str) -> tuple[str, Any]:
        # The card's caption in words (English, as the pictures are), not the notation.
        return worded_step(game, state, notation, None, markdown=False)

    def draw() -> list[tuple[str, bytes]]:
        files = [(CHART, png(look.chart(review.series, names)))]
        for filename, state, move, verdict in cards:
            card = move_card(
                game.spec.renderer,
                after(state, move.played),
                after(state, move.best),
                perspective=int(state.turn),
                verdict=verdict,
                players=players,
                scale=look.card_scale,
            )
            files.append((filename, png(card)))
        return files

    return draw


def label_count(label: str, count: int, locale: str | None) -> str:
    """``1 blunder``, ``3 blunders``: a review label with its count, in the plural form the
    reader's language gives ``count``."""
    return tr_plural(f"count.review.{label}", count, locale)


def in_words(game: Game, before: Any, notation: str, locale: str | None) -> str:
    """A move of a review (stored as notation) as the board's log says it: ``token 3
    moved 5``, not ``5:t3 36-41``."""
    return worded_step(game, before, notation, locale)[0]


def worded_step(
    game: Game, before: Any, notation: str, locale: str | None, *, markdown: bool = True
) -> tuple[str, Any]:
    """The move ``notation`` in words (see :func:`in_words`), and the state after it;
    ``markdown``: for message text (names drawn as text), False for a picture's caption."""
    action, after = parse_and_apply(game.rules, before, notation)
    speaker = Speaker(game, locale, markdown=markdown)
    return game.spec.texts.action(before, action, after, speaker, notation), after
