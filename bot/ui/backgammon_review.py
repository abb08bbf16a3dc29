"""Backgammon's review page: the expert's numbers per player (PR, error rate, errors and
blunders, luck), the win-probability chart and the three costliest decisions as board cards,
on the shared frame of :mod:`bot.ui.review`."""

from __future__ import annotations

from typing import Any

import discord

from bot.games.backgammon_review import Review
from bot.i18n import tr
from bot.service.models import Game
from bot.ui.analyze import card_share_view
from bot.ui.names import plural
from bot.ui.review import fetch, finish, new_embed, players_of, png
from bot.ui.services import Services
from renderers.backgammon_review import decision_card
from renderers.review import stacked, win_chart


async def show_backgammon(
    services: Services, interaction: discord.Interaction[Any], game: Game, locale: str | None
) -> None:
    """Answer ``interaction`` with the expert's review of the finished backgammon ``game``."""
    review: Review = await fetch(services, interaction, game, tr("review.working", locale))
    names = [seat.name for seat in game.seats]
    embed = new_embed(game, locale)
    for player in review.players:
        embed.add_field(
            name=f"{names[player.seat]} ({game.rules.SEATS[player.seat]})",
            value=tr(
                "review.player",
                locale,
                pr=f"{player.pr:.1f}",
                rate=f"{player.error_rate_mp:.1f}",
                decisions=plural("count.decisions", player.decisions, locale),
                errors=plural("count.errors", player.errors, locale),
                blunders=plural("count.blunders", player.blunders, locale),
                luck=f"{player.luck_mp:+.0f}",
            ),
            inline=True,
        )
    worst = sorted(
        (d for p in review.players for d in p.worst), key=lambda d: d.loss_mp, reverse=True
    )[:3]
    for decision in worst:
        dice = "-".join(map(str, decision.dice))
        embed.add_field(
            name=tr("review.decision", locale, name=names[decision.seat], dice=dice)
            if dice
            else tr("review.cube_decision", locale, name=names[decision.seat]),
            value=tr(
                "review.decision_text",
                locale,
                played=decision.played,
                best=decision.best,
                loss=f"{decision.loss_mp:.0f}",
            ),
            inline=False,
        )
    players = players_of(game)
    cards = [(await services.reviews.state_before(game.id, d.index), d) for d in worst]

    def draw() -> list[tuple[str, bytes]]:
        files = [("chart.png", png(win_chart(review.series, names)))]
        images = [
            decision_card(
                state,
                d.played_steps,
                d.best_steps,
                played=d.played,
                best=d.best,
                loss_mp=d.loss_mp,
                players=players,
            )
            for state, d in cards
        ]
        if images:  # one picture, shown whole (see renderers.review.stacked)
            files.append(("decisions.png", png(stacked(images))))
        return files

    # Share position under each card: its IDs, to take the position to /analyze or elsewhere.
    view = card_share_view(game.id, [d.index for d in worst], locale) if worst else None
    await finish(interaction, embed, tr("review.footer", locale), draw, view)
