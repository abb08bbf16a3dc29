"""eXtreme Gammon's XGID, field for field.

``XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10`` (the starting position, money):

1. the checkers, 26 characters from the bottom player's side: character 0 is the top
   player's bar, 1-24 the points 1-24 of the bottom player, 25 the bottom player's bar;
   ``-`` is empty, ``A``-``O`` that many bottom checkers, ``a``-``o`` that many top ones;
2. the cube as log2 of its value; 3. who owns it: 1 bottom, -1 top, 0 centred;
4. whose turn: 1 bottom, -1 top; 5. the dice: ``00`` not rolled, ``D`` a double offered
   (``B`` beavered, ``R`` raccooned), else the two dice;
6. the bottom player's score, 7. the top player's; 8. in a match 1 for the Crawford game,
   in money play the Jacoby rule (1) plus beavers allowed (2); 9. the match length (0 =
   money); 10. the cube's maximum as log2 (optional in older IDs; XG writes 10).

:class:`XgId` holds exactly what the text says, so a parsed ID writes back unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engines.common import InvalidPosition

PREFIX = "XGID="
CUBE_ACTIONS = ("D", "B", "R")  # double offered, beavered, raccooned
_MAX_FIELD = 32767  # scores and lengths as GNU's Match ID holds them


class BadId(InvalidPosition):
    """A pasted ID that cannot be read: ``key`` is the catalogue key saying why."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True, slots=True)
class XgId:
    """An XGID's fields. ``bottom`` and ``top`` are 25 counts each from that player's own side
    (points 1-24, then the bar), like a ``Position``'s sides."""

    bottom: tuple[int, ...]
    top: tuple[int, ...]
    cube_log: int = 0
    cube_position: int = 0  # 1 bottom owns, -1 top owns, 0 centred
    turn: int = 1  # 1 bottom, -1 top
    dice: str = "00"  # "00", "D", "B", "R" or two dice
    score_bottom: int = 0
    score_top: int = 0
    rules: int = 0  # match: Crawford game; money: Jacoby + 2 * beavers
    match_length: int = 0
    max_cube: int | None = 10

    def text(self) -> str:
        cells = ["-"] * 26
        for index in range(24):
            if self.bottom[index]:
                cells[index + 1] = chr(ord("A") + self.bottom[index] - 1)
            if self.top[index]:
                cells[24 - index] = chr(ord("a") + self.top[index] - 1)
        if self.bottom[24]:
            cells[25] = chr(ord("A") + self.bottom[24] - 1)
        if self.top[24]:
            cells[0] = chr(ord("a") + self.top[24] - 1)
        fields = [
            "".join(cells),
            str(self.cube_log),
            str(self.cube_position),
            str(self.turn),
            self.dice,
            str(self.score_bottom),
            str(self.score_top),
            str(self.rules),
            str(self.match_length),
        ]
        if self.max_cube is not None:
            fields.append(str(self.max_cube))
        return PREFIX + ":".join(fields)

    @property
    def rolled(self) -> tuple[int, int] | None:
        """The dice, when they are cast."""
        if len(self.dice) == 2 and self.dice.isdigit() and self.dice != "00":
            return int(self.dice[0]), int(self.dice[1])
        return None


def _int(text: str, low: int, high: int, field: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise BadId("analyze.why.xgid_field", field=field, value=text[:12]) from None
    if not low <= value <= high:
        raise BadId("analyze.why.xgid_field", field=field, value=text[:12])
    return value


def parse_xgid(text: str) -> XgId:
    """The fields of an XGID (with or without ``XGID=``); raises :class:`BadId`."""
    body = text.strip()
    if body.upper().startswith(PREFIX):
        body = body[len(PREFIX) :]
    fields = body.split(":")
    if len(fields) not in (9, 10):
        raise BadId("analyze.why.xgid_count", count=len(fields))
    board = fields[0]
    if len(board) != 26:
        raise BadId("analyze.why.xgid_board", length=len(board))
    bottom = [0] * 25
    top = [0] * 25
    for cell, char in enumerate(board):
        if char == "-":
            continue
        if "A" <= char <= "O":
            count, side = ord(char) - ord("A") + 1, bottom
            if cell == 0:
                raise BadId("analyze.why.xgid_char", char=char, cell=cell)
            side[24 if cell == 25 else cell - 1] = count
        elif "a" <= char <= "o":
            count, side = ord(char) - ord("a") + 1, top
            if cell == 25:
                raise BadId("analyze.why.xgid_char", char=char, cell=cell)
            side[24 if cell == 0 else 24 - cell] = count
        else:
            raise BadId("analyze.why.xgid_char", char=char, cell=cell)
    dice = fields[4]
    if dice not in ("00", *CUBE_ACTIONS) and not (
        len(dice) == 2 and all(c in "123456" for c in dice)
    ):
        raise BadId("analyze.why.xgid_field", field="dice", value=dice[:12])
    return XgId(
        bottom=tuple(bottom),
        top=tuple(top),
        cube_log=_int(fields[1], 0, 15, "cube"),
        cube_position=_int(fields[2], -1, 1, "cube position"),
        turn=_turn(fields[3]),
        dice=dice,
        score_bottom=_int(fields[5], 0, _MAX_FIELD, "score"),
        score_top=_int(fields[6], 0, _MAX_FIELD, "score"),
        rules=_int(fields[7], 0, 3, "Crawford/Jacoby"),
        match_length=_int(fields[8], 0, _MAX_FIELD, "match length"),
        max_cube=_int(fields[9], 0, 15, "max cube") if len(fields) == 10 else None,
    )


def _turn(text: str) -> int:
    value = _int(text, -1, 1, "turn")
    if value == 0:
        raise BadId("analyze.why.xgid_field", field="turn", value=text)
    return value
