"""Games played elsewhere, brought in for a review (``/review import``): the limits a file
must keep, the refusal every bad file gets, and the mark of a seat that was not played on
Discord.

Shared by the game files that read the formats (``GameSpec.readers``), the import service and
the pages that show an imported game. Every refusal is an :class:`ImportRefused` whose key
(``import.<why>``) says what is wrong with the file, so nothing of it is echoed back.
"""

from __future__ import annotations

from typing import Final

from bot.vocabulary.errors import TabulaError

MAX_IMPORT_BYTES: Final = 256 * 1024  # the largest file taken (a 25-point match is ~60 KB)
MAX_IMPORT_LINES: Final = 20_000  # lines of text, however short
MAX_IMPORT_ACTIONS: Final = 10_000  # rolls, moves and cube actions replayed
NAME_LIMIT: Final = 32  # characters of a player's name in a file
DOWNLOAD_SECONDS: Final = 10.0  # the longest the attachment's download may take
ELSEWHERE: Final = "elsewhere"  # the stored level of a seat played outside Tabula


class ImportRefused(TabulaError):
    """A file refused by ``/review import``: ``key`` is one of ``import.too_large``,
    ``import.empty``, ``import.binary``, ``import.encoding``, ``import.control``,
    ``import.unknown_type``, ``import.not_match``, ``import.bad_line`` (``line``: a line
    that does not read or an illegal move on it), ``import.illegal`` (a move the rules refuse
    outside a numbered line), ``import.truncated``, ``import.setup``,
    ``import.other_game``, ``import.name_long``, ``import.name_mention``,
    ``import.name_markup``, ``import.no_player``, ``import.download``, ``import.too_many``."""

    key = "import.not_match"
