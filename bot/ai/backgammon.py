"""Computer players for backgammon: checker play and the doubling cube.

Levels
    ``easy``: a uniformly random legal play; never doubles, takes every double.
    ``medium``: one look at each play's result with rules of thumb (hit, make points, keep
    blots out of direct range, run when ahead in the race, bear off in a race); cube by pip
    count (double with a lead of 8-25%, take unless 15% or more behind).
    ``hard`` (and ``expert``, until a stronger engine-backed level exists): the evaluation of
    :mod:`bot.ai.backgammon_eval` on every legal play (1 ply), then the best few candidates
    again at 2 ply: the average, over the opponent's 21 rolls, of our chances after its best
    reply by the 1-ply evaluation. Cube decisions come from the evaluation's chances through
    :mod:`bot.ai.backgammon_cube` (Janowski for money, Kazaross-XG2 for matches).

The 2-ply refinement has a work budget counted in evaluations rather than seconds, so a
decision never depends on the machine's speed: every level is deterministic given ``rng``,
which only breaks exact ties (and draws the easy level's plays).
"""

from __future__ import annotations

import random
from typing import Final

from bot.ai.backgammon_cube import Chances, CubeSituation, should_double, should_take
from bot.ai.backgammon_eval import (
    gammon_chances,
    has_contact,
    score,
    sigmoid,
    win_chance,
)
from bot.ai.backgammon_race import pips
from bot.ai.levels import Level
from bot.engines.backgammon import (
    CHECKERS,
    BackgammonState,
    Double,
    Drop,
    Phase,
    Play,
    Position,
    Take,
    can_double,
    legal_plays,
)
from bot.engines.common import WrongPhase

__all__ = [
    "chances",
    "choose_action",
    "choose_play",
    "cube_situation",
    "evaluate",
    "play_values",
]

Board = tuple[int, ...]

WIN_SCORE: Final = 100.0  # above any logit: the play that bears off the last checker
CANDIDATES: Final = 5  # plays refined at 2 ply, at most
CANDIDATE_MARGIN: Final = 1.2  # ... and only those within this many logits of the best
EVALUATION_BUDGET: Final = 2400  # evaluations the 2-ply refinement may spend per decision
ROLLS: Final = tuple((a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7))


def evaluate(position: Position) -> float:
    """The hard evaluation for the player ON ROLL (``position.mine``), in [-1, 1].

    ``2 * P(win) - 1``: the cubeless equity ignoring gammons. A side with no checkers left
    has won (+1 / -1).
    """
    return 2.0 * win_chance(position.mine, position.theirs) - 1.0


# ---------------------------------------------------------------------------------------------
# Hard


def _after_play(result: Position) -> float:
    """1-ply value of a play's result for the mover: a logit, WIN_SCORE for a win."""
    if not any(result.mine):
        return WIN_SCORE
    return -score(result.theirs, result.mine)


def _two_ply(result: Position) -> tuple[float, int]:
    """Our chance after ``result`` averaged over the opponent's rolls and best replies.

    Returns ``(chance, evaluations spent)``.
    """
    if not any(result.mine):
        return 1.0, 0
    spent = 0
    total = 0.0
    theirs_on_roll = Position(result.theirs, result.mine)
    for a, b, weight in ROLLS:
        replies = legal_plays(theirs_on_roll, (a, b))
        if not replies:
            ours = sigmoid(score(result.mine, result.theirs))
            spent += 1
        else:
            worst = WIN_SCORE
            for reply in replies:
                after = reply.result
                if not any(after.mine):
                    worst = -WIN_SCORE
                    break
                value = score(after.theirs, after.mine)
                if value < worst:
                    worst = value
            spent += len(replies)
            ours = 0.0 if worst <= -WIN_SCORE else sigmoid(worst)
        total += weight * ours
    return total / 36.0, spent


def play_values(position: Position, dice: tuple[int, int]) -> list[tuple[Play, float, float]]:
    """Every legal play with its 1-ply logit and, for refined candidates, its 2-ply chance.

    Plays that were not refined carry ``-1.0`` as their 2-ply chance. Sorted best first.
    Exposed for tests and the review features.
    """
    plays = legal_plays(position, dice)
    scored = sorted(((_after_play(p.result), p) for p in plays), key=lambda x: -x[0])
    refined: dict[int, float] = {}
    best = scored[0][0] if scored else 0.0
    if len(scored) > 1 and best < WIN_SCORE:
        spent = 0
        for index, (value, play) in enumerate(scored[:CANDIDATES]):
            if index and (best - value > CANDIDATE_MARGIN or spent >= EVALUATION_BUDGET):
                break
            chance, cost = _two_ply(play.result)
            refined[index] = chance
            spent += cost
    out = [(play, value, refined.get(index, -1.0)) for index, (value, play) in enumerate(scored)]
    out.sort(key=lambda x: (-x[2], -x[1]))
    return out


def _hard_play(position: Position, dice: tuple[int, int], rng: random.Random) -> Play:
    values = play_values(position, dice)
    top_two, top_one = values[0][2], values[0][1]
    ties = [p for p, one, two in values if two == top_two and abs(one - top_one) < 1e-12]
    return ties[0] if len(ties) == 1 else rng.choice(ties)


# ---------------------------------------------------------------------------------------------
# Medium


def _medium_value(before: Position, after: Position) -> float:
    mine, theirs = after.mine, after.theirs
    if not any(mine):
        return WIN_SCORE
    my_pips, their_pips = pips(mine), pips(theirs)
    if not has_contact(mine, theirs):
        # Race: get checkers off, then move as far as possible, with no gaps wasted.
        return 3.0 * (15 - sum(mine)) - 0.1 * my_pips
    value = 4.0 * (theirs[24] - before.theirs[24])  # hits
    for index in range(24):
        count = mine[index]
        if count >= 2 and (index < 11 or index >= 17):
            value += 1.0 + (0.5 if 3 <= index <= 6 else 0.0)
    # Blots in direct range: an opposing checker (or the bar) 1-6 points behind.
    their_points = [24 - j for j in range(25) if theirs[j]]  # in my numbering, 0 = their bar
    for index in range(24):
        if mine[index] == 1:
            point = index + 1
            if any(0 < point - q <= 6 for q in their_points):
                value -= 1.5 + 0.05 * (25 - point)
    if my_pips < their_pips:
        back = mine[24] + sum(mine[18:24])
        value -= 0.6 * back  # ahead in the race: run the back checkers
    value -= 0.02 * my_pips
    return value


def _medium_play(position: Position, plays: list[Play], rng: random.Random) -> Play:
    ranked = [(_medium_value(position, p.result), p) for p in plays]
    best = max(value for value, _ in ranked)
    return rng.choice([p for value, p in ranked if value >= best - 1e-9])


def _medium_double(position: Position) -> bool:
    mine, theirs = position.pip_counts()
    return 0.08 * mine <= theirs - mine <= 0.25 * mine


def _medium_take(doubler: Position) -> bool:
    theirs, mine = doubler.pip_counts()  # ``theirs`` = the doubler's count
    return mine - theirs < 0.15 * theirs


# ---------------------------------------------------------------------------------------------
# Public API


def choose_play(position: Position, dice: tuple[int, int], level: str, rng: random.Random) -> Play:
    """The play ``level`` makes; always one of ``legal_plays(position, dice)``.

    Raises ``ValueError`` when the roll cannot be played at all.
    """
    plays = legal_plays(position, dice)
    if not plays:
        raise ValueError(f"No legal play with {dice[0]}-{dice[1]} in {position}.")
    if len(plays) == 1:
        return plays[0]
    if level == "easy":
        return rng.choice(plays)
    if level == "medium":
        return _medium_play(position, plays, rng)
    if level in ("hard", "expert"):
        return _hard_play(position, dice, rng)
    raise ValueError(f"unknown AI level {level!r}")


def chances(position: Position, checkers: int = CHECKERS) -> Chances:
    """Cubeless chances of the player on roll in ``position``, a match of ``checkers`` a side."""
    win = win_chance(position.mine, position.theirs)
    mine_gammon, theirs_gammon = gammon_chances(position.mine, position.theirs, win, checkers)
    return Chances(win, min(mine_gammon, win), min(theirs_gammon, 1.0 - win))


def _situation(state: BackgammonState, doubler: int) -> CubeSituation:
    owner = (
        "centre"
        if state.cube_owner is None
        else "doubler"
        if state.cube_owner == doubler
        else "taker"
    )
    length = state.match_length
    away = (length - state.score[doubler], length - state.score[1 - doubler])
    position = state.position if state.turn == doubler else state.position.swapped()
    return CubeSituation(
        cube=state.cube_value,
        owner=owner,
        match_length=length,
        doubler_away=away[0],
        taker_away=away[1],
        post_crawford=state.post_crawford or state.crawford,
        race=not has_contact(position.mine, position.theirs),
    )


def cube_situation(state: BackgammonState, doubler: int) -> CubeSituation:
    """The cube and score of ``state`` from ``doubler``'s side, as the cube model reads them."""
    return _situation(state, doubler)


def _wants_double(state: BackgammonState, level: Level) -> bool:
    if level == "easy" or state.match_length == 1:
        return False  # one game decides: the cube changes nothing but the points
    if level == "medium":
        return _medium_double(state.position)
    return should_double(chances(state.position, state.checkers), _situation(state, state.turn))


def _takes(state: BackgammonState, level: Level) -> bool:
    doubler_view = state.position.swapped()  # the doubler is on roll
    if level == "easy" or state.match_length == 1:
        return True
    if level == "medium":
        return _medium_take(doubler_view)
    return should_take(chances(doubler_view, state.checkers), _situation(state, 1 - state.turn))


def choose_action(
    state: BackgammonState, level: Level, rng: random.Random
) -> Play | Double | Take | Drop | None:
    """The action of the seat on turn: a play, a cube action, or ``None`` to roll."""
    if state.phase is Phase.MOVE:
        return choose_play(state.position, (state.dice[0], state.dice[1]), level, rng)
    if state.phase is Phase.CUBE:
        return Take() if _takes(state, level) else Drop()
    if state.phase is Phase.ROLL:
        return Double() if can_double(state) and _wants_double(state, level) else None
    if state.phase is Phase.OPENING:
        return None
    raise WrongPhase("The game is over.")
