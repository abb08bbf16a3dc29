"""Game files for other programs: what each game's export module provides, and the helpers
they share.

A game's :class:`GameFile` writes a stored game (its row and action log) in the game's
exchange format and reads such a file back into a :class:`~bot.engines.common.GameRecord`.
Every export is built by replaying the action log through the engine, and every reader
rebuilds a record whose replay reaches the same final state (the tests check this on seeded
games). ``bot.service.exports`` picks the game's file by the game's kind, and a file to read
by its extension.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from bot.engines.common import GameRecord, Outcome
from bot.storage import ActionRow, GameRow
from bot.vocabulary.options import engine_options

SITE: Final = "Tabula"


class GameFileError(ValueError):
    """A file could not be read as a game; the message says where and why."""


@dataclass(frozen=True, slots=True)
class GameFile:
    """A game's exchange format: ``write`` gets the row and the log in order, ``read`` the
    file's text. ``extension`` (with its dot) names the files and tells them apart on import,
    so no two games may share one."""

    extension: str
    write: Callable[[GameRow, Sequence[ActionRow]], str]
    read: Callable[[str], GameRecord]


@dataclass(frozen=True, slots=True)
class ImportedGame:
    """A game read from another program's file (``/review import``): its record, each seat's
    name as the file gives it (in seat order), the reader's ``format`` and the seat of the
    player the file names first."""

    record: GameRecord
    names: tuple[str, ...]
    format: str
    first_seat: int = 0  # the seat of the player the file names first


@dataclass(frozen=True, slots=True)
class GameReader:
    """One format a game imports from other programs (``GameSpec.readers``). ``format``
    names it (``mat``, ``sgf``, ``text``); a file is read by the reader whose ``extensions``
    (with their dots) end its name, else by the first whose ``sniff`` recognises its text.
    ``read`` raises :class:`~bot.vocabulary.imports.ImportRefused` for a file it cannot take,
    or :class:`GameFileError` (``line N: why``) for a line that does not read or play."""

    format: str
    extensions: tuple[str, ...]
    sniff: Callable[[str], bool]
    read: Callable[[str], ImportedGame]


def options_of(game: GameRow) -> dict[str, Any]:
    """The engine's options of a stored game (without the table's own)."""
    options: dict[str, Any] = engine_options(json.loads(game.options_json or "{}"))
    return options


def seat_names(game: GameRow, seats: int) -> list[str]:
    """Who sat where, ``Seat N`` for a seat without a stored name."""
    names = [f"Seat {i + 1}" for i in range(seats)]
    for seat in game.seats:
        if 0 <= seat.seat < seats:
            names[seat.seat] = seat.display_name
    return names


def utc(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp, UTC)


def termination(outcome: Outcome | None, log: Sequence[ActionRow]) -> str:
    """How a game ended, in the words game files use: normal, resignation, timeout, ..."""
    if outcome is None:
        return "unfinished"
    if log and log[-1].kind == "timeout":
        return "timeout"
    return {"resign": "resignation", "abandon": "abandoned"}.get(
        str(outcome.reason), str(outcome.reason)
    )
