"""GNU Backgammon's Position ID and Match ID, bit for bit.

Both are little-endian bit strings packed into bytes and written in standard Base64 without
padding (gnubg ``positionid.c`` and ``matchid.c``; manual, "A technical description of the
Position ID / Match ID").

Position key: for each of the two players, for the 25 slots (points 1-24 from that player's
own side, then the bar), as many 1 bits as checkers followed by one 0 bit. gnubg's
``PositionKey`` walks ``anBoard[0]`` first, and in gnubg ``anBoard[1]`` is the player on roll,
so the player NOT on roll comes first. (The manual's prose says the opposite; the code and
gnubg's own board output, e.g. ``AgAAPBcAAAAAAA`` with X on roll, settle it.)

Match key (0-based bit offsets): 0-3 log2 of the cube, 4-5 cube owner (0, 1, or 3 centred),
6 player on roll, 7 Crawford game, 8-10 game state, 11 player to decide (turn), 12 double
offered, 13-14 resignation offered, 15-17 and 18-20 the dice, 21-35 match length (0 = money),
36-50 player 0's score, 51-65 player 1's score, 66 set when the Jacoby rule is NOT in use
(gnubg 1.x ``matchid.c``; the manual's older example ``QYkqASAAIAAA`` predates that bit, which
is why it reads as "Jacoby on"). gnubg 1.x also writes the larger die first.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from typing import Any

from bot.engines.common import InvalidPosition

# gnubg's game states in the match key
GAME_NONE = 0
GAME_PLAYING = 1
GAME_OVER = 2
GAME_RESIGNED = 3
GAME_DROP = 4

_MATCH_FIELDS: tuple[tuple[str, int, int], ...] = (
    # name, first bit, width
    ("cube_log", 0, 4),
    ("cube_owner", 4, 2),
    ("on_roll", 6, 1),
    ("crawford", 7, 1),
    ("game_state", 8, 3),
    ("turn", 11, 1),
    ("double_offered", 12, 1),
    ("resignation", 13, 2),
    ("die1", 15, 3),
    ("die2", 18, 3),
    ("match_length", 21, 15),
    ("score0", 36, 15),
    ("score1", 51, 15),
    ("no_jacoby", 66, 1),
)


def _b64decode(text: str, length: int, what: str) -> bytes:
    if len(text) != length:
        raise InvalidPosition(f"A {what} has {length} characters, not {len(text)}.")
    padded = text + "=" * (-len(text) % 4)
    try:
        return base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError) as error:
        raise InvalidPosition(f"{text!r} is not a valid {what}.") from error


def encode_position_id(mine: Sequence[int], theirs: Sequence[int]) -> str:
    """The 14-character Position ID; ``mine`` is the player on roll (gnubg layout, 25 slots)."""
    key = 0
    bit = 0
    for side in (theirs, mine):
        for count in side:
            # ``count`` ones, then the zero that the skipped bit leaves behind
            key |= ((1 << count) - 1) << bit
            bit += count + 1
    return base64.b64encode(key.to_bytes(10, "little")).decode("ascii")[:14]


def decode_position_id(pid: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(mine, theirs)`` from a Position ID; checks only that the bit string is well formed."""
    raw = _b64decode(pid.strip(), 14, "Position ID")
    key = int.from_bytes(raw, "little")
    sides: list[tuple[int, ...]] = []
    bit = 0
    for _ in range(2):
        counts = []
        for _ in range(25):
            count = 0
            while bit < 80 and key >> bit & 1:
                count += 1
                bit += 1
            bit += 1
            counts.append(count)
        sides.append(tuple(counts))
    if bit > 80:
        raise InvalidPosition(f"{pid!r} is not a valid Position ID.")
    theirs, mine = sides
    return mine, theirs


def encode_match_id(
    *,
    cube_value: int,
    cube_owner: int | None,
    on_roll: int,
    crawford: bool,
    game_state: int,
    turn: int,
    double_offered: bool,
    resignation: int,
    dice: tuple[int, int] | tuple[()],
    match_length: int,
    score: tuple[int, int],
    jacoby: bool = False,
) -> str:
    """The 12-character Match ID. Players are gnubg's 0 and 1 (white = seat 0 = player 0)."""
    if cube_value < 1 or cube_value & (cube_value - 1):
        raise ValueError(f"cube value {cube_value} is not a power of two")
    die1, die2 = (max(dice), min(dice)) if dice else (0, 0)
    values = {
        "cube_log": cube_value.bit_length() - 1,
        "cube_owner": 3 if cube_owner is None else cube_owner,
        "on_roll": on_roll,
        "crawford": int(crawford),
        "game_state": game_state,
        "turn": turn,
        "double_offered": int(double_offered),
        "resignation": resignation,
        "die1": die1,
        "die2": die2,
        "match_length": match_length,
        "score0": score[0],
        "score1": score[1],
        "no_jacoby": int(not jacoby),
    }
    key = 0
    for name, start, width in _MATCH_FIELDS:
        value = values[name]
        if not 0 <= value < 1 << width:
            raise ValueError(f"{name}={value} does not fit in a Match ID")
        key |= value << start
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def decode_match_id(mid: str) -> dict[str, Any]:
    """Every field of a Match ID, decoded.

    Keys: ``cube_value``, ``cube_owner`` (``None`` = centred), ``on_roll``, ``crawford``,
    ``game_state`` (gnubg's 0-4), ``turn``, ``double_offered``, ``resignation`` (0 none,
    1 single, 2 gammon, 3 backgammon), ``dice`` (``()`` when not rolled), ``match_length``
    (0 = money game), ``score`` (player 0, player 1), ``jacoby``.
    """
    raw = _b64decode(mid.strip(), 12, "Match ID")
    key = int.from_bytes(raw, "little")
    fields = {name: key >> start & ((1 << width) - 1) for name, start, width in _MATCH_FIELDS}
    owner = fields["cube_owner"]
    if owner == 2:
        raise InvalidPosition(f"{mid!r} is not a valid Match ID (cube owner 2).")
    die1, die2 = fields["die1"], fields["die2"]
    return {
        "cube_value": 1 << fields["cube_log"],
        "cube_owner": None if owner == 3 else owner,
        "on_roll": fields["on_roll"],
        "crawford": bool(fields["crawford"]),
        "game_state": fields["game_state"],
        "turn": fields["turn"],
        "double_offered": bool(fields["double_offered"]),
        "resignation": fields["resignation"],
        "dice": (die1, die2) if die1 and die2 else (),
        "match_length": fields["match_length"],
        "score": (fields["score0"], fields["score1"]),
        "jacoby": not fields["no_jacoby"],
    }
