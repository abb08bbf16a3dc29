"""Backgammon positions and the plays a roll allows.

A :class:`Position` is always seen from the player on roll, in gnubg's layout: ``mine`` and
``theirs`` are 25-tuples where index ``i`` (0-23) holds the checkers on point ``i + 1``
counted from that player's own side and index 24 holds that player's bar; checkers not on
the board are borne off. My point ``p`` is the opponent's point ``25 - p``, i.e. index
``24 - p`` of ``theirs``.

Steps are ``(from_point, to_point)`` in the mover's numbering: 25 is the bar, 0 is off.
Points and tuple indices line up as ``index = point - 1`` for 1-25, which keeps the hot loops
free of special cases for the bar.

Rules implemented (standard rules; ../shared/rules/RULINGS.md "Backgammon"): a point with
two or more opposing checkers is blocked, a lone opposing checker is hit to the bar, the bar
must be emptied before any other checker moves, doubles are played four times, as many dice
as possible must be used and, when only one of two different dice can be used, the larger
one if it can. Bearing off needs all of a side's checkers in the home board; a die may bear off
from the point of its number, or from the highest occupied point when it is larger.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from bot.engines.backgammon_ids import decode_position_id, encode_position_id
from bot.engines.common import InvalidPosition

CHECKERS = 15
"""Each side's checkers in backgammon; a variant played with fewer passes its own count to
what counts the checkers borne off (:meth:`Position.borne_off`, :func:`win_kind`)."""
BAR = 25  # the bar as a step's from-point
OFF = 0  # bearing off as a step's to-point

Board = tuple[int, ...]
Step = tuple[int, int]
# {point: checkers}; points 1-24, the bar as 25 or "bar". Keys are checked at run time: mypy
# types a literal like {"bar": 1, 6: 5} as dict[object, int], which no narrower type accepts.
PointCounts = Mapping[Any, int]

_START: Board = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


@dataclass(frozen=True, slots=True)
class Position:
    """Checkers of both players from the point of view of the player on roll (gnubg layout)."""

    mine: Board
    theirs: Board

    @classmethod
    def initial(cls) -> Position:
        return cls(_START, _START)

    @classmethod
    def from_points(cls, mine: PointCounts, theirs: PointCounts) -> Position:
        """Build a position from ``{point: count}`` per side, points from each side's own view.

        Keys are 1-24, or 25 / ``"bar"`` for the bar; missing checkers are borne off. Meant
        for readable fixtures: ``Position.from_points({6: 5, 8: 3}, {"bar": 1, 24: 2})``.
        """
        return cls(_board_from_points(mine), _board_from_points(theirs)).checked()

    @classmethod
    def from_position_id(cls, pid: str) -> Position:
        """Decode GNU Backgammon's 14-character Position ID (player on roll = ``mine``)."""
        mine, theirs = decode_position_id(pid)
        return cls(mine, theirs).checked()

    def position_id(self) -> str:
        """GNU Backgammon's Position ID of this position (``mine`` is on roll)."""
        return encode_position_id(self.mine, self.theirs)

    def checked(self) -> Position:
        """``self`` after checking the invariants; raises :class:`InvalidPosition`."""
        for name, side in (("mine", self.mine), ("theirs", self.theirs)):
            if len(side) != 25 or any(type(n) is not int or n < 0 for n in side):
                raise InvalidPosition(f"{name} must be 25 non-negative counts.")
            if sum(side) > CHECKERS:
                raise InvalidPosition(f"{name} has more than {CHECKERS} checkers.")
        for i in range(24):
            if self.mine[i] and self.theirs[23 - i]:
                raise InvalidPosition(f"Both players have checkers on point {i + 1}.")
        return self

    def swapped(self) -> Position:
        """The same board seen by the other player."""
        return Position(self.theirs, self.mine)

    def pip_counts(self) -> tuple[int, int]:
        """(mine, theirs): pips each side needs to bear off; a checker on the bar counts 25."""
        return _pips(self.mine), _pips(self.theirs)

    def borne_off(self, checkers: int = CHECKERS) -> tuple[int, int]:
        """(mine, theirs): checkers already borne off, of ``checkers`` a side."""
        return checkers - sum(self.mine), checkers - sum(self.theirs)

    def __str__(self) -> str:
        return f"Position({self.position_id()})"


@dataclass(frozen=True, slots=True)
class Play:
    """One legal way to play a roll: the steps in a legal order and the resulting position.

    ``result`` is still seen from the mover (not swapped). Two plays are the same play
    exactly when their results are equal; :func:`legal_plays` picks one step order for each.
    """

    steps: tuple[Step, ...]
    result: Position


def _board_from_points(points: PointCounts) -> Board:
    board = [0] * 25
    for key, count in points.items():
        point = BAR if key == "bar" else key
        if not isinstance(point, int) or not 1 <= point <= BAR:
            raise InvalidPosition(f"{key!r} is not a point (1-24, 25 or 'bar').")
        board[point - 1] += count
    return tuple(board)


def _pips(side: Board) -> int:
    return sum(count * (index + 1) for index, count in enumerate(side))


def win_kind(position: Position, checkers: int = CHECKERS) -> tuple[int, str]:
    """How much the mover wins when ``mine`` is all borne off: (1, single), (2, gammon)...

    Gammon: the loser has borne off nothing (of its ``checkers``). Backgammon: and still has
    a checker on the bar or in the winner's home board (the loser's points 19-24).
    """
    theirs = position.theirs
    if sum(theirs) < checkers:
        return 1, "single"
    if theirs[24] or any(theirs[18:24]):
        return 3, "backgammon"
    return 2, "gammon"


# ---------------------------------------------------------------------------------------------
# Single steps


def single_steps(mine: Board, theirs: Board, die: int) -> list[tuple[int, int, Board, Board]]:
    """Every legal single-checker step for ``die``: ``(from, to, mine_after, theirs_after)``.

    ``theirs_after`` is the very same tuple as ``theirs`` unless the step hit a blot.
    Sources come highest first (the bar, then 24 down to 1), which makes the step order of
    the plays built from them deterministic and gnubg-like.
    """
    out: list[tuple[int, int, Board, Board]] = []
    if mine[24]:
        target = 25 - die
        blockers = theirs[die - 1]  # their point 25 - target == die
        if blockers < 2:
            after = list(mine)
            after[24] -= 1
            after[target - 1] += 1
            if blockers:
                hit = list(theirs)
                hit[die - 1] = 0
                hit[24] += 1
                out.append((BAR, target, tuple(after), tuple(hit)))
            else:
                out.append((BAR, target, tuple(after), theirs))
        return out
    highest = 23
    while not mine[highest]:
        highest -= 1
        if highest < 0:
            return out
    # Not bearing off (a checker outside the home board): only sources whose target stays
    # on the board, so the bear-off branch below is never reached.
    stop = die - 1 if highest >= 6 else -1
    for index in range(highest, stop, -1):
        if not mine[index]:
            continue
        target = index - die  # an index, like ``index``
        if target >= 0:
            blockers = theirs[23 - target]
            if blockers < 2:
                after = list(mine)
                after[index] -= 1
                after[target] += 1
                if blockers:
                    hit = list(theirs)
                    hit[23 - target] = 0
                    hit[24] += 1
                    out.append((index + 1, target + 1, tuple(after), tuple(hit)))
                else:
                    out.append((index + 1, target + 1, tuple(after), theirs))
        elif target == -1 or index == highest:
            # the exact number, or a larger die from the highest occupied point
            after = list(mine)
            after[index] -= 1
            out.append((index + 1, OFF, tuple(after), theirs))
    return out


# ---------------------------------------------------------------------------------------------
# Whole plays


def legal_plays(position: Position, dice: tuple[int, int]) -> list[Play]:
    """One :class:`Play` per distinct legal resulting position; empty when nothing can move."""
    return list(_plays(position, _check_dice(dice)))


def _check_dice(dice: tuple[int, ...]) -> tuple[int, int]:
    if len(dice) != 2 or not all(type(d) is int and 1 <= d <= 6 for d in dice):
        raise ValueError(f"backgammon needs two dice from 1 to 6, not {dice!r}")
    return dice[0], dice[1]


@functools.lru_cache(maxsize=64)
def _plays(position: Position, dice: tuple[int, int]) -> tuple[Play, ...]:
    # Cached because a turn asks for the same plays several times (listing, validating,
    # notation); callers get a fresh list from the public wrappers.
    high, low = max(dice), min(dice)
    if high == low:
        found = _double_plays(position.mine, position.theirs, high)
    else:
        found = _mixed_plays(position.mine, position.theirs, high, low)
    return tuple(Play(steps, Position(mine, theirs)) for steps, mine, theirs in found)


def _mixed_plays(
    mine: Board, theirs: Board, high: int, low: int
) -> list[tuple[tuple[Step, ...], Board, Board]]:
    # Both orders of the two dice, deduplicated by the resulting board. The key is the
    # board of the mover alone when nothing was hit (``theirs`` is then the same object),
    # which keeps hashing cheap; a 2-tuple key can never equal a 25-tuple one.
    seen: dict[object, tuple[tuple[Step, ...], Board, Board]] = {}
    firsts_high = single_steps(mine, theirs, high)
    firsts_low = single_steps(mine, theirs, low)
    for firsts, second in ((firsts_high, low), (firsts_low, high)):
        for frm1, to1, mine1, theirs1 in firsts:
            for frm2, to2, mine2, theirs2 in single_steps(mine1, theirs1, second):
                key: object = mine2 if theirs2 is theirs else (mine2, theirs2)
                if key not in seen:
                    seen[key] = (((frm1, to1), (frm2, to2)), mine2, theirs2)
    if seen:
        return list(seen.values())
    # Only one die can be used: the larger one if it can be, else the smaller.
    singles = firsts_high or firsts_low
    return [(((frm, to),), after, hit) for frm, to, after, hit in singles]


def _double_plays(
    mine: Board, theirs: Board, die: int
) -> list[tuple[tuple[Step, ...], Board, Board]]:
    # Breadth first over the four dice. Any legal sequence of equal dice stays legal when
    # its steps are sorted by from-point, highest first (a step can only be enabled by steps
    # from higher points: arrivals, entering from the bar, bringing checkers home), so each
    # branch only tries sources no higher than its last one. Boards reached twice at the
    # same depth are merged, keeping the branch that allows the most continuations.
    frontier: dict[object, tuple[tuple[Step, ...], Board, Board, int]] = {
        None: ((), mine, theirs, BAR)
    }
    for _ in range(4):
        nxt: dict[object, tuple[tuple[Step, ...], Board, Board, int]] = {}
        for steps, board, other, limit in frontier.values():
            for frm, to, after, hit in single_steps(board, other, die):
                if frm > limit:
                    continue
                key: object = after if hit is theirs else (after, hit)
                known = nxt.get(key)
                if known is None or known[3] < frm:
                    nxt[key] = ((*steps, (frm, to)), after, hit, frm)
        if not nxt:
            break
        frontier = nxt
    if None in frontier:  # not even one step was possible
        return []
    return [(steps, board, other) for steps, board, other, _ in frontier.values()]


# ---------------------------------------------------------------------------------------------
# Step-by-step input for the UI


def legal_steps(
    position: Position, dice: tuple[int, int], taken: tuple[Step, ...] = ()
) -> list[Step]:
    """The single steps that, after ``taken``, still begin some whole legal play.

    A player who only ever picks from this list can never walk into a dead end. Sorted by
    from-point then to-point, highest first. Empty when ``taken`` is already a whole play
    or is not the start of one.
    """
    return list(_after_steps(position, _check_dice(dice), tuple(taken))[0])


def play_for_steps(
    position: Position, dice: tuple[int, int], taken: tuple[Step, ...]
) -> Play | None:
    """The legal play that ``taken`` completes, or ``None`` if it is not (yet) a whole play."""
    return _after_steps(position, _check_dice(dice), tuple(taken))[1]


def position_after_steps(
    position: Position, dice: tuple[int, int], taken: tuple[Step, ...]
) -> tuple[Position, tuple[int, ...]] | None:
    """The position after the single steps ``taken`` of a play in progress (hits made), and
    the dice still to play; ``None`` when ``taken`` is no start of a legal play."""
    here = _walker(position, _check_dice(dice)).follow(tuple(taken))
    if here is None:
        return None
    mine, theirs, left = here
    return Position(mine, theirs), left


@functools.lru_cache(maxsize=64)
def _after_steps(
    position: Position, dice: tuple[int, int], taken: tuple[Step, ...]
) -> tuple[tuple[Step, ...], Play | None]:
    """The next legal steps after ``taken`` and the play it completes, if any.

    Cached because one redraw asks both for the buttons, for the lit points and for the
    selected point's targets, and the click that follows asks again.
    """
    walker = _walker(position, dice)
    here = walker.follow(taken)
    if here is None:
        return (), None
    mine, theirs, dice_left = here
    steps = sorted(
        {(frm, to) for frm, to, _, _ in walker.continuations(mine, theirs, dice_left)},
        key=lambda step: (-step[0], -step[1]),
    )
    complete = walker.by_result.get(Position(mine, theirs)) if len(taken) == walker.length else None
    return tuple(steps), complete


@functools.lru_cache(maxsize=16)
def _walker(position: Position, dice: tuple[int, int]) -> _StepWalker:
    # Shared by every step of one turn, so the memo of which partial plays can still be
    # completed is built once per roll, not once per click. Threads may share a walker:
    # the memo only ever gains entries, each the same whoever computes it.
    return _StepWalker(position, dice)


class _StepWalker:
    """Single steps of one roll, knowing which partial plays can still become legal plays.

    A step's die is implicit: ``from - to``, or for a bear-off ``(p, 0)`` the smallest die
    that bears that checker off and still lets the play be completed. (When two dice could
    bear the same checker off, both are at least the highest occupied point, so every later
    choice is the same whichever one is used.)
    """

    def __init__(self, position: Position, dice: tuple[int, int]) -> None:
        plays = _plays(position, dice)
        self.position = position
        self.by_result = {play.result: play for play in plays}
        self.length = len(plays[0].steps) if plays else 0
        self.dice: tuple[int, ...] = (dice[0],) * 4 if dice[0] == dice[1] else tuple(dice)
        self._memo: dict[tuple[Board, Board, tuple[int, ...]], bool] = {}

    def _finishes(self, mine: Board, theirs: Board, dice_left: tuple[int, ...]) -> bool:
        if len(self.dice) - len(dice_left) == self.length:
            return Position(mine, theirs) in self.by_result
        key = (mine, theirs, dice_left)
        known = self._memo.get(key)
        if known is None:
            known = any(True for _ in self.continuations(mine, theirs, dice_left))
            self._memo[key] = known
        return known

    def continuations(
        self, mine: Board, theirs: Board, dice_left: tuple[int, ...]
    ) -> Iterator[tuple[int, int, Board, Board]]:
        """Next steps that keep a legal play reachable, smallest die first."""
        if len(self.dice) - len(dice_left) >= self.length:
            return
        for die in sorted(set(dice_left)):
            rest = list(dice_left)
            rest.remove(die)
            rest_t = tuple(rest)
            for frm, to, after, hit in single_steps(mine, theirs, die):
                if self._finishes(after, hit, rest_t):
                    yield frm, to, after, hit

    def follow(self, taken: tuple[Step, ...]) -> tuple[Board, Board, tuple[int, ...]] | None:
        """Where ``taken`` leads: ``(mine, theirs, dice_left)``, or ``None`` if it cannot."""
        if not self.length:
            return None if taken else (self.position.mine, self.position.theirs, self.dice)
        mine, theirs, dice_left = self.position.mine, self.position.theirs, self.dice
        for step in taken:
            for die in sorted(set(dice_left)):
                rest = list(dice_left)
                rest.remove(die)
                rest_t = tuple(rest)
                moved = next(
                    (
                        (after, hit)
                        for frm, to, after, hit in single_steps(mine, theirs, die)
                        if (frm, to) == step and self._finishes(after, hit, rest_t)
                    ),
                    None,
                )
                if moved is not None:
                    mine, theirs = moved
                    dice_left = rest_t
                    break
            else:
                return None
        return mine, theirs, dice_left


def hits_of(position: Position, steps: tuple[Step, ...]) -> tuple[bool, ...]:
    """For each step of a play, whether it hit a blot (replayed on ``position``)."""
    theirs = position.theirs
    mine = list(position.mine)
    out = []
    for frm, to in steps:
        hit = to > 0 and theirs[24 - to] == 1
        if hit:
            other = list(theirs)
            other[24 - to] = 0
            other[24] += 1
            theirs = tuple(other)
        mine[frm - 1] -= 1
        if to:
            mine[to - 1] += 1
        out.append(hit)
    return tuple(out)
