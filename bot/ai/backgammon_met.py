"""Match equity table: Kazaross-XG2, for matches up to 25 points.

Data from GNU Backgammon's ``met/Kazaross-XG2.xml`` ("Table rolled up to 9 point match. Then
uses R/K MET which was rolled up to 15 and extrapolated to 25 points by Neil Kazaross 2011."
Copying and distribution of verbatim and modified versions of this file is permitted in any
medium provided the copyright notice and this permission notice are preserved.)

``PRE_CRAWFORD[i][j]`` is the chance of winning the match when needing ``i + 1`` points
against an opponent needing ``j + 1``; the 1-away row and column are the Crawford game.
``POST_CRAWFORD[j]`` is the trailer's chance, needing ``j + 1``, after the Crawford game
against a leader needing 1. The numbers are in ``met/`` beside this module.
"""

from __future__ import annotations

from importlib import resources
from typing import Final

MAX_AWAY: Final = 25


def _rows(name: str, width: int) -> tuple[tuple[float, ...], ...]:
    """The table in ``met/<name>.txt``: numbers apart by white space, ``width`` a row."""
    text = resources.files("bot.ai").joinpath("met", f"{name}.txt").read_text("ascii")
    values = [float(word) for word in text.split()]
    if len(values) % width:
        raise ValueError("match equity table data is not rectangular")
    return tuple(tuple(values[i : i + width]) for i in range(0, len(values), width))


PRE_CRAWFORD: Final = _rows("kazaross-xg2-pre-crawford", MAX_AWAY)
POST_CRAWFORD: Final = _rows("kazaross-xg2-post-crawford", MAX_AWAY)[0]


def match_equity(mine: int, theirs: int, post_crawford: bool = False) -> float:
    """Chance of winning the match needing ``mine`` points against ``theirs``.

    ``post_crawford``: the Crawford game has been played, so a side at 1-away faces a
    doubling trailer. Scores of 0 or less mean that side has already won. Longer matches
    than the table use its last row or column.
    """
    if mine <= 0:
        return 1.0
    if theirs <= 0:
        return 0.0
    if post_crawford and theirs == 1 and mine > 1:
        return POST_CRAWFORD[min(mine, MAX_AWAY) - 1]
    if post_crawford and mine == 1 and theirs > 1:
        return 1.0 - POST_CRAWFORD[min(theirs, MAX_AWAY) - 1]
    return PRE_CRAWFORD[min(mine, MAX_AWAY) - 1][min(theirs, MAX_AWAY) - 1]
