"""A fast Ludo simulator for the ``expert`` AI's rollouts.

It plays whole turns on a plain list of the 16 token steps (seat ``p`` owns ``4p .. 4p + 3``,
as in :class:`bot.engines.ludo.Position`) with the rules of :mod:`bot.engines.ludo`, which the
tests check it against move for move: a 6 brings a token out onto its start square, a token
moves exactly the die's steps and never past home, a lone token of another colour (all other
colours counted together) on the square landed on goes back to base, two or more tokens of one
colour on a loop square block every other colour from landing on it or passing it, the dice
are used one at a time in the order the player picks, a die that cannot move when its time
comes is lost, and a roll with a 6 gives the seat another turn.

Every seat in a rollout plays :func:`medium_move`: the rules of thumb of the ``medium`` level
(:func:`bot.ai.ludo._heuristic`) on raw lists, ties going to the first move found, so a
rollout's only randomness is its dice, which the caller passes in. The search compares moves
with the same dice sequences (common random numbers), so differences between candidates are
not drowned in the luck of the dice. A seat may instead play some or all of its turns at
random (:func:`random_move`, as ``easy`` does), drawn from noise the caller also passes in.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engines.ludo import (
    HOME,
    LOOP,
    OTHERS,
    SQUARE,
    STEP_AT,
    TOKENS,
    all_home,
    fast_blocked,
    fast_move,
    fast_targets,
    move_in_place,
    next_seat,
)


def turn_ends(
    tokens: Sequence[int],
    seat: int,
    out: frozenset[int],
    dice: Sequence[int],
    first: tuple[int, int, int],
    blocked: set[int],
) -> list[tuple[int, ...]]:
    """The positions ``seat``'s turn can end in when it starts with the move ``first``
    (die, token, target) of the ``dice`` rolled: after each legal move of the other die, or
    after ``first`` alone when that die cannot move or the seat is home. ``blocked``: the
    other colours' blocks, which our moves never change (a captured token was alone)."""
    die, token, target = first
    after = fast_move(tokens, seat, token, target, out)[0]
    rest = list(dice)
    rest.remove(die)
    ends: list[tuple[int, ...]] = []
    if rest and not all_home(after, seat):
        for second, to in fast_targets(after, seat, rest[0], blocked):
            ends.append(fast_move(after, seat, second, to, out)[0])
    return ends or [after]


def _expo_row(reach: int) -> tuple[float, ...]:
    row = [0.0] * (HOME + 1)
    row[0] = 0.3 if reach <= 7 else 0.0
    for step in range(1, HOME + 1):
        gap = reach - step
        row[step] = 1.0 if 1 <= gap <= 6 else 0.3 if 7 <= gap <= 12 else 0.0
    return tuple(row)


# _EXPO[reach][step]: how much ``medium`` fears a token of another colour on ``step`` of its own
# path for a lone token on the square that is that colour's step ``reach``.
_EXPO: tuple[tuple[float, ...], ...] = tuple(_expo_row(reach) for reach in range(LOOP + 1))


def _exposure(tok: Sequence[int], seat: int, out: frozenset[int], square: int) -> float:
    """``medium``'s rough danger of a lone token of ``seat`` on ``square``: opponents up to
    six squares behind it count 1, seven to twelve 0.3, tokens in base 0.3 when the square is
    within seven of their start."""
    danger = 0.0
    for other in OTHERS[seat]:
        if other in out:
            continue
        row = _EXPO[STEP_AT[other][square]]
        base = other * TOKENS
        danger += row[tok[base]] + row[tok[base + 1]] + row[tok[base + 2]] + row[tok[base + 3]]
    return danger


def medium_scores(
    tok: Sequence[int], seat: int, dice: Sequence[int], blocked: set[int], out: frozenset[int]
) -> list[tuple[float, int, int, int]]:
    """``(score, die, token, target)`` of every legal move with the ``dice`` left, scored by
    ``medium``'s rules of thumb (as :func:`bot.ai.ludo._heuristic`), in the order of
    :func:`bot.engines.ludo.legal_actions`."""
    base = seat * TOKENS
    table = SQUARE[seat]
    steps = (tok[base], tok[base + 1], tok[base + 2], tok[base + 3])
    own = [table[step] for step in steps]
    # What leaving its square is worth to each token, whatever the die.
    leave: list[float] = []
    for token in range(TOKENS):
        step = steps[token]
        if step == 0:
            leave.append(12.0)
            continue
        square = own[token]
        if square < 0:
            leave.append(0.0)
            continue
        mates = own.count(square) - 1
        if mates == 1:
            leave.append(-3.0)
        elif mates == 0:
            leave.append(4.0 * _exposure(tok, seat, out, square))
        else:
            leave.append(0.0)
    prey: dict[int, int] | None = None  # loop square -> its lone opponent (-1: two or more)
    scored: list[tuple[float, int, int, int]] = []
    for position, die in enumerate(dice):
        if position and die == dice[0]:
            continue
        for token, target in fast_targets(tok, seat, die, blocked):
            step = steps[token]
            score = die * 0.2 + leave[token]
            if target == HOME:
                score += 10.0
            elif target > LOOP:
                if step <= LOOP:
                    score += 6.0
            else:
                square = table[target]
                if prey is None:
                    prey = {}
                    for other in OTHERS[seat]:
                        if other in out:
                            continue
                        other_table = SQUARE[other]
                        for index in range(other * TOKENS, other * TOKENS + TOKENS):
                            held = other_table[tok[index]]
                            if held >= 0:
                                prey[held] = -1 if held in prey else index
                captured = prey.get(square, -1)
                if captured >= 0:
                    score += 15.0 + tok[captured] * 0.5
                if square in own:
                    score += 5.0
                else:
                    danger = _exposure(tok, seat, out, square)
                    if captured >= 0 and STEP_AT[captured >> 2][square] <= 7:
                        # The captured token is back in base, near enough to its start.
                        danger += 0.3
                    score -= 4.0 * danger
            scored.append((score, die, token, target))
    return scored


def medium_move(
    tok: Sequence[int], seat: int, dice: Sequence[int], blocked: set[int], out: frozenset[int]
) -> tuple[int, int, int] | None:
    """``(die, token, target)`` that ``medium`` plays with the ``dice`` left (the first best
    one), or ``None`` when no die can move."""
    best: tuple[float, int, int, int] | None = None
    for scored in medium_scores(tok, seat, dice, blocked, out):
        if best is None or scored[0] > best[0]:
            best = scored
    return None if best is None else best[1:]


def random_move(
    tok: Sequence[int], seat: int, dice: Sequence[int], blocked: set[int], pick: float
) -> tuple[int, int, int] | None:
    """The legal move at ``pick`` (0 <= pick < 1) along the list of all of them, as ``easy``
    draws one, or ``None`` when no die can move."""
    moves: list[tuple[int, int, int]] = []
    for position, die in enumerate(dice):
        if position and die == dice[0]:
            continue
        legal = fast_targets(tok, seat, die, blocked)
        moves.extend((die, token, target) for token, target in legal)
    return moves[int(pick * len(moves))] if moves else None


def play_turn(
    tok: list[int],
    seat: int,
    first: int,
    second: int,
    out: frozenset[int],
    picks: tuple[float, float] | None = None,
) -> bool:
    """``seat`` rolls ``first`` and ``second`` and plays them as ``medium`` would, or at
    random with ``picks`` (see :func:`random_move`), in place; whether that brought its last
    token home."""
    blocked = fast_blocked(tok, seat, out)
    if picks is None:
        choice = medium_move(tok, seat, (first, second), blocked, out)
    else:
        choice = random_move(tok, seat, (first, second), blocked, picks[0])
    if choice is None:
        return False
    die, token, target = choice
    move_in_place(tok, seat, token, target, out)
    if target == HOME and all_home(tok, seat):
        return True
    rest = second if die == first else first
    # Our move cannot change other colours' blocks (a captured token was alone on its square).
    if picks is None:
        choice = medium_move(tok, seat, (rest,), blocked, out)
    else:
        choice = random_move(tok, seat, (rest,), blocked, picks[1])
    if choice is not None:
        _, token, target = choice
        move_in_place(tok, seat, token, target, out)
        if target == HOME and all_home(tok, seat):
            return True
    return False


def play_out(
    tok: list[int],
    seat: int,
    out: frozenset[int],
    dice: Sequence[int],
    hero: int = -1,
    noise: Sequence[float] = (),
    rounds: int = 0,
    wilds: Sequence[float] = (),
) -> tuple[int, int | None, int]:
    """Play the rolls in ``dice`` (pairs, flat) from ``seat``'s roll, in place; returns the seat
    to roll next, the winner if the game ended, and the number of rolls played.

    With ``rounds``, play stops earlier: the ``rounds``-th time ``hero`` is about to roll
    (not counting ``seat``'s first roll). With ``wilds`` (a chance per seat: 1 for a seat known
    to play at random, as ``easy`` does), every seat but ``hero`` plays a turn at random with
    its chance, drawn with three numbers of ``noise`` (in [0, 1), three per roll)."""
    played = 0
    for index in range(0, len(dice) - 1, 2):
        if rounds and played and seat == hero:
            rounds -= 1
            if not rounds:
                break
        first = dice[index]
        second = dice[index + 1]
        picks = None
        share = wilds[seat] if wilds else 0.0
        if share and seat != hero:
            at = index // 2 * 3
            if noise[at] < share:
                picks = (noise[at + 1], noise[at + 2])
        played += 1
        if play_turn(tok, seat, first, second, out, picks):
            return seat, seat, played
        if first != 6 and second != 6:
            seat = next_seat(seat, out)
    return seat, None, played
