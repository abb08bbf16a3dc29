"""An independent Hypergammon solver for the tests: plain Python, its plays from backgammon's
engine (not the numba solver's move generator), solved by Jacobi value iteration over
dictionaries. Fast enough for one checker a side (a few hundred positions)."""

from __future__ import annotations

import itertools

from bot.engines.backgammon_position import Position, legal_plays, win_kind

Side = tuple[int, ...]
Key = tuple[Side, Side]
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def _position(mine: Side, theirs: Side) -> Position:
    boards = []
    for side in (mine, theirs):
        board = [0] * 25
        for v in side:
            if v:
                board[v - 1] += 1
        boards.append(tuple(board))
    return Position(boards[0], boards[1])


def _side(board: tuple[int, ...]) -> Side:
    return tuple(sorted(v + 1 for v, n in enumerate(board) for _ in range(n)))


def positions(checkers: int) -> list[Key]:
    """Every valid position with a game still to play."""
    sides = list(itertools.combinations_with_replacement(range(26), checkers))
    keys = []
    for mine, theirs in itertools.product(sides, sides):
        if not any(mine) or not any(theirs):
            continue
        if any(1 <= m <= 24 and t == 25 - m for m in mine for t in theirs):
            continue
        keys.append((mine, theirs))
    return keys


def _padded(side: Side, checkers: int) -> Side:
    return tuple(sorted((0,) * (checkers - len(side)) + side))


def successors(key: Key, checkers: int) -> list[tuple[float, list[tuple[float, Key | None]]]]:
    """For each roll, its chance and the plays as (value if the game ends, next key)."""
    mine, theirs = key
    position = _position(mine, theirs)
    out = []
    for a, b in ROLLS:
        chance = 1 / 36 if a == b else 2 / 36
        plays = legal_plays(position, (a, b))
        options: list[tuple[float, Key | None]] = []
        for play in plays:
            if not any(play.result.mine):
                options.append((float(win_kind(play.result, checkers)[0]), None))
            else:
                after = (
                    _padded(_side(play.result.theirs), checkers),
                    _padded(_side(play.result.mine), checkers),
                )
                options.append((0.0, after))
        if not options:
            options.append((0.0, (theirs, mine)))
        out.append((chance, options))
    return out


def solve(checkers: int, sweeps: int = 400) -> dict[Key, tuple[float, float, float, float]]:
    """(cubeless, not doubling centred, owned, theirs) for every position, as the table
    holds them."""
    keys = positions(checkers)
    moves = {key: successors(key, checkers) for key in keys}
    value = dict.fromkeys(keys, (0.0, 0.0, 0.0, 0.0))

    def cubeful(v: tuple[float, float, float, float]) -> tuple[float, float, float]:
        double = min(2 * v[3], 1.0)
        return max(v[1], double), max(v[2], double), v[3]

    for _ in range(sweeps):
        new = {}
        for key in keys:
            total = [0.0, 0.0, 0.0, 0.0]
            for chance, options in moves[key]:
                best = [-9.0] * 4
                for won, after in options:
                    if after is None:
                        these = (won, won, won, won)
                    else:
                        e = value[after]
                        centred, owned, theirs = cubeful(e)
                        these = (-e[0], -centred, -theirs, -owned)
                    best = [max(x, y) for x, y in zip(best, these, strict=True)]
                total = [t + chance * b for t, b in zip(total, best, strict=True)]
            new[key] = (total[0], total[1], total[2], total[3])
        value = new
    return value
