"""Computer players for the Royal Game of Ur.

Levels
    ``easy``: a uniformly random legal move. ``medium``: fixed priorities (capture, rosette,
    bear off, rescue a piece in danger, enter, advance), random among equals. ``hard`` (and
    ``expert``): expectiminimax over the dice to a fixed number of rolls, scoring the leaves
    with :func:`evaluate`. ``perfect``: the move with the highest winning chance in the solved
    table (:mod:`bot.ai.ur_table`), passed in by the caller; ``hard`` without one. All
    randomness comes from the ``rng`` passed in, so a decision is reproducible from the seed.

Search
    The search works on mover-relative integers, the same bit masks the engine uses: ``mine``,
    ``theirs`` (board squares 1-14 as bits) and the two counts of pieces not yet entered.
    Values are always from the point of view of the side about to roll; a turn that passes to
    the opponent negates. A move onto a rosette keeps the same side to roll, so it is not
    negated. Chance nodes are memoised per decision, as different move orders often meet.
"""

from __future__ import annotations

import random
from typing import Final

from bot.ai.levels import PERFECT, Level
from bot.ai.ur_table import UrTable, installed
from bot.engines.common import Phase
from bot.engines.ur import (
    DICE,
    OFF,
    PIECES,
    ROLL_PROBABILITIES,
    ROSETTE_MASK,
    SHARED_MASK,
    SHARED_ROSETTE,
    SHARED_ROSETTE_BIT,
    TARGET_MASK,
    Move,
    Position,
    UrState,
    apply_move,
    legal_moves,
)

# Number of rolls the hard level looks ahead beyond the roll it is moving for. Measured on the
# 2-core target: depth 2 decides in 0.5 ms median, 1.3 ms p95; depth 3 in 5 ms median, 15 ms
# p95 (41 ms worst) but played no better (vs medium: 68% at depth 2 over 1000 games, 65% at
# depth 3 over 400; depth 3 against depth 2: even), so the cheaper depth is the default.
HARD_DEPTH: Final = 2

WIN: Final = 1000.0
# Value of a piece on each path square (0 = waiting, 15 = off). Progress counts square by
# square; entering is worth a little more (a piece in its own lane is safe and gives the dice
# more useful moves), the shared rosette much more (safe, and it blocks the opponent), and the
# last two squares and "off" too, because nothing can touch them any more. Tuned by matches
# against the medium level (depth 2: 62% with plain progress, 68% with these).
SQUARE_VALUES: Final = (0, 2, 3, 4, 6, 5, 6, 7, 11, 9, 10, 11, 12, 15, 16, 19)
# A threatened piece is weighed by the chance of the opponent rolling a hitting number. The
# side about to roll strikes first; its own pieces it can still rescue with this move, so
# their risk counts for less.
ATTACK_WEIGHT: Final = 0.8
RISK_WEIGHT: Final = 0.5

# Having the dice is worth about one average move; without it, lines that end after an extra
# roll (one side moved twice) would look better than they are.
TEMPO: Final = 2.5

HITTABLE_MASK: Final = SHARED_MASK & ~SHARED_ROSETTE_BIT
_P0, _P1, _P2, _P3, _P4 = ROLL_PROBABILITIES


def _mask_values(shift: int) -> tuple[float, ...]:
    """Sum of SQUARE_VALUES over each 8-bit slice of a board mask (bits ``shift``..+7)."""
    squares = [shift + bit for bit in range(8)]
    return tuple(
        float(sum(SQUARE_VALUES[s] for s in squares if byte >> (s - shift) & 1 and s < OFF))
        for byte in range(256)
    )


_LOW: Final = _mask_values(0)
_HIGH: Final = _mask_values(8)


# (distance, chance of rolling it) for each distance a piece can hit from
_HITTING_ROLLS: Final = ((1, _P1), (2, _P2), (3, _P3), (4, _P4))


def _threat(attackers: int, targets: int) -> float:
    """The chance-weighted value of the ``targets`` the ``attackers`` can hit with one roll.

    Rolls are exclusive events, so summing P(d) over the distances d that hit a piece gives
    the chance that piece can be hit at all."""
    total = 0.0
    for distance, chance in _HITTING_ROLLS:
        hit = (attackers << distance) & targets & HITTABLE_MASK
        if hit:
            total += chance * (_LOW[hit & 255] + _HIGH[hit >> 8])
    return total


def evaluate(mine: int, theirs: int, my_waiting: int, their_waiting: int) -> float:
    """Heuristic value of a position for the side about to roll (``mine``), in piece-squares.

    Progress of all pieces (SQUARE_VALUES), plus the chance-weighted value of the opponent's
    pieces this side can hit with its next roll, minus the same for its own pieces.
    """
    my_off = PIECES - my_waiting - mine.bit_count()
    their_off = PIECES - their_waiting - theirs.bit_count()
    score = (
        _LOW[mine & 255]
        + _HIGH[mine >> 8]
        - _LOW[theirs & 255]
        - _HIGH[theirs >> 8]
        + (my_off - their_off) * SQUARE_VALUES[OFF]
    )
    attack, risk = _threat(mine, theirs), _threat(theirs, mine)
    return score + TEMPO + ATTACK_WEIGHT * attack - RISK_WEIGHT * risk


class _Search:
    """One decision's expectiminimax, with its memo of chance-node values."""

    __slots__ = ("memo", "nodes")

    def __init__(self) -> None:
        self.memo: dict[int, float] = {}
        self.nodes = 0

    def after_move(
        self, mine: int, theirs: int, mw: int, tw: int, source: int, target: int, depth: int
    ) -> float:
        """Value, for the mover, of playing ``source -> target`` then searching ``depth`` rolls."""
        if source:
            mine ^= 1 << source
        else:
            mw -= 1
        if target == OFF:
            if not mine and not mw:
                return WIN
            return -self.chance(theirs, mine, tw, mw, depth)
        bit = 1 << target
        mine |= bit
        if theirs & bit & SHARED_MASK:
            theirs ^= bit
            tw += 1
        if bit & ROSETTE_MASK:
            return self.chance(mine, theirs, mw, tw, depth)
        return -self.chance(theirs, mine, tw, mw, depth)

    def chance(self, mine: int, theirs: int, mw: int, tw: int, depth: int) -> float:
        """Expected value for the side about to roll, looking ``depth`` rolls ahead."""
        if depth == 0:
            return evaluate(mine, theirs, mw, tw)
        key = mine | theirs << 15 | mw << 30 | tw << 33 | depth << 36
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        self.nodes += 1
        depth -= 1
        passed: float | None = None
        sources = (mine | 1) if mw else mine
        blocked = mine | (theirs & SHARED_ROSETTE_BIT)
        total = 0.0
        for roll, chance in ((1, _P1), (2, _P2), (3, _P3), (4, _P4)):
            targets = (sources << roll) & ~blocked & TARGET_MASK
            if not targets:
                if passed is None:
                    passed = -self.chance(theirs, mine, tw, mw, depth)
                total += chance * passed
                continue
            best = -2 * WIN
            while targets:
                low = targets & -targets
                target = low.bit_length() - 1
                targets ^= low
                value = self.after_move(mine, theirs, mw, tw, target - roll, target, depth)
                if value > best:
                    best = value
            total += chance * best
        if passed is None:
            passed = -self.chance(theirs, mine, tw, mw, depth)
        total += _P0 * passed
        self.memo[key] = total
        return total


def _relative(position: Position) -> tuple[int, int, int, int]:
    if position.to_move == "light":
        return position.light, position.dark, position.light_waiting, position.dark_waiting
    return position.dark, position.light, position.dark_waiting, position.light_waiting


def move_values(position: Position, roll: int, depth: int = HARD_DEPTH) -> dict[Move, float]:
    """Expectiminimax value of each legal move, for the side to move (higher is better)."""
    mine, theirs, mw, tw = _relative(position)
    search = _Search()
    return {
        move: search.after_move(mine, theirs, mw, tw, move.source, move.target, depth)
        for move in legal_moves(position, roll)
    }


def _hard(position: Position, roll: int, moves: list[Move], rng: random.Random) -> Move:
    if len(moves) == 1:
        return moves[0]
    values = move_values(position, roll)
    best = max(values.values())
    # Exact ties are common (two pieces that end on equivalent squares); the rng breaks them.
    return rng.choice([move for move in moves if values[move] >= best - 1e-9])


def _medium_priority(theirs: int, move: Move) -> tuple[int, int]:
    """(rule rank, progress) for a move: higher ranks follow the medium level's priorities."""
    source, target = move.source, move.target
    bit = 1 << target
    if target != OFF and theirs & bit & SHARED_MASK:
        return 6, target  # capture; the further the captured piece had come, the better
    if bit & ROSETTE_MASK:
        return 5, target
    if target == OFF:
        return 4, source
    if _in_danger(theirs, source) and not _in_danger(theirs, target):
        return 3, source  # rescue the most advanced runner in danger
    if source == 0:
        return 2, 0
    if not _in_danger(theirs, target) and source != SHARED_ROSETTE:
        return 1, target
    return 0, target


def _in_danger(theirs: int, square: int) -> bool:
    """Whether an opponent piece 1-4 squares behind could hit a piece on ``square``."""
    if not HITTABLE_MASK >> square & 1:
        return False
    behind = theirs >> max(square - DICE, 0) & ((1 << min(DICE, square)) - 1)
    return bool(behind)


def _medium(position: Position, moves: list[Move], rng: random.Random) -> Move:
    _, theirs, _, _ = _relative(position)
    ranked = [(_medium_priority(theirs, move), move) for move in moves]
    best = max(rank for rank, _ in ranked)
    return rng.choice([move for rank, move in ranked if rank == best])


def move_chances(position: Position, roll: int, table: UrTable) -> list[tuple[Move, float]]:
    """Each legal move with the mover's chance to win after it under perfect play, best first.

    The position must be one ``table`` covers (its moves then are too: a move never brings a
    piece back from off the board).
    """
    mover = position.to_move
    chances = []
    for move in legal_moves(position, roll):
        after, again = apply_move(position, move)
        if after.winner() == mover:
            chance = 1.0
        elif again:
            chance = table.win_chance(after)
        else:
            chance = 1.0 - table.win_chance(after)
        chances.append((move, chance))
    chances.sort(key=lambda pair: -pair[1])
    return chances


def _perfect(
    position: Position, roll: int, moves: list[Move], table: UrTable, rng: random.Random
) -> Move:
    if len(moves) == 1:
        return moves[0]
    chances = move_chances(position, roll, table)
    best = chances[0][1]
    # Equal values are equivalent moves to the table's precision; the rng picks one.
    return rng.choice([move for move, chance in chances if chance >= best])


def choose_move(
    position: Position,
    roll: int,
    level: Level,
    rng: random.Random,
    table: UrTable | None = None,
) -> Move:
    """The move ``level`` plays for the side to move with ``roll``; ValueError if none is legal.

    ``perfect`` reads ``table`` (default: the table installed with
    :func:`bot.ai.ur_table.install`); where there is none, or the position is outside a table
    built with fewer pieces, it plays as ``hard``.
    """
    moves = legal_moves(position, roll)
    if not moves:
        raise ValueError(f"No legal move with a roll of {roll} in {position}.")
    if level == "easy":
        return rng.choice(moves)
    if level == "medium":
        return _medium(position, moves, rng)
    if level == PERFECT:
        table = table or installed()
        if table is not None and table.covers(position):
            return _perfect(position, roll, moves, table, rng)
    return _hard(position, roll, moves, rng)


def choose_action(
    state: UrState, level: Level, rng: random.Random, table: UrTable | None = None
) -> Move:
    """The move to play in ``state`` (which must be in the MOVE phase)."""
    if state.phase is not Phase.MOVE:
        raise ValueError(f"The AI moves only in the move phase, not in {state.phase.value!r}.")
    return choose_move(state.position, sum(state.dice), level, rng, table)
