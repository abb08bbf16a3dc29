"""A board message in Discord's Components V2: one container per board.

The container's accent is the colour of the seat on turn; inside it the board image (a media
gallery whose item describes the position in words, for screen readers), the headline, the
last moves, whose turn it is (a mention in a text display pings, as ``allowed_mentions``
allows, the way a mention in content did) and the buttons in action rows. A V2 message has
no content and no embeds, and once a message is V2 it stays V2: an old content-and-picture
board (V1) is turned into a V2 one by its next edit, which sends ``content: null``.

Discord's limits for a V2 message: 40 components in all (nested ones count), 4,000
characters of text displays, 5 buttons an action row, 1,024 characters of a gallery item's
description.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.service.models import Choice
from bot.ui.board_view import DESCRIPTION_LIMIT
from bot.ui.buttons import STYLES, ButtonId
from bot.ui.replies import translate
from bot.ui.text_limits import clip
from bot.ui.texts import BoardText
from bot.vocabulary.errors import Msg

COMPONENT_LIMIT = 40
TEXT_LIMIT = 4000
ROWS = 5
PER_ROW = 5
BLURPLE = 0x5865F2  # Discord's own colour: a board whose game gives no seat colours


def accent_of(colour: tuple[int, int, int] | None) -> int:
    if colour is None:
        return BLURPLE
    red, green, blue = colour
    return (red << 16) | (green << 8) | blue


def button_rows(
    items: Sequence[tuple[ButtonId[Any], Choice]], locale: str | None
) -> list[list[discord.ui.Item[discord.ui.LayoutView]]]:
    """The buttons in rows as a V1 view places them: a choice's own row where it has room,
    else the first row with room."""
    rows: list[list[discord.ui.Item[discord.ui.LayoutView]]] = [[] for _ in range(ROWS)]
    for button_id, choice in items[: ROWS * PER_ROW]:
        label = translate(choice.label, locale) if isinstance(choice.label, Msg) else choice.label
        button = button_id.item(label, STYLES[choice.style])
        wanted = choice.row if choice.row is not None and choice.row < ROWS else 0
        order = [wanted, *(r for r in range(ROWS) if r != wanted)]
        row = next((r for r in order if len(rows[r]) < PER_ROW), None)
        if row is not None:
            rows[row].append(button)  # type: ignore[arg-type]
    return [row for row in rows if row]


def _clip(text: str, room: int) -> str:
    return clip(text, room)  # never mid-character, never leaving markup open


def board_layout(
    words: BoardText,
    *,
    image: str | None,
    description: str,
    buttons: Sequence[tuple[ButtonId[Any], Choice]] = (),
    locale: str | None = None,
    accent: tuple[int, int, int] | None = None,
    mention: int | None = None,
    note: str | None = None,
) -> discord.ui.LayoutView:
    """One board: ``image`` is the attachment's file name (``attachment://`` refers to the
    file sent with the message), ``description`` its alt text."""
    view = discord.ui.LayoutView(timeout=None)
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
        accent_colour=accent_of(accent)
    )
    if image is not None:
        gallery: discord.ui.MediaGallery[discord.ui.LayoutView] = discord.ui.MediaGallery()
        gallery.add_item(
            media=f"attachment://{image}",
            description=_clip(description, DESCRIPTION_LIMIT) or None,
        )
        container.add_item(gallery)
    status = f"<@{mention}> {words.status}" if mention else words.status
    small = "\n".join(words.footer)  # the catalogue writes them as small print ("-# ")
    parts = [words.headline, "\n".join(words.moves), status, small, note or ""]
    room = TEXT_LIMIT
    for part in parts:
        if part and room > 1:
            text = _clip(part, room)
            room -= len(text)
            container.add_item(discord.ui.TextDisplay(text))
    rows = button_rows(buttons, locale)
    used = 1 + len(container.children)
    for row in rows:
        if used + 1 + len(row) > COMPONENT_LIMIT:
            break
        container.add_item(discord.ui.ActionRow(*row))
        used += 1 + len(row)
    view.add_item(container)
    return view


def text_layout(text: str, *, accent: tuple[int, int, int] | None = None) -> discord.ui.LayoutView:
    """A board collapsed to its summary line: no image, no buttons (or any text-only board)."""
    view = discord.ui.LayoutView(timeout=None)
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
        accent_colour=accent_of(accent) if accent is not None else None
    )
    container.add_item(discord.ui.TextDisplay(_clip(text, TEXT_LIMIT)))
    view.add_item(container)
    return view


def count_components(view: discord.ui.LayoutView) -> int:
    """All components of ``view``, nested ones included (what Discord's limit of 40 counts)."""
    return view.total_children_count


__all__ = [
    "COMPONENT_LIMIT",
    "DESCRIPTION_LIMIT",
    "accent_of",
    "board_layout",
    "button_rows",
    "count_components",
    "text_layout",
]
