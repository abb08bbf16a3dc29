"""Tutor mode's answers: Keep and Take back under the private "Are you sure?".

The buttons name the game, the board's version and the question
(``tabula:tt:<game>.<version>.<warning>:yes|no``), and the question is stored, so an answer
after a restart is taken as one before it. Keep stores the move as the board's click would
have (once: a second Keep, or a Keep after the game moved on, is out of date); Take back
stores nothing of it and shows the board again as it was before the move was begun. Either
way the question is replaced by what was done, so it cannot be answered twice.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import tr
from bot.service.tutor import TutorService
from bot.ui.board_messages import board_trouble_text
from bot.ui.buttons import TUTOR_ANSWER, Route, TutorAnswer
from bot.ui.clicks import Clicks
from bot.ui.component import Component
from bot.ui.driver import GameDriver
from bot.ui.replies import error_text, locale_of
from bot.ui.services import Services
from bot.ui.tutor_question import move_words
from bot.ui.venues import viewer_of
from bot.vocabulary.errors import StaleAction, TabulaError


class TutorUI(Component):
    def __init__(
        self, services: Services, driver: GameDriver, clicks: Clicks, *, judge_seconds: float
    ) -> None:
        self.services = services
        self.driver = driver
        # Installs itself as the game service's screen of a person's moves in tutored games.
        self.tutor = TutorService(services.games, judge_seconds=judge_seconds)
        self.routes = [Route(TUTOR_ANSWER, clicks.guard(self.on_answer, kind="tutor"))]

    async def on_answer(
        self, interaction: discord.Interaction[Any], fields: TutorAnswer, on_message: bool
    ) -> None:
        locale = locale_of(interaction)
        if not on_message:  # answered already: its buttons are gone
            raise StaleAction("tutor.answered")
        await interaction.response.defer()  # a deferred update of the question: well in 3 s
        answer = self.tutor.keep if fields.keep else self.tutor.take_back
        try:
            result = await answer(
                fields.game_id,
                fields.version,
                fields.warning,
                interaction.user.id,
                channel_id=interaction.channel_id,
                viewer=viewer_of(interaction),
            )
        except StaleAction as refusal:
            if refusal.key == "tutor.answered":
                raise  # a second click: the first answer stays on the question
            await interaction.edit_original_response(content=error_text(refusal, locale), view=None)
            return
        except TabulaError as refusal:
            # The refusal replaces the question, so it cannot be answered again.
            await interaction.edit_original_response(content=error_text(refusal, locale), view=None)
            return
        if fields.keep:
            played = result.events[0].notation if result.events else ""
            move = move_words(result.before, result.before.state, played, locale)
            text = tr("tutor.kept", locale, move=move)
        else:
            text = tr("tutor.taken_back", locale)
        trouble = None
        if result.after.version != result.before.version:
            trouble = await self.driver.publish(result)
        if trouble is not None:
            text += "\n" + board_trouble_text(trouble, locale)
        await interaction.edit_original_response(content=text, view=None)
