"""/prefs: each person's own settings: whether the bot rolls for them, how boards look."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from bot.i18n import tr
from bot.translator import language_choices, language_name
from bot.ui.replies import locale_of
from cogs.base import TabulaCog

if TYPE_CHECKING:
    from bot.client import TabulaBot


class Prefs(TabulaCog):
    @app_commands.command()
    @app_commands.choices(language=language_choices())
    async def prefs(
        self,
        interaction: discord.Interaction[Any],
        auto_roll: Literal["on", "off"] | None = None,
        theme: Literal["classic", "dark", "contrast"] | None = None,
        language: str | None = None,
        home_board: Literal["right", "left"] | None = None,
        train_reminder: Literal["on", "off"] | None = None,
    ) -> None:
        """Your own settings; without options, shows them.

        Args:
            auto_roll: Roll for you when rolling is all your turn offers (no double to decide)
            theme: How boards look for you: classic (light), dark, or high contrast
                (colour-safe)
            language: The language of my private replies to you (auto: your Discord's)
            home_board: Backgammon: your home board on the right (as usual) or on the left
            train_reminder: A direct message once a day when cards of your /train deck are due
        """
        prefs = await self.bot.services.preferences.update(
            interaction.user.id,
            auto_roll=auto_roll,
            theme=theme,
            language=language,
            home=home_board,
            train_reminder=train_reminder,
        )
        if train_reminder is not None:
            await self.bot.train_ui.reminders_asked(interaction.user.id, train_reminder == "on")
        locale = locale_of(interaction)
        changed = any(
            v is not None for v in (auto_roll, theme, language, home_board, train_reminder)
        )
        reminder = await self.bot.train_ui.reminder_text(
            interaction.user.id, prefs.train_reminder, locale
        )
        # Saved: what the setting now does, in words; shown: on or off.
        auto = "on" if prefs.auto_roll else "off"
        await interaction.response.send_message(
            tr(
                "prefs.saved" if changed else "prefs.current",
                locale,
                auto_roll=tr(f"prefs.auto_roll.{auto}" if changed else f"settings.{auto}", locale),
                theme=tr(f"prefs.theme.{prefs.theme}", locale),
                language=(
                    tr("prefs.language.auto", locale)
                    if prefs.language == "auto"
                    else language_name(prefs.language, locale)
                ),
                home=tr(f"prefs.home.{prefs.home}", locale),
            )
            + "\n"
            + reminder,
            ephemeral=True,
        )


async def setup(bot: TabulaBot) -> None:
    await bot.add_cog(Prefs(bot))
