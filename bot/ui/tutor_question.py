"""Tutor mode in words: the private "Are you sure?" with its Keep and Take back buttons, and
the lines a review of a tutored game adds (which warnings were heeded).

The question is an ephemeral followup of the click that chose the move (its board is left as
it was: nothing was stored); its buttons are persistent (``tabula:tt:…``, answered by
``bot.ui.tutor.TutorUI``), so a question asked before a restart is answered after it.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.engines.common import parse_and_apply
from bot.formats import decimal
from bot.i18n import tr, tr_plural
from bot.service.models import Choice, Game, Question
from bot.service.tutor import warnings
from bot.ui.buttons import build_view, tutor_button
from bot.ui.names import Speaker
from bot.ui.replies import follow_up
from bot.ui.services import Services
from bot.vocabulary.errors import msg

__all__ = [
    "ask_privately",
    "cost_words",
    "move_words",
    "question_text",
    "review_note",
    "with_tutor",
]


def cost_words(cost: float, unit: str, locale: str | None) -> str:
    """What a move gives up: ``95 millipoints of equity``, ``12.5 points of winning chance``."""
    if unit == "equity":
        return tr("tutor.cost.equity", locale, mp=decimal(1000.0 * cost, locale, 0))
    return tr("tutor.cost.chance", locale, points=decimal(100.0 * cost, locale))


def move_words(game: Game, before: Any, notation: str, locale: str | None) -> str:
    """The move ``notation`` played on ``before`` in words, as the board's log says it."""
    action, after = parse_and_apply(game.rules, before, notation)
    return game.spec.texts.action(before, action, after, Speaker(game, locale), notation)


def with_tutor(note: str | None, tutor: str | None) -> str | None:
    """A review page's note with a tutored game's warnings after it."""
    return "\n".join(part for part in (note, tutor) if part) or None


def question_text(game: Game, question: Question, locale: str | None) -> str:
    text = tr(
        "tutor.question",
        locale,
        move=move_words(game, game.state, question.move, locale),
        cost=cost_words(question.cost, question.unit, locale),
        best=move_words(game, game.state, question.best, locale),
    )
    if game.timer is not None:
        text += "\n" + tr("tutor.clock_stopped", locale)
    return text


async def ask_privately(
    interaction: discord.Interaction[Any], game: Game, question: Question, locale: str | None
) -> None:
    """The question, as an ephemeral followup of the click that chose the move."""
    view = build_view(
        [
            (
                tutor_button(game.id, question.version, question.warning, True),
                Choice("keep", msg("tutor.keep"), "danger"),
            ),
            (
                tutor_button(game.id, question.version, question.warning, False),
                Choice("back", msg("tutor.take_back"), "success"),
            ),
        ],
        locale,
    )
    await follow_up(interaction, question_text(game, question, locale), view=view)


async def review_note(services: Services, game: Game, locale: str | None) -> str | None:
    """A tutored game's warnings for its review: how many were heeded, and each one (the
    move, its cost, taken back or kept); None for a game without any."""
    found = await warnings(services.games, game)
    if not found:
        return None
    review = game.spec.review
    unit = review.tutor.unit if review is not None and review.tutor is not None else "chance"
    heeded = sum(1 for w in found if w.heeded)
    lines = [tr_plural("review.tutor", len(found), locale, heeded=heeded)]
    for warning in found:
        name = game.seats[warning.seat].name
        lines.append(
            tr(
                "review.tutor_heeded" if warning.heeded else "review.tutor_kept",
                locale,
                number=warning.index + 1,
                name=name,
                move=move_words(
                    game,
                    await services.reviews.state_before(game.id, warning.index),
                    warning.move,
                    locale,
                ),
                cost=cost_words(warning.cost, unit, locale),
            )
        )
    return "\n".join(lines)
