"""Backgammon matches played elsewhere, for ``/review import``: the formats read and their
variants.

* ``.mat``: GNU Backgammon's and Jellyfish's match files, as :func:`read_mat` reads them (the
  same reader as ``/export``'s files).
* ``.txt``: the plain-text match exports of eXtreme Gammon, Backgammon Galaxy and similar
  sites, the Jellyfish layout (``Game 1`` / ``Player A : 0   Player B : 0`` /
  ``1) 31: 8/5 6/5    42: 24/20 13/11``). :func:`normalise` brings their common variants to
  the ``.mat`` layout first: tabs, tag lines without the ``;``, ``7-point match``, ``Match to 7
  points`` and money sessions (``Unlimited``, ``Money``), ``Game 3 (Crawford)``, comment lines
  among the moves, ``Redoubles``, ``Accepts``, ``Passes`` and ``Rejects``; the moves themselves
  may use ``bar`` and ``off`` (or 25 and 0), ``*`` for hits, ``(2)`` for a repeated step,
  whole checker paths (``24/13``) and ``Can't move`` / ``No move`` for a roll with no play.
* ``.sgf``: GNU Backgammon's saved matches (:mod:`bot.games.backgammon_sgf`).

Every file is replayed move by move by the rules (:class:`bot.games.backgammon_export.MatReader`),
so a move the rules refuse is named with its line.
"""

from __future__ import annotations

import re
from typing import Final

from bot.games.backgammon_export import read_mat
from bot.games.backgammon_sgf import FORMAT as SGF
from bot.games.backgammon_sgf import looks_like_sgf, read_sgf
from bot.games.files import GameReader, ImportedGame

_HEADER = re.compile(
    r"^\s*(?:(\d+)\s*-?\s*points?\s+match\b|match\s+to\s+(\d+)\s+points?\b|"
    r"(unlimited|money)\b)",
    re.I,
)
_TAG = re.compile(r'^\s*(?:[;#]\s*)?\[([A-Za-z][A-Za-z0-9 ]*?)\s+"(.*)"\]\s*$')
_GAME = re.compile(r"^\s*Game\s+(\d+)\b.*$", re.I)
_WORDS: Final = (
    (re.compile(r"\bredoubles?\b", re.I), "Doubles"),
    (re.compile(r"\baccepts?\b", re.I), "Takes"),
    (re.compile(r"\b(?:passes|rejects?)\b", re.I), "Drops"),
)


def normalise(text: str) -> str:
    """A Jellyfish-style text export in the ``.mat`` layout the reader takes (see the module
    docstring for the variants)."""
    out: list[str] = []
    header_seen = False
    for raw in text.splitlines():
        line = raw.expandtabs(8).rstrip()
        if not header_seen:
            tag = _TAG.match(line)
            if tag is not None:
                out.append(f'; [{tag[1]} "{tag[2]}"]')
                continue
            header = _HEADER.match(line)
            if header is not None:
                length = header[1] or header[2] or "0"
                out.append(f" {int(length)} point match")
                header_seen = True
                continue
            out.append(line)
            continue
        stripped = line.strip()
        if stripped.startswith((";", "#")):
            continue  # a comment among the moves
        game = _GAME.match(line)
        if game is not None:
            out.append(f" Game {int(game[1])}")
            continue
        for pattern, word in _WORDS:
            line = pattern.sub(word, line)
        out.append(line)
    return "\n".join(out) + "\n"


def _reader(format: str) -> GameReader:
    def read(text: str) -> ImportedGame:
        record, names, first = read_mat(normalise(text))
        return ImportedGame(record, names, format, first)

    return GameReader(format, (f".{format}",) if format == "mat" else (".txt",), _is_match, read)


def _is_match(text: str) -> bool:
    return any(_HEADER.match(line) for line in text.splitlines()[:200])


READERS: Final = (
    _reader("mat"),
    GameReader(SGF, (".sgf",), looks_like_sgf, read_sgf),
    _reader("text"),
)
