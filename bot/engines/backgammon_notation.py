"""gnubg-style text for backgammon plays: ``24/18 13/8*``, ``bar/22``, ``6/off``, ``8/5(2)``.

Writing: each checker's consecutive steps are joined into one chain (``24/18/13``), points
where nothing was hit are dropped from the middle of a chain (``24/13``, but ``24/18*/13``),
identical chains are counted (``8/5(2)``), and chains are listed from the highest point.
If that short form could be read two ways, the chains are written out point by point.

Reading accepts that form and plain step lists alike (``24/18 18/13``, ``25/22``,
``6/0``): the text is walked on the board with the dice, and the legal play with the same
resulting position is the answer. A ``*`` only matters to choose between readings that
differ in what they hit.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from bot.engines.backgammon_position import (
    BAR,
    OFF,
    Board,
    Play,
    Position,
    Step,
    hits_of,
    legal_plays,
    single_steps,
)
from bot.engines.common import IllegalMove, NotationError

_COUNT = re.compile(r"^(.*?)\((\d)\)$")


def _point_text(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def format_play(position: Position, dice: tuple[int, int], play: Play) -> str:
    """The short gnubg-style text of ``play`` for ``dice`` from ``position``."""
    chains = _chains(position, play.steps)
    short = _join(chains, compress=True)
    try:
        if parse_play(position, dice, short) == play:
            return short
    except IllegalMove:
        pass
    return _join(chains, compress=False)


def _chains(position: Position, steps: tuple[Step, ...]) -> list[list[tuple[int, bool]]]:
    """Steps grouped per checker: ``[(start, False), (point, hit), ...]``."""
    chains: list[list[tuple[int, bool]]] = []
    for (frm, to), hit in zip(steps, hits_of(position, steps), strict=True):
        for chain in reversed(chains):
            if chain[-1][0] == frm and frm not in (BAR, OFF):
                chain.append((to, hit))
                break
        else:
            chains.append([(frm, False), (to, hit)])
    return chains


def _join(chains: list[list[tuple[int, bool]]], *, compress: bool) -> str:
    texts: list[tuple[int, int, str]] = []
    for chain in chains:
        kept = [
            (point, hit)
            for index, (point, hit) in enumerate(chain)
            if not compress or hit or index in (0, len(chain) - 1)
        ]
        text = "/".join(_point_text(point) + ("*" if hit else "") for point, hit in kept)
        texts.append((chain[0][0], chain[-1][0], text))
    texts.sort(key=lambda item: (-item[0], -item[1]))
    parts: list[str] = []
    counts: list[int] = []
    for _, _, text in texts:
        if parts and parts[-1] == text and "*" not in text:
            counts[-1] += 1
        else:
            parts.append(text)
            counts.append(1)
    return " ".join(
        text if count == 1 else f"{text}({count})"
        for text, count in zip(parts, counts, strict=True)
    )


# ---------------------------------------------------------------------------------------------
# Reading


def _read_point(word: str, text: str) -> int:
    word = word.strip()
    if word in ("bar", "b"):
        return BAR
    if word == "off":
        return OFF
    if word.isdigit() and 0 <= int(word) <= BAR:
        return int(word)
    raise NotationError(f"Cannot read {text!r}: {word!r} is not a point (1-24, bar or off).")


def read_segments(text: str) -> tuple[list[Step], frozenset[int]]:
    """The checker movements a play text describes, and the points marked with ``*``."""
    segments: list[Step] = []
    marks: set[int] = set()
    words = text.lower().replace(",", " ").split()
    if not words:
        raise NotationError("Empty move.")
    for word in words:
        count = 1
        matched = _COUNT.match(word)
        if matched:
            word, count = matched.group(1), int(matched.group(2))
            if not 1 <= count <= 4:
                raise NotationError(f"Cannot read {text!r}: a checker count is 1 to 4.")
        parts = word.split("/")
        if len(parts) < 2:
            raise NotationError(
                f"Cannot read {text!r}: write moves as from/to, like 24/18 or bar/22 or 6/off."
            )
        points: list[int] = []
        for part in parts:
            marked = part.endswith("*")
            point = _read_point(part.rstrip("*"), text)
            if marked:
                marks.add(point)
            points.append(point)
        for frm, to in itertools.pairwise(points):
            if frm <= to or frm == OFF or to == BAR:
                raise NotationError(
                    f"Cannot read {text!r}: {_point_text(frm)}/{_point_text(to)} moves the "
                    "wrong way (your checkers move from 24 down to 1, then off)."
                )
        for _ in range(count):
            segments.extend(itertools.pairwise(points))
    if len(segments) > 4:
        raise NotationError(f"Cannot read {text!r}: a roll moves at most four times.")
    return segments, frozenset(marks)


def parse_play(position: Position, dice: tuple[int, int], text: str) -> Play:
    """The legal play ``text`` describes for ``dice`` from ``position``."""
    plays = legal_plays(position, dice)
    roll = f"{dice[0]}-{dice[1]}"
    if not plays:
        raise IllegalMove(f"No checker can move with {roll}.")
    segments, marks = read_segments(text)
    by_result = {play.result: play for play in plays}
    dice_left = (dice[0],) * 4 if dice[0] == dice[1] else (dice[0], dice[1])
    readings: dict[Position, set[frozenset[int]]] = {}
    for mine, theirs, hits in _walk_segments(
        position.mine, position.theirs, tuple(segments), None, dice_left, frozenset()
    ):
        readings.setdefault(Position(mine, theirs), set()).add(hits)
    legal = [result for result in readings if result in by_result]
    if len(legal) > 1:
        legal = [result for result in legal if marks in readings[result]]
    if len(legal) == 1:
        return by_result[legal[0]]
    if len(legal) > 1:
        raise NotationError(
            f"{text!r} can be played more than one way with {roll}; mark hits with * "
            "or write every step, like 24/18*/13."
        )
    if not readings:
        raise IllegalMove(f"{text} cannot be played with {roll}.")
    used = len(plays[0].steps)
    if used == 1 and dice[0] != dice[1]:
        raise IllegalMove(
            f"{text} is not allowed with {roll}: only one die can be used, "
            "and it must be the larger one when it can be."
        )
    raise IllegalMove(
        f"{text} is not allowed with {roll}: you must use "
        f"{'all four' if used == 4 else 'both' if used == 2 else used} dice when you can."
    )


def _walk_segments(
    mine: Board,
    theirs: Board,
    segments: tuple[Step, ...],
    current: Step | None,
    dice_left: tuple[int, ...],
    hits: frozenset[int],
) -> Iterator[tuple[Board, Board, frozenset[int]]]:
    """Every way to walk the segments (in any order) with the dice: end boards and hits."""
    if current is None:
        if not segments:
            yield mine, theirs, hits
            return
        for index, segment in enumerate(segments):
            if segment in segments[:index]:
                continue
            rest = segments[:index] + segments[index + 1 :]
            yield from _walk_segments(mine, theirs, rest, segment, dice_left, hits)
        return
    frm, goal = current
    for die in sorted(set(dice_left)):
        rest_dice = list(dice_left)
        rest_dice.remove(die)
        for src, to, after, hit in single_steps(mine, theirs, die):
            if src != frm or (to < goal and goal != OFF):
                continue
            now_hits = hits | {to} if hit is not theirs else hits
            nxt = None if to == goal else (to, goal)
            yield from _walk_segments(after, hit, segments, nxt, tuple(rest_dice), now_hits)
