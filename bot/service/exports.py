"""Game files for other programs, in each game's own exchange format (``GameSpec.file``: a
GNU Backgammon ``.mat``, Ur's RGN, Ludo's JSON, ...), and reading them back.

The formats live with their games (``bot.games.<game>_export``); see :mod:`bot.games.files`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot import games
from bot.engines.common import EngineError, GameRecord, Replay
from bot.games.files import GameFileError
from bot.storage import ActionRow, GameRow
from bot.vocabulary.errors import TabulaError

__all__ = ["GameFileError", "export_game", "exportable", "import_game", "replay_record"]


def exportable(game: GameRow) -> GameRow:
    """``game``, unless it is a rated game in play: its record would take its position to an
    engine (see "No engine on a live rated position"); it is given when the game ends."""
    if game.rated and game.is_active:
        raise TabulaError("export.live_rated")
    return game


def export_game(game: GameRow, actions: Sequence[ActionRow]) -> tuple[str, bytes]:
    """(file name, UTF-8 content) of ``game`` in its game's exchange format."""
    file = games.get(game.game).file
    ordered = sorted(actions, key=lambda a: a.seq)
    return f"tabula-{game.game}-{game.id}{file.extension}", file.write(game, ordered).encode()


def import_game(filename: str, content: bytes) -> GameRecord:
    """Read a file written by :func:`export_game` (its game told by its extension)."""
    by_extension = sorted(games.all(), key=lambda g: len(g.file.extension), reverse=True)
    for game in by_extension:
        if filename.endswith(game.file.extension):
            return game.file.read(content.decode("utf-8-sig"))
    raise GameFileError(f"Unknown game file type: {filename}")


def replay_record(record: GameRecord) -> Any:
    """The final state of an imported record (raises GameFileError if it does not replay)."""
    steps = Replay(games.get(record.game).rules, record.options, record.actions)
    try:
        for _ in steps:
            pass
    except EngineError as error:
        text = record.actions[steps.done]
        raise GameFileError(f"action {steps.done + 1} ({text!r}): {error}") from None
    return steps.state
