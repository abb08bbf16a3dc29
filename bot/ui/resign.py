"""/resign asks first: a private question with Resign and Cancel, and only Resign ends the game.

The question's buttons name the game (``tabula:rs:<game_id>:yes|no``), so they work after a
restart. A confirmation counts once: the game service refuses to resign a finished game, and
a click on a question that was already answered (a Discord client still showing its removed
buttons) is refused as out of date rather than acted on.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import tr
from bot.service.models import Choice
from bot.ui.board_messages import board_trouble_text
from bot.ui.buttons import RESIGN, ResignAnswer, Route, build_view, resign_button
from bot.ui.clicks import Clicks
from bot.ui.component import Component
from bot.ui.driver import GameDriver
from bot.ui.names import Speaker
from bot.ui.replies import error_text, locale_of
from bot.ui.services import Services
from bot.ui.venues import viewer_of
from bot.vocabulary.errors import GameNotFound, StaleAction, TabulaError, msg


class ResignUI(Component):
    def __init__(self, services: Services, driver: GameDriver, clicks: Clicks) -> None:
        self.services = services
        self.driver = driver
        self.routes = [Route(RESIGN, clicks.guard(self.on_answer, kind="resign"))]

    async def ask(self, interaction: discord.Interaction[Any]) -> None:
        """/resign: the question, privately, with Resign and Cancel."""
        if interaction.channel_id is None:
            raise GameNotFound()
        game = await self.services.games.resignable(interaction.channel_id, interaction.user.id)
        locale = locale_of(interaction)
        question = game.spec.texts.resign_question(game.state, Speaker(game, locale))
        view = build_view(
            [
                (resign_button(game.id, True), Choice("yes", msg("resign.confirm"), "danger")),
                (resign_button(game.id, False), Choice("no", msg("resign.cancel"), "secondary")),
            ],
            locale,
        )
        await interaction.response.send_message(question, view=view, ephemeral=True)

    async def on_answer(
        self, interaction: discord.Interaction[Any], fields: ResignAnswer, on_message: bool
    ) -> None:
        locale = locale_of(interaction)
        if not on_message:  # the question was answered already; its buttons are gone
            raise StaleAction("resign.stale")
        if not fields.confirmed:
            await interaction.response.edit_message(
                content=tr("resign.cancelled", locale), view=None
            )
            return
        await interaction.response.defer()  # a deferred update of the question: well in 3 s
        try:
            result = await self.services.games.resign_game(
                fields.game_id, interaction.user.id, viewer_of(interaction)
            )
        except TabulaError as refusal:
            # The refusal replaces the question, so it cannot be answered twice.
            await interaction.edit_original_response(content=error_text(refusal, locale), view=None)
            return
        trouble = await self.driver.publish(result)
        text = tr("resign.done", locale)
        if trouble is not None:
            text += "\n" + board_trouble_text(trouble, locale)
        await interaction.edit_original_response(content=text, view=None)
