"""The one place that turns errors into replies: a typed refusal becomes a clear, translated,
ephemeral message; anything else is logged with its context and the user gets an apology."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

import discord

from bot.i18n import tr
from bot.service.outages import refusal_for
from bot.ui.text_limits import MESSAGE_LIMIT, clip, quoted
from bot.vocabulary.errors import Msg, TabulaError

log = logging.getLogger(__name__)


# interaction.extras: the deferred ("thinking") response of this interaction has its content.
ANSWERED = "tabula.deferred_answered"
# Discord's JSON error code for "Interaction has already been acknowledged".
ALREADY_ACKNOWLEDGED = 40060
# "Missing Permissions": a single permission such as Attach Files taken away (where 50001,
# "Missing Access", is a channel the bot cannot see at all).
MISSING_PERMISSIONS = 50013


# Who chose a language for the bot's private replies (/prefs language): set once at start-up
# to the preferences service's lookup (no import of the service's state here).
def _nobody_chose(_user_id: int) -> str | None:
    return None


_chosen_language: Callable[[int], str | None] = _nobody_chose


def use_chosen_languages(lookup: Callable[[int], str | None]) -> None:
    global _chosen_language
    _chosen_language = lookup


def locale_of(interaction: discord.Interaction[Any]) -> str:
    """The language of a reply to ``interaction``'s person: theirs from /prefs, else their
    Discord client's."""
    return _chosen_language(interaction.user.id) or str(interaction.locale)


def awaits_answer(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction was deferred with a "thinking" response that nothing has
    filled in yet (its next answer edits that response)."""
    return (
        interaction.response.type == discord.InteractionResponseType.deferred_channel_message
        and not interaction.extras.get(ANSWERED)
    )


async def follow_up(
    interaction: discord.Interaction[Any],
    content: str | None = None,
    *,
    embeds: list[discord.Embed] | None = None,
    files: list[discord.File] | None = None,
    view: discord.ui.View | discord.ui.LayoutView | None = None,
) -> None:
    """An ephemeral answer after the acknowledgement. The first answer to a deferred command
    edits its "thinking" response (``@original``): Discord's docs call filling it with a
    first followup deprecated. Later answers, and any after a component's deferred update
    (whose ``@original`` is the clicked message), are ephemeral followups."""
    if content is not None:
        content = clip(content, MESSAGE_LIMIT)
    if awaits_answer(interaction):
        interaction.extras[ANSWERED] = True
        given = _given(embeds=embeds, attachments=files, view=view)
        await interaction.edit_original_response(content=content, **given)
        return
    given = _given(embeds=embeds, files=files, view=view)
    await interaction.followup.send(content or discord.utils.MISSING, ephemeral=True, **given)


def _given(**values: Any) -> dict[str, Any]:
    """The keyword arguments that have a value: discord.py tells "leave it" (MISSING) from
    "clear it" (None), so the ones not given are left out."""
    return {name: value for name, value in values.items() if value is not None}


async def send_ephemeral(interaction: discord.Interaction[Any], text: str) -> None:
    text = clip(text, MESSAGE_LIMIT)
    try:
        if interaction.response.is_done():
            await follow_up(interaction, text)
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
    """A refusal in the reader's language (reasons inside it included), within a message's
    limit whatever it quotes: a string parameter is someone's input as often as not and can
    be any length, so it is cut to :data:`~bot.ui.text_limits.QUOTE_LIMIT` first."""
    params = {name: quoted(value) for name, value in error.params.items()}
    return clip(tr(error.key, locale, **_translated(params, locale)), MESSAGE_LIMIT)


def answered_elsewhere(interaction: discord.Interaction[Any], error: BaseException) -> bool:
    """Discord refused this process's acknowledgement: another answered the interaction."""
    return (
        isinstance(error, discord.HTTPException)
        and error.code == ALREADY_ACKNOWLEDGED
        and not interaction.response.is_done()
    )


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
    if answered_elsewhere(interaction, error):
        # Two processes on one shard (a rolling deploy's overlap) both get every click; the
        # one whose acknowledgement Discord took answers it, and this one has nothing to say.
        log.info("click answered by another process (%s)", context)
        return "answered_elsewhere"
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
