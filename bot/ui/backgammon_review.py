"""Backgammon's review page: the expert's numbers per player (PR, error rate, errors and
blunders, luck), the win-probability chart and the three costliest decisions as board cards,
on the shared Components V2 page of :mod:`bot.ui.review`."""

from __future__ import annotations

from typing import Any

import discord

from bot.formats import decimal
from bot.games.backgammon_review import Review
from bot.i18n import tr
from bot.service.models import Game
from bot.ui.names import plural
from bot.ui.review import (
    CHART,
    Card,
    Page,
    card_alt,
    card_share,
    chart_alt,
    chart_names,
    fetch,
    finish,
    players_of,
    png,
    position_words,
    review_title,
    winner_accent,
)
from bot.ui.services import Services
from bot.ui.tutor_question import review_note, with_tutor
from renderers.backgammon_review import decision_card
from renderers.review import win_chart


async def show_backgammon(
    services: Services, interaction: discord.Interaction[Any], game: Game, locale: str | None
) -> None:
    """Answer ``interaction`` with the expert's review of the finished backgammon ``game``."""
    review: Review = await fetch(services, interaction, game, tr("review.working", locale))
    names = [seat.name for seat in game.seats]
    numbers = [
        (
            f"{names[player.seat]} ({game.rules.SEATS[player.seat]})",
            tr(
                "review.player",
                locale,
                pr=decimal(player.pr, locale),
                rate=decimal(player.error_rate_mp, locale),
                decisions=plural("count.decisions", player.decisions, locale),
                errors=plural("count.errors", player.errors, locale),
                blunders=plural("count.blunders", player.blunders, locale),
                luck=decimal(player.luck_mp, locale, 0, signed=True),
            ),
        )
        for player in review.players
    ]
    worst = sorted(
        (d for p in review.players for d in p.worst), key=lambda d: d.loss_mp, reverse=True
    )[:3]
    cards: list[Card] = []
    drawn = []
    held = 0
    for decision in worst:
        state = await services.reviews.state_before(game.id, decision.index)
        if await services.games.on_live_board(game.kind, state):
            held += 1  # the expert's move for a position a rated game is playing now
            continue
        number = len(cards) + 1
        dice = "-".join(map(str, decision.dice))
        heading = (
            tr("review.decision", locale, name=names[decision.seat], dice=dice)
            if dice
            else tr("review.cube_decision", locale, name=names[decision.seat])
        )
        words = tr(
            "review.decision_text",
            locale,
            played=decision.played,
            best=decision.best,
            loss=f"{decision.loss_mp:.0f}",
        )
        filename = f"decision{number}.png"
        alt = card_alt(
            number, heading, words.replace("`", ""), position_words(game, state, locale), locale
        )
        # Share position under each card: its IDs, to take the position to /analyze.
        share = card_share(game, decision.index, number, locale)
        cards.append(Card(heading, words, filename, alt, share))
        drawn.append((filename, state, decision))
    ends: list[tuple[str, float]] = []
    if review.series:
        white = review.series[-1][2]
        drawn_as = chart_names(game, locale)
        ends = [(drawn_as[0], white), (drawn_as[1], 1 - white)]
    page = Page(
        title=review_title(game, locale),
        note=with_tutor(
            tr("review.cards_held", locale, count=held) if held else None,
            await review_note(services, game, locale),
        ),
        players=numbers,
        chart_alt=chart_alt(ends, locale),
        cards=cards,
        footer=tr("review.footer", locale),
        accent=winner_accent(game),
    )
    players = players_of(game)

    def draw() -> list[tuple[str, bytes]]:
        files = [(CHART, png(win_chart(review.series, names)))]
        for filename, state, d in drawn:
            card = decision_card(
                state,
                d.played_steps,
                d.best_steps,
                played=d.played,
                best=d.best,
                loss_mp=d.loss_mp,
                players=players,
            )
            files.append((filename, png(card)))
        return files

    await finish(interaction, page, draw, locale)
