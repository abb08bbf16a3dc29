"""GNU Backgammon's ``.sgf`` match files (Smart Game Format, ``GM[6]``), read for
``/review import``.

gnubg saves a match as one game tree per game of the match, ``(;FF[4]GM[6]...MI[length:N]
[game:G][ws:A][bs:B]PW[white's name]PB[black's name]RU[Crawford]RE[W+2]...;W[52mhmk];B[...]
...)``. A move node is ``W[...]`` or ``B[...]``: the dice (``52``) then one pair of letters per
checker step, from and to, ``a``-``x`` the points (1-24 from white's side: white's point
``idx + 1``, black's ``24 - idx``), ``y`` the bar, ``z`` off; the dice alone is a roll that could
not be played; ``double``, ``take``, ``drop`` the cube. A roll followed by a resignation is
``PL[W]DI[56]`` (the dice without a move) and the result ``RE[B+1R]`` (``R``: resigned).

Each node becomes a cell of the ``.mat`` reader (white's column first, black's second) and the
match is replayed by it (:class:`bot.games.backgammon_export.MatReader`), with its line
numbers, so an illegal move is named by the line of its node. Positions set up by hand
(``AB``, ``AW``, ``AE``) and games other than backgammon are refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bot.engines import backgammon
from bot.engines.common import GameRecord
from bot.games.backgammon_export import MatReader
from bot.games.files import GameFileError, ImportedGame
from bot.vocabulary.imports import ImportRefused

FORMAT = "sgf"
_LETTERS = "abcdefghijklmnopqrstuvwx"
_SETUP = frozenset({"AB", "AW", "AE"})
_MOVE = re.compile(r"^([1-6])([1-6])((?:[a-z]{2}){0,4})$")
_RESULT = re.compile(r"^([WB])\+(\d+)(R?)", re.I)
_MATCH_INFO = re.compile(r"^(length|game|ws|bs):(\d+)$")


@dataclass(slots=True)
class _Node:
    line: int
    props: dict[str, list[str]] = field(default_factory=dict)


def _trees(text: str) -> list[list[_Node]]:
    """The game trees of ``text``: each a list of nodes (main line only), with the line each
    node starts on. Raises ImportRefused for text that is not SGF."""
    trees: list[list[_Node]] = []
    depth = 0
    index, line, size = 0, 1, len(text)
    current: list[_Node] | None = None
    while index < size:
        char = text[index]
        if char == "\n":
            line += 1
        elif char == "(":
            depth += 1
            if depth > 1:  # a variation: not the match as it was played
                raise ImportRefused("import.not_match")
            current = []
            trees.append(current)
        elif char == ")":
            depth -= 1
            if depth < 0:
                raise ImportRefused("import.not_match")
        elif char == ";":
            if current is None or depth != 1:
                raise ImportRefused("import.not_match")
            current.append(_Node(line))
        elif char.isalpha() and char.isupper():
            end = index
            while end < size and text[end].isalpha():
                end += 1
            name = text[index:end]
            values: list[str] = []
            index = end
            while index < size and text[index] in " \t\r\n[":
                if text[index] == "\n":
                    line += 1
                if text[index] != "[":
                    index += 1
                    continue
                close = index + 1
                value: list[str] = []
                while close < size and text[close] != "]":
                    if text[close] == "\\" and close + 1 < size:
                        close += 1
                    if text[close] == "\n":
                        line += 1
                    value.append(text[close])
                    close += 1
                if close >= size:
                    raise ImportRefused("import.truncated")
                values.append("".join(value))
                index = close + 1
            if not values:
                raise ImportRefused("import.not_match")
            if current is None or depth != 1 or not current:
                raise ImportRefused("import.not_match")
            current[-1].props.setdefault(name, []).extend(values)
            continue
        elif not char.isspace():
            raise ImportRefused("import.not_match")
        index += 1
    if depth != 0:
        raise ImportRefused("import.truncated")
    if not trees or not any(trees):
        raise ImportRefused("import.not_match")
    return trees


def _point(letter: str, white: bool) -> int:
    if letter == "y":
        return backgammon.BAR
    if letter == "z":
        return backgammon.OFF
    index = _LETTERS.index(letter)
    return index + 1 if white else 24 - index


def _cell(value: str, white: bool, line: int) -> str:
    """A move node's value as a ``.mat`` cell from the mover's side: ``52: 13/11 13/8``."""
    word = value.strip().lower()
    if word in ("double", "take", "drop"):
        return word
    move = _MOVE.match(word)
    if move is None or any(c not in _LETTERS + "yz" for c in move[3]):
        raise GameFileError(f"line {line}: cannot read the move {value[:20]!r}")
    pairs = [move[3][i : i + 2] for i in range(0, len(move[3]), 2)]
    steps = " ".join(f"{_point(p[0], white)}/{_point(p[1], white)}" for p in pairs)
    return f"{move[1]}{move[2]}: {steps}".rstrip()


def _root_info(root: _Node) -> dict[str, int]:
    info: dict[str, int] = {}
    for value in root.props.get("MI", []):
        found = _MATCH_INFO.match(value.strip())
        if found is not None:
            info[found[1]] = int(found[2])
    return info


def read_sgf(text: str) -> ImportedGame:
    """The match of a GNU Backgammon ``.sgf`` file, replayed by the rules."""
    trees = _trees(text)
    first = trees[0][0]
    if first.props.get("GM", ["6"])[0].strip() != "6":
        raise ImportRefused("import.other_game")
    length = _root_info(first).get("length", 0)
    rules = " ".join(first.props.get("RU", [])).lower()
    options: dict[str, Any] = {"match_length": length, "cube": "nocube" not in rules}
    reader = MatReader(options, backgammon)
    names = (first.props.get("PW", [""])[0], first.props.get("PB", [""])[0])
    for number, tree in enumerate(trees, start=1):
        if not tree:
            continue
        reader.line = tree[0].line
        reader.start_game(number)
        result = _RESULT.match(tree[0].props.get("RE", [""])[0].strip())
        for node in tree:
            if _SETUP & node.props.keys():
                raise ImportRefused("import.setup")
            reader.line = node.line
            for colour in ("W", "B"):
                for value in node.props.get(colour, []):
                    reader.cell(0 if colour == "W" else 1, _cell(value, colour == "W", node.line))
            dice = node.props.get("DI", [])
            player = node.props.get("PL", [""])[0].strip().upper()
            if dice and player in ("W", "B"):
                reader.cell(0 if player == "W" else 1, f"{dice[0].strip()[:2]}:")
        if result is not None and result[3] and reader.game_on():
            winner = 0 if result[1].upper() == "W" else 1
            reader.cell(winner, f"Wins {result[2]} points")
    names_by_seat = names if reader.left in (None, 0) else (names[1], names[0])
    record = GameRecord(backgammon.GAME, options, tuple(reader.actions))
    return ImportedGame(record, names_by_seat, FORMAT, reader.left or 0)


def looks_like_sgf(text: str) -> bool:
    return text.lstrip().startswith("(;")
