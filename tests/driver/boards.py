"""A board message read as a player reads it: the game and version, the buttons on offer (read
with the bot's own custom_id parser), who is on turn, whether the game is over."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

from PIL import Image

from bot.service.games import CLAIM
from bot.ui.buttons import GAME, GameClick, game_button, parse_id
from sandbox.fake_model import Json, Message, walk_components

# Boards are in the server's language, any shipped one: "-# game `id` · move 12" and its
# translations ("-# partie `id` · coup 12", "-# गेम `id` · चाल 12").
FOOTER = re.compile(r"-# [^`\n]+ `([0-9a-f]{8})` · (?:[^·\n]+ · )?[^\d·\n]+ (\d+)")
# The board's version (its buttons carry it too): in the picture's name, ``ur-12.png``.
PICTURE = re.compile(r"-(\d+)\.png$")
# The status line names the seat on turn, "name (colour)", whatever the phase asks of it.
ON_TURN = re.compile(r"➡️ (.+?) \([^()]+\)[ :]")
# Discord shows a backslash before punctuation as the character alone: names (and notation)
# reach the message escaped (``bot.vocabulary.markup``) and read as typed.
ESCAPED = re.compile(r"\\([^0-9A-Za-z\s])")


@dataclass(frozen=True)
class Board:
    """The newest game message as a player reads it."""

    message: Message
    game_id: str
    version: int
    tokens: tuple[str, ...]
    on_turn: str | None  # the display name before the seat colour, e.g. "alice"
    finished: bool

    def custom_id(self, token: str) -> str:
        """The id of the board's button ``token``, written as the bot writes it."""
        return game_button(self.game_id, self.version, token).custom_id

    def is_game_action(self, token: str) -> bool:
        """Whether ``token`` is the game's (a roll, a move, a step of one), not one of the
        board's own buttons (Rematch, Review, Share position, Follow) nor a Claim."""
        return token != CLAIM and game_button(self.game_id, self.version, token).shape is GAME


def game_click(custom_id: str) -> GameClick | None:
    """The game, version and token of a board's button, read by the bot's own parser; None
    for an id of another shape, or of none."""
    button = parse_id(custom_id)
    if button is None or not isinstance(button.fields, GameClick):
        return None
    return button.fields


def board_version(message: Message) -> int | None:
    """The game version a board shows, from its buttons or its picture's name (the footer's
    move number counts turns, not versions)."""
    for custom_id in message.custom_ids():
        click = game_click(custom_id)
        if click is not None:
            return click.version
    for attachment in message.attachments:
        named = PICTURE.search(attachment.filename)
        if named is not None:
            return int(named[1])
    return None


def as_shown(text: str) -> str:
    """``text`` as Discord shows it: Markdown's backslash escapes read as their characters."""
    return ESCAPED.sub(r"\1", text)


def read_board(message: Message) -> Board | None:
    footer = FOOTER.search(message.text)
    version = board_version(message)
    if footer is None or version is None:
        return None
    game_id = footer[1]
    tokens = []
    for custom_id in message.custom_ids():
        click = game_click(custom_id)
        assert click is not None, f"foreign custom_id {custom_id!r} on a board"
        assert click.game_id == game_id and click.version == version, (
            f"board of game {game_id} at version {version}, button says {custom_id}"
        )
        tokens.append(click.token)
    on_turn = ON_TURN.search(message.text)
    return Board(
        message=message,
        game_id=game_id,
        version=version,
        tokens=tuple(tokens),
        on_turn=as_shown(on_turn[1]) if on_turn else None,
        finished="🏁" in message.text,
    )


def button_ids(snapshot: Json) -> list[str]:
    """The custom_ids of a message's state (``Message.snapshot()``)."""
    return [c["custom_id"] for c in walk_components(snapshot["components"]) if "custom_id" in c]


def decode_png(data: bytes) -> tuple[int, int]:
    """Decode fully with Pillow (not only the header); return the size."""
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        image.load()
        return image.size
