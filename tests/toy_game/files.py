"""Toy Race files: a header line, then one engine notation per line."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engines.common import GameRecord
from bot.games.files import GameFileError
from bot.storage import ActionRow, GameRow
from tests.toy_game.engine import GAME

HEADER = "toy race 1"


def write(game: GameRow, actions: Sequence[ActionRow]) -> str:
    return "\n".join([HEADER, *(action.notation for action in actions)]) + "\n"


def read(text: str) -> GameRecord:
    header, *lines = text.splitlines()
    if header != HEADER:
        raise GameFileError("Not a Toy Race file.")
    return GameRecord(GAME, {}, tuple(line for line in lines if line))
