"""The one persistent button class. Its custom_id carries everything needed after a restart:

``tabula:<game_id>:<version>:<token>`` for a game action, ``tabula:ch:<challenge_id>:<token>``
for a challenge. A custom_id that starts with ``tabula:`` but does not parse still reaches
the callback (as ``malformed``) so the user gets a clear reply instead of a failed interaction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.service.models import ButtonStyle, Choice

if TYPE_CHECKING:
    from bot.client import TabulaBot

PREFIX = "tabula"
# Every id under the prefix, newlines included: what does not parse still reaches the callback
# (as ``malformed``) and gets a clear reply instead of Discord's "This interaction failed".
TEMPLATE = re.compile(r"tabula:.*", re.DOTALL)
# ASCII only and fullmatch: str.isdigit() accepts "²" (which int() then rejects) and "$"
# matches before a trailing newline.
_GAME_ID = re.compile(r"[0-9a-f]{8}", re.ASCII)
_NUMBER = re.compile(r"[0-9]{1,18}", re.ASCII)
_TOKEN = re.compile(r"[A-Za-z0-9._-]{1,40}", re.ASCII)
_STYLES: dict[ButtonStyle, discord.ButtonStyle] = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


@dataclass(frozen=True, slots=True)
class ButtonTarget:
    """What a custom_id addresses. ``kind`` is ``game``, ``challenge`` or ``malformed``."""

    kind: str
    target_id: str = ""
    version: int = 0
    token: str = ""


def parse_custom_id(custom_id: str) -> ButtonTarget:
    parts = custom_id.split(":")
    if len(parts) != 4 or parts[0] != PREFIX or not _TOKEN.fullmatch(parts[3]):
        return ButtonTarget("malformed")
    _, target, version, token = parts
    if not _NUMBER.fullmatch(version):
        return ButtonTarget("malformed")
    if target == "ch":
        return ButtonTarget("challenge", version, 0, token)
    if target == "lb":  # leaderboard page <version> of <token>
        return ButtonTarget("leaderboard", token, int(version), token)
    if _GAME_ID.fullmatch(target):
        return ButtonTarget("game", target, int(version), token)
    return ButtonTarget("malformed")


def is_on_message(interaction: discord.Interaction[Any], custom_id: str) -> bool:
    """Whether ``custom_id`` is a component of the clicked message as the bot last saw it.

    discord.py dispatches a dynamic item only then; a click from a Discord client that has
    not yet shown the message's new buttons (or its removal of them) is dropped silently, so
    the bot has to answer that one itself.
    """
    message = interaction.message
    if message is None:
        return False
    for row in message.components:
        children = getattr(row, "children", (row,))
        for component in children:
            if getattr(component, "custom_id", None) == custom_id:
                return True
    return False


def game_custom_id(game_id: str, version: int, token: str) -> str:
    return f"{PREFIX}:{game_id}:{version}:{token}"


def challenge_custom_id(challenge_id: int, token: str) -> str:
    return f"{PREFIX}:ch:{challenge_id}:{token}"


def leaderboard_custom_id(page: int, board: str) -> str:
    return f"{PREFIX}:lb:{page}:{board}"


class TabulaButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    def __init__(
        self,
        custom_id: str,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label[:80], style=style, custom_id=custom_id, row=row)
        )
        self.target = parse_custom_id(custom_id)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TabulaButton:
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = cast("TabulaBot", interaction.client)
        await bot.driver.on_button(interaction, self.target)


def build_view(items: list[tuple[str, Choice]]) -> discord.ui.View:
    """A view of persistent buttons, from (custom_id, choice) pairs."""
    view = discord.ui.View(timeout=None)
    for custom_id, choice in items[:25]:
        view.add_item(TabulaButton(custom_id, choice.label, _STYLES[choice.style], choice.row))
    return view
