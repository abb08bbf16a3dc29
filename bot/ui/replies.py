"""The one place that turns errors into replies: a typed refusal becomes a clear, translated,
ephemeral message; anything else is logged with its context and the user gets an apology."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import discord

from bot.i18n import tr
from bot.service.errors import Msg, TabulaError
from bot.service.outages import refusal_for

log = logging.getLogger(__name__)


def locale_of(interaction: discord.Interaction[Any]) -> str:
    return str(interaction.locale)


async def send_ephemeral(interaction: discord.Interaction[Any], text: str) -> None:
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not send an ephemeral reply", exc_info=True)


def translate(message: Msg, locale: str | None) -> str:
    return tr(message.key, locale, **_translated(message.params, locale))


def _translated(params: Mapping[str, Any], locale: str | None) -> dict[str, Any]:
    return {
        name: translate(value, locale) if isinstance(value, Msg) else value
        for name, value in params.items()
    }


def error_text(error: TabulaError, locale: str | None) -> str:
    """A refusal in the reader's language (reasons inside it included)."""
    return tr(error.key, locale, **_translated(error.params, locale))


async def reply_error(
    interaction: discord.Interaction[Any], error: BaseException, *, context: str = ""
) -> str:
    """Answer ``interaction`` about ``error``; returns the outcome word for the access log."""
    locale = locale_of(interaction)
    refusal = refusal_for(error)
    if refusal is not None:  # a database fault: expected in an outage, said plainly
        log.warning("database fault (%s) user=%s: %r", context, interaction.user.id, error)
        error = refusal
    if isinstance(error, TabulaError):
        await send_ephemeral(interaction, error_text(error, locale))
        return type(error).__name__
    log.error(
        "unexpected error (%s) user=%s channel=%s: %r",
        context,
        interaction.user.id,
        interaction.channel_id,
        error,
        exc_info=error,
    )
    await send_ephemeral(interaction, tr("error.unexpected", locale))
    return "error"
