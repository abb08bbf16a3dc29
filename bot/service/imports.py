"""Reviews of games played elsewhere (``/review import``): a file read, replayed by the
rules, stored as a finished unrated game marked imported, and reviewed through the same
path as a game played here (:class:`bot.service.review.ReviewService`).

API (for ``bot.ui.imports``)::

    service = ImportService(db, reviews, clock=clock.now)
    service.check_size(attachment.size)          # before the download: ImportRefused
    found = await service.import_file(
        filename, content, user_id=..., user_names=("Ada", "ada_"), channel_id=..., player=None,
    )                                             # ImportRefused for a bad file; nothing stored
    review = await service.reviews.review(found.game_id)

Which formats are read is each game's (``GameSpec.readers``): a file goes to the reader whose
extension ends its name, else to the first whose ``sniff`` knows its text. Every refusal is an
:class:`~bot.vocabulary.imports.ImportRefused` (its key names the reason) raised before
anything is written; a file that passes is stored in one transaction
(:func:`bot.storage.store_import`).

Checks, in order: the size (at most :data:`MAX_IMPORT_BYTES`, not empty), the importer's
imports in the last day (:data:`DAILY_IMPORTS`), binary content (a NUL byte), strict UTF-8 (a
byte-order mark allowed), control characters (anything but tab and line ends, and the
invisible direction marks), the number of lines, the format, each line read and played by the
rules (an illegal move names its line), the match played to its end, the number of actions,
then the players' names: at most :data:`NAME_LIMIT` characters, no mention (``@``, ``<@id>``)
and no Markdown or link characters.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot import games
from bot import storage as store
from bot.clock import SYSTEM_CLOCK
from bot.engines.common import Abandon, EngineError, Phase, Replay, Resign, Roll
from bot.games import AnyGame
from bot.games.files import GameFileError, GameReader, ImportedGame
from bot.games.review import ReviewUnavailable
from bot.service.games import new_game_id
from bot.service.review import ReviewService
from bot.vocabulary.imports import (
    ELSEWHERE,
    MAX_IMPORT_ACTIONS,
    MAX_IMPORT_BYTES,
    MAX_IMPORT_LINES,
    NAME_LIMIT,
    ImportRefused,
)

__all__ = ["DAILY_IMPORTS", "ImportRefused", "ImportService", "Imported"]

DAILY_IMPORTS: Final = 20  # imports per person in any 24 hours (each is an expert review)
DAY: Final = 86_400.0
_LINE = re.compile(r"^line (\d+): (.*)$", re.S)
_MENTION = re.compile(r"@|<[@#:/]|<a:|<t:")
_MARKUP = re.compile(r"[`*~|\[\]<>\\#]|://")
_ALLOWED_FORMAT = frozenset("\u200c\u200d")  # joiners some scripts' names need


@dataclass(frozen=True, slots=True)
class Imported:
    """An imported game as stored: its id, the reader's format, the players' names by seat
    and the importer's seat."""

    game_id: str
    game: str
    format: str
    names: tuple[str, ...]
    seat: int


def decode(content: bytes) -> str:
    """``content`` as text, or the refusal of a file that is not clean UTF-8 text."""
    if not content.strip():
        raise ImportRefused("import.empty")
    if b"\x00" in content:
        raise ImportRefused("import.binary")
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportRefused("import.encoding") from None
    for char in text:
        if char in "\t\r\n" or char in _ALLOWED_FORMAT:
            continue
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co"):
            raise ImportRefused("import.control")
    if text.count("\n") + 1 > MAX_IMPORT_LINES:
        raise ImportRefused("import.too_large", limit=MAX_IMPORT_BYTES // 1024)
    return text


def reader_for(filename: str, text: str) -> tuple[AnyGame, GameReader]:
    """The game and reader of a file: by its extension, else by its text."""
    name = filename.lower()
    offered = [(game, reader) for game in games.all() for reader in game.readers]
    for game, reader in offered:
        if name.endswith(reader.extensions):
            return game, reader
    for game, reader in offered:
        if reader.sniff(text):
            return game, reader
    raise ImportRefused("import.unknown_type", formats=formats_read())


def formats_read() -> str:
    """What ``/review import`` reads, per game: ``Backgammon (.mat, .sgf, .txt)``."""
    return "; ".join(
        f"{game.title} ({', '.join(e for r in game.readers for e in r.extensions)})"
        for game in games.all()
        if game.readers
    )


def checked_name(name: str, seat: int) -> str:
    """A player's name from the file, refused where it could ping, link or format."""
    name = " ".join(name.split())
    if len(name) > NAME_LIMIT:
        raise ImportRefused("import.name_long", limit=NAME_LIMIT)
    if _MENTION.search(name):
        raise ImportRefused("import.name_mention")
    if _MARKUP.search(name):
        raise ImportRefused("import.name_markup")
    return name or f"Player {seat + 1}"


def choose_seat(names: Sequence[str], player: str | None, yours: Sequence[str], first: int) -> int:
    """The importer's seat: the one ``player`` names (a name or its number in seat order,
    1, 2, ...); without it the seat bearing one of the importer's own names, else the player
    the file names first."""
    folded = [n.casefold() for n in names]
    if player is not None and player.strip():
        asked = " ".join(player.split()).casefold()
        if asked.isdigit() and 1 <= int(asked) <= len(names):
            return int(asked) - 1
        if asked in folded:
            return folded.index(asked)
        raise ImportRefused("import.no_player", names=", ".join(names))
    for own in yours:
        if own and own.casefold() in folded:
            return folded.index(own.casefold())
    return first


class ImportService:
    def __init__(
        self,
        db: store.Database,
        reviews: ReviewService,
        *,
        clock: Callable[[], float] = SYSTEM_CLOCK.now,
        new_id: Callable[[], str] = new_game_id,
    ) -> None:
        self.db = db
        self.reviews = reviews
        self.clock = clock
        self.new_id = new_id

    def _reviewable(self, spec: AnyGame) -> None:
        """Refuse, before storing anything, a file whose game cannot be reviewed here now."""
        review = spec.review
        if review is None:
            raise ReviewUnavailable(
                "error.review_not_offered", games=games.titles(lambda g: g.review)
            )
        expert = self.reviews.pool
        if review.needs_expert and (expert is None or not getattr(expert, "available", True)):
            raise ReviewUnavailable("error.review_unavailable")
        if review.needs_table and not spec.table_ready():
            raise ReviewUnavailable("error.review_no_table", **spec.table_missing)

    @staticmethod
    def check_size(size: int) -> None:
        """Refuse a file too large to take before downloading it."""
        if size > MAX_IMPORT_BYTES:
            raise ImportRefused("import.too_large", limit=MAX_IMPORT_BYTES // 1024)
        if size <= 0:
            raise ImportRefused("import.empty")

    def _replayed(
        self, filename: str, content: bytes
    ) -> tuple[AnyGame, ImportedGame, Any, list[store.ImportedLog]]:
        """The file's game, its record, final state and log to store (pure: no I/O)."""
        text = decode(content)
        spec, reader = reader_for(filename, text)
        self._reviewable(spec)
        read = _read(reader, text)
        if len(read.record.actions) > MAX_IMPORT_ACTIONS:
            raise ImportRefused("import.too_large", limit=MAX_IMPORT_BYTES // 1024)
        final, log = _replay(spec, read)
        return spec, read, final, log

    async def import_file(
        self,
        filename: str,
        content: bytes,
        *,
        user_id: int,
        user_names: Sequence[str] = (),
        channel_id: int,
        player: str | None = None,
    ) -> Imported:
        """Read, replay and store the game in ``content``; raises ImportRefused (nothing
        stored) for a file that cannot be taken."""
        self.check_size(len(content))
        now = self.clock()
        if await store.count_imports(self.db, user_id, now - DAY) >= DAILY_IMPORTS:
            raise ImportRefused("import.too_many", count=DAILY_IMPORTS)
        # Reading and replaying a file of up to 10,000 actions is CPU work: off the event loop.
        spec, read, final, log = await asyncio.to_thread(self._replayed, filename, content)
        names = tuple(checked_name(name, seat) for seat, name in enumerate(read.names))
        seat = choose_seat(names, player, user_names, read.first_seat)
        seats = [
            store.SeatRow(s, user_id, None, name)
            if s == seat
            else store.SeatRow(s, None, ELSEWHERE, name)
            for s, name in enumerate(names)
        ]
        rolls = sum(1 for entry in log if entry.kind == "roll")
        game_id = self.new_id()
        await store.store_import(
            self.db,
            game_id=game_id,
            game=spec.kind,
            channel_id=channel_id,
            options_json=json.dumps(dict(read.record.options)),
            state_json=json.dumps({"engine": spec.rules.dump_state(final), "rolls": rolls}),
            seats=seats,
            actions=log,
            imported=store.ImportRow(
                game_id=game_id,
                user_id=user_id,
                format=read.format,
                filename=_stored_name(filename),
                size=len(content),
                sha256=hashlib.sha256(content).hexdigest(),
                created_at=now,
            ),
        )
        return Imported(game_id, spec.kind, read.format, names, seat)


def _stored_name(filename: str) -> str:
    """The file's name as kept (never shown): printable, at most 100 characters."""
    kept = "".join(c for c in filename if c.isprintable())
    return kept[-100:] or "upload"


def _read(reader: GameReader, text: str) -> ImportedGame:
    try:
        return reader.read(text)
    except GameFileError as error:
        raise _refusal(str(error)) from None
    except EngineError:  # a reader's own replay, outside a numbered line
        raise ImportRefused("import.illegal") from None


def _refusal(message: str) -> ImportRefused:
    line = _LINE.match(message)
    if line is None:
        return ImportRefused("import.not_match")
    # The line's number, not its words: the reason is the engine's (English) and the line is
    # the file's (anyone's text); the person reads that line in their own file.
    return ImportRefused("import.bad_line", line=int(line[1]))


def _replay(spec: AnyGame, read: ImportedGame) -> tuple[Any, list[store.ImportedLog]]:
    """The final state of the record, played to its end, and the log to store."""
    rules = spec.rules
    steps = Replay(rules, read.record.options, read.record.actions)
    log: list[store.ImportedLog] = []
    try:
        for (before, action, _after), notation in zip(steps, read.record.actions, strict=False):
            seat: int | None
            if isinstance(action, Abandon) or (
                isinstance(action, Roll) and spec.rolls_itself(before)
            ):
                seat = None  # nobody's: the table's roll, a match stopped
            elif isinstance(action, Resign):
                seat = action.seat
            else:
                seat = int(before.turn)
            log.append(store.ImportedLog(seat, spec.action_kind(action), notation))
    except EngineError:
        raise ImportRefused("import.illegal") from None
    final = steps.state
    if final.phase != Phase.FINISHED:
        raise ImportRefused("import.truncated")
    return final, log
