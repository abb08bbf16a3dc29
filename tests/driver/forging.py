"""Buttons a client shows that the bot did not (or no longer) put there: a forged message
'from the bot', and a message's old buttons shown again, as a client that missed edits does."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from typing import Any

from sandbox.fake_model import Channel, Message, walk_components
from tests.driver.boards import button_ids
from tests.driver.bots import BotEnv


def button_row(custom_ids: Iterable[str]) -> list[dict[str, Any]]:
    """One action row of plain buttons, as a message's ``components``."""
    return [
        {"type": 1, "components": [{"type": 2, "style": 2, "label": c[:80], "custom_id": c}]}
        for c in custom_ids
    ][:5]


def fabricate_bot_message(env: BotEnv, channel: Channel, custom_ids: Iterable[str]) -> Message:
    """A message 'from the bot' carrying any buttons: a forged or a long-cached client view."""
    world = env.fake.world
    message = Message(
        id=world.ids.next(),
        channel_id=channel.id,
        guild_id=channel.guild_id,
        author_id=world.bot.id,
        content="a board as some client still shows it",
        components=button_row(custom_ids),
    )
    world.messages[message.id] = message
    return message


@contextlib.contextmanager
def old_buttons_shown(message: Message) -> Iterator[list[str]]:
    """Show the buttons ``message`` had before its last edits, as a client that missed those
    edits still does (Discord lets it click them); yields their custom_ids. The message is put
    back afterwards, so that only the one click sees the old view."""
    current = message.components
    for snapshot in reversed(message.versions):
        buttons = any("custom_id" in c for c in walk_components(snapshot["components"]))
        if buttons and snapshot["components"] != current:
            message.components = snapshot["components"]
            break
    else:
        shown = "\n".join(f"  {button_ids(v)}" for v in [*message.versions, message.snapshot()])
        raise AssertionError(f"message {message.id} never had other buttons:\n{shown}")
    try:
        yield message.custom_ids()
    finally:
        message.components = current
