"""Winning chances of a Ludo position, for the ``hard`` AI and the Ludo review.

The model is a conditional logit: each seat in play gets a score, a weighted sum of features
of its tokens and of the position (:data:`FEATURES`), and seat ``i`` wins with probability
``exp(score_i) / sum_j exp(score_j)``. The position is taken at a roll: ``to_move`` is the
seat about to roll, so the features see whose turn comes first. That is how the extra turn
after a 6 enters the evaluation: after a turn whose roll had a 6, the mover rolls again, its
capture chances are immediate and the threats against it come only after it has moved once
more.

Threats are counted exactly for one roll of each seat: for every hunter, each of its 36 rolls
captures the most valuable lone token of another colour it can reach (one die, both dice on
one token, or coming out on a 6 and moving on with the other die), with the blocks in the way.
Each capture takes off the victim's score what losing that token costs it in the model,
in full when the hunter rolls before the victim's next turn, by :data:`AFTER` otherwise.

The weights of the features were fitted by maximum likelihood (Newton's method) on 549,000
positions at a roll, sampled from 6,000 seeded games among ``easy``, ``medium`` and the
earlier ``hard`` seats, each labelled with the game's winner; only the standard library is
used here.

``menace`` scales each hunter's threats: a seat known to play at random (``easy``, whose level
every board shows) takes a capture only when its draw falls on it, so its threats count at
:data:`RANDOM_HUNTER` of a deliberate hunter's (:func:`menaces`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from bot.engines.ludo import HOME, LOOP, SQUARE, START, TOKENS, fast_blocked

SEATS_COUNT = 4
CAPTURE_COST = 20.0  # steps: how a hunter ranks prey (the steps lost plus a 6 to come out)

# A token's worth by its steps is piecewise linear between these knots on the loop; the home
# stretch and home have a worth each, base is the zero.
KNOTS: tuple[int, ...] = (1, 8, 16, 24, 32, 40, 48)
FEATURES: tuple[str, ...] = (
    *(f"tokens_at_{knot}" for knot in KNOTS),  # tokens on the loop, shared between knots
    "stretch",  # tokens in the home stretch (safe)
    "home",  # tokens home
    "progress_sq",  # (sum of steps / 54) squared: a seat close to the end is worth more
    "blocks",  # squares holding two or more of our tokens
    "stuck",  # nothing on the board and tokens in base: only a 6 moves us
    "second",  # rolls second from now (the seat to move is the reference)
    "third",
    "fourth",
)
WEIGHTS: tuple[float, ...] = (
    0.1574,
    0.1184,
    0.0658,
    0.0201,
    0.008,
    0.0134,
    0.1472,
    0.2218,
    0.2298,
    0.2765,
    0.2424,
    0.0173,
    -0.0203,
    -0.0624,
    -0.1078,
)
_KNOTTED = len(KNOTS)
# _SHARES[step]: (knot index, share) pairs of a token on loop step ``step``.
_SHARES: tuple[tuple[tuple[int, float], ...], ...] = tuple(
    ()
    if not 1 <= step <= LOOP
    else next(
        ((i, 1 - (step - a) / (b - a)), (i + 1, (step - a) / (b - a)))
        for i, (a, b) in enumerate(itertools.pairwise(KNOTS))
        if a <= step <= b
    )
    for step in range(HOME + 1)
)
BEFORE = 1.0  # share of a threat counted when the hunter rolls before the prey's next turn
AFTER = 0.5  # ... and when the prey rolls first (it may run, or a hunter may take it first)
# How much more a seat choosing its move fears for its own lone tokens: the one-roll threats
# above undercount their danger, as a token stays exposed roll after roll until it reaches
# safety, and being hit also costs tempo. Tuned on games against ``medium`` (about +2.5
# points of win rate against three of them at 2.5 to 4; 6 is too timid, and above 2.5 it
# starts to pass up plain captures).
OWN_RISK = 2.5

# How much of an ``easy`` hunter's threats counts (tuned on ``hard`` against three ``easy``:
# 0.15 won 70.9 % of 4,000 games where the full threats won 67.7 %, 0.4 won 69.6 %).
RANDOM_HUNTER = 0.15


def menaces(models: Sequence[str | None] | None) -> tuple[float, ...]:
    """Each seat's ``menace`` (see :func:`scores`) from its AI level (``None``: a person):
    :data:`RANDOM_HUNTER` for ``easy``, in full for the rest; empty (all in full) without
    ``models``."""
    if not models:
        return ()
    return tuple(RANDOM_HUNTER if model == "easy" else 1.0 for model in models)


_ROLL_BIT = tuple(tuple(1 << (a * 6 + b) for b in range(6)) for a in range(6))


def _moves_one_token(distance: int) -> int:
    """Rolls that move one token exactly ``distance`` steps: one die, or both on that token."""
    mask = 0
    for first in range(1, 7):
        for second in range(1, 7):
            if distance in (first, second, first + second):
                mask |= _ROLL_BIT[first - 1][second - 1]
    return mask


def _enters_and_moves(distance: int) -> int:
    """Rolls that bring a token out (a 6) and move it ``distance`` more with the other die."""
    mask = 0
    for first in range(1, 7):
        for second in range(1, 7):
            if (distance == 0 and 6 in (first, second)) or (first, second) in (
                (6, distance),
                (distance, 6),
            ):
                mask |= _ROLL_BIT[first - 1][second - 1]
    return mask


# HIT[d]: the rolls with which a token d steps behind a square can land on it.
HIT: tuple[int, ...] = tuple(_moves_one_token(d) if d else 0 for d in range(13))
# ENTER_HIT[k]: the rolls with which a token in base can land k steps past its start square.
ENTER_HIT: tuple[int, ...] = tuple(_enters_and_moves(k) for k in range(7))
ALL_ROLLS = (1 << 36) - 1


def _static(tokens: Sequence[int], seat: int, order: int) -> tuple[list[float], list[int]]:
    """The features of ``seat`` and the steps of its tokens on the loop."""
    row = [0.0] * len(FEATURES)
    progress = 0
    base = home = 0
    squares: list[int] = []
    loop_steps: list[int] = []
    table = SQUARE[seat]
    for index in range(seat * TOKENS, seat * TOKENS + TOKENS):
        step = tokens[index]
        progress += step
        if step == 0:
            base += 1
        elif step == HOME:
            home += 1
            row[_KNOTTED + 1] += 1.0
        elif step > LOOP:
            row[_KNOTTED] += 1.0
        else:
            for knot, share in _SHARES[step]:
                row[knot] += share
            squares.append(table[step])
            loop_steps.append(step)
    p = progress / HOME
    row[_KNOTTED + 2] = p * p
    row[_KNOTTED + 3] = float(len(squares) - len(set(squares)))
    row[_KNOTTED + 4] = 1.0 if base and base + home == TOKENS else 0.0
    if order:
        row[_KNOTTED + 4 + order] = 1.0
    return row, loop_steps


def features(tokens: Sequence[int], to_move: int, out: frozenset[int]) -> list[list[float]]:
    """The feature vector (in :data:`FEATURES` order) of every seat; empty for seats out."""
    return [
        [] if seat in out else _static(tokens, seat, (seat - to_move) % SEATS_COUNT)[0]
        for seat in range(SEATS_COUNT)
    ]


def scores(
    tokens: Sequence[int],
    to_move: int,
    out: frozenset[int] = frozenset(),
    weights: Sequence[float] | None = None,
    cautious: int | None = None,
    menace: Sequence[float] = (),
) -> list[float]:
    """Each seat's score (``-inf`` for seats out), threats of the next roll of every seat
    counted as the expected loss of score they cause (``cautious``'s own :data:`OWN_RISK`
    times); ``menace``: how much of each hunter's threats counts (:func:`menaces`), all of
    them by default."""
    if weights is None:
        weights = WEIGHTS
    in_play = [seat for seat in range(SEATS_COUNT) if seat not in out]
    holders: dict[int, list[int]] = {}  # loop square -> the colour of each token on it
    result = [-math.inf] * SEATS_COUNT
    rows: dict[int, list[float]] = {}
    for seat in in_play:
        row, loop_steps = _static(tokens, seat, (seat - to_move) % SEATS_COUNT)
        rows[seat] = row
        result[seat] = sum(w * x for w, x in zip(weights, row, strict=True))
        table = SQUARE[seat]
        for step in loop_steps:
            holders.setdefault(table[step], []).append(seat)
    # Lone tokens: (what a hunter sees in it, square, owner, what losing it costs the owner).
    prey: list[tuple[float, int, int, float]] = []
    w_sq = weights[_KNOTTED + 2]
    w_stuck = weights[_KNOTTED + 4]
    for seat in in_play:
        row = rows[seat]
        table = SQUARE[seat]
        p2 = row[_KNOTTED + 2]
        progress = sum(tokens[seat * TOKENS : seat * TOKENS + TOKENS]) / HOME
        on_board = sum(
            1 for step in tokens[seat * TOKENS : seat * TOKENS + TOKENS] if 0 < step < HOME
        )
        for index in range(seat * TOKENS, seat * TOKENS + TOKENS):
            step = tokens[index]
            if 0 < step <= LOOP and len(holders[table[step]]) == 1:
                after = progress - step / HOME
                cost = (
                    sum(weights[knot] * share for knot, share in _SHARES[step])
                    + w_sq * (p2 - after * after)
                    - (w_stuck if on_board == 1 else 0.0)  # its last token on the board
                )
                prey.append((step + CAPTURE_COST, table[step], seat, cost))
    if not prey:
        return result
    prey.sort(reverse=True)
    for hunter in in_play:
        _hunt(tokens, hunter, to_move, out, prey, cautious, result, menace)
    return result


def _clear(table: Sequence[int], blocked: set[int], step: int, reach: int) -> bool:
    """No block on steps ``step + 1 .. reach`` of ``table``'s seat."""
    if not blocked:
        return True
    return all(table[passed] not in blocked for passed in range(step + 1, reach + 1))


def win_chances(
    tokens: Sequence[int],
    to_move: int,
    out: frozenset[int] = frozenset(),
    weights: Sequence[float] | None = None,
    cautious: int | None = None,
    menace: Sequence[float] = (),
) -> list[float]:
    """Each seat's chance to win (0 for seats out), the seat ``to_move`` about to roll;
    ``cautious``: the seat choosing a move, which weighs the threats to it more (see
    :data:`OWN_RISK`); ``menace``: see :func:`scores`."""
    for seat in range(SEATS_COUNT):
        if seat not in out and all(
            step == HOME for step in tokens[seat * TOKENS : seat * TOKENS + TOKENS]
        ):
            return [1.0 if other == seat else 0.0 for other in range(SEATS_COUNT)]
    values = scores(tokens, to_move, out, weights, cautious, menace)
    top = max(values)
    exps = [math.exp(value - top) if value > -math.inf else 0.0 for value in values]
    total = sum(exps)
    return [e / total for e in exps]


# A token's worth in the model by its step (base 0), for the fitted weights: what
# :func:`_static` spreads over the knots, summed once.
_WORTH: tuple[float, ...] = tuple(
    WEIGHTS[_KNOTTED + 1]
    if step == HOME
    else WEIGHTS[_KNOTTED]
    if step > LOOP
    else sum(WEIGHTS[knot] * share for knot, share in _SHARES[step])
    for step in range(HOME + 1)
)


def chance(
    tokens: Sequence[int],
    to_move: int,
    out: frozenset[int],
    seat: int,
    cautious: int | None = None,
    menace: Sequence[float] = (),
) -> float:
    """``win_chances(tokens, to_move, out, cautious=cautious, menace=menace)[seat]`` with the
    fitted weights, computed in one pass: the ``expert`` search calls it at every leaf of its
    rollouts."""
    w = WEIGHTS
    w_sq = w[_KNOTTED + 2]
    w_blocks = w[_KNOTTED + 3]
    w_stuck = w[_KNOTTED + 4]
    worth = _WORTH
    counts: dict[int, int] = {}
    result = [-math.inf] * SEATS_COUNT
    in_play = [other for other in range(SEATS_COUNT) if other not in out]
    for other in in_play:
        base = other * TOKENS
        a, b, c, d = tokens[base], tokens[base + 1], tokens[base + 2], tokens[base + 3]
        if a == b == c == d == HOME:
            return 1.0 if other == seat else 0.0
        p = (a + b + c + d) / HOME
        value = worth[a] + worth[b] + worth[c] + worth[d] + w_sq * p * p
        table = SQUARE[other]
        squares = [square for square in (table[a], table[b], table[c], table[d]) if square >= 0]
        for square in squares:
            counts[square] = counts.get(square, 0) + 1
        if len(squares) > 1:
            value += w_blocks * (len(squares) - len(set(squares)))
        if 0 in (a, b, c, d) and (a, b, c, d).count(0) + (a, b, c, d).count(HOME) == TOKENS:
            value += w_stuck
        order = (other - to_move) % SEATS_COUNT
        if order:
            value += w[_KNOTTED + 4 + order]
        result[other] = value
    prey: list[tuple[float, int, int, float]] = []
    for other in in_play:
        base = other * TOKENS
        steps = tokens[base : base + TOKENS]
        table = SQUARE[other]
        progress = sum(steps) / HOME
        p2 = progress * progress
        on_board = 0
        for step in steps:
            if 0 < step < HOME:
                on_board += 1
        for step in steps:
            if 0 < step <= LOOP and counts[table[step]] == 1:
                after = progress - step / HOME
                cost = worth[step] + w_sq * (p2 - after * after)
                if on_board == 1:
                    cost -= w_stuck
                prey.append((step + CAPTURE_COST, table[step], other, cost))
    if prey:
        prey.sort(reverse=True)
        for hunter in in_play:
            _hunt(tokens, hunter, to_move, out, prey, cautious, result, menace)
    top = max(result)
    total = 0.0
    for value in result:
        if value > -math.inf:
            total += math.exp(value - top)
    return math.exp(result[seat] - top) / total if result[seat] > -math.inf else 0.0


def _hunt(
    tokens: Sequence[int],
    hunter: int,
    to_move: int,
    out: frozenset[int],
    prey: Sequence[tuple[float, int, int, float]],
    cautious: int | None,
    result: list[float],
    menace: Sequence[float] = (),
) -> None:
    """Take the expected losses ``hunter``'s next roll causes off the owners' scores, those of
    ``cautious`` :data:`OWN_RISK` times, all ``menace[hunter]`` times. ``prey``: the lone
    tokens, most valuable first."""
    factor = menace[hunter] if menace else 1.0
    if not factor:
        return
    base = hunter * TOKENS
    steps = [step for step in tokens[base : base + TOKENS] if 0 < step < LOOP]
    can_enter = 0 in tokens[base : base + TOKENS]
    if not steps and not can_enter:
        return
    blocked: set[int] | None = None
    table = SQUARE[hunter]
    start = START[hunter]
    hunter_order = (hunter - to_move) % SEATS_COUNT
    remaining = ALL_ROLLS
    for _, square, owner, cost in prey:
        if owner == hunter:
            continue
        reach = (square - start) % LOOP + 1
        mask = 0
        for step in steps:
            if step < reach <= step + 12:
                if blocked is None:
                    blocked = fast_blocked(tokens, hunter, out)
                if _clear(table, blocked, step, reach):
                    mask |= HIT[reach - step]
        if can_enter and reach <= 7:
            if blocked is None:
                blocked = fast_blocked(tokens, hunter, out)
            if _clear(table, blocked, 0, reach):
                mask |= ENTER_HIT[reach - 1]
        mask &= remaining
        if not mask:
            continue
        remaining &= ~mask
        share = BEFORE if hunter_order < (owner - to_move) % SEATS_COUNT else AFTER
        if owner == cautious:
            cost *= OWN_RISK
        result[owner] -= factor * share * cost * mask.bit_count() / 36.0
        if not remaining:
            break
