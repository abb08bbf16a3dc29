"""Every position of a small Ur game, listed without ``bot.ai.ur_table``'s index: what the
solver and table tests count and check against."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

Key = tuple[int, int, int, int]  # mover's board, opponent's board, mover waiting, opponent waiting
SHARED = 0x1FE0  # the middle lane (squares 5 to 12), where the two sides' pieces meet


def sides(pieces: int) -> Iterator[tuple[int, int]]:
    """(board mask, waiting) of one side with at most ``pieces`` pieces not yet off."""
    for size in range(pieces + 1):
        for squares in itertools.combinations(range(1, 15), size):
            mask = sum(1 << s for s in squares)
            for waiting in range(pieces - size + 1):
                yield mask, waiting


def positions(pieces: int) -> list[Key]:
    """Every position of the ``pieces``-piece game, side to move first."""
    every = list(sides(pieces))
    return [
        (mine, theirs, mw, tw)
        for mine, mw in every
        for theirs, tw in every
        if not mine & theirs & SHARED
    ]
