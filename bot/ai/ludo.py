"""Ludo AI: picks the die and the token for the seat on turn.

``easy`` plays a uniformly random legal move. ``medium`` scores each legal move on its own
with rules of thumb: capture, come out on a 6, get out of reach, build blocks, reach home,
and stay out of reach. ``hard`` (and ``expert``) searches:

* a max node over every way to play the rest of this turn (both dice, both orders);
* for each resulting position, one chance node per opponent over its 36 rolls. Each opponent
  replies, independently and from that same position, with the capture of ours that costs us
  most if its roll allows one (a *paranoid* model restricted to captures: the moves an
  opponent makes that do not hit us change our evaluation the same way whatever we play, so
  they are left out). The reply search is exact about reach: single dice, both dice on one
  token, coming out on a 6 and moving on with the other die, and blocks in the way;
* the leaves are scored by a static evaluation: our progress against the opponents', with
  bonuses for tokens on the board, safe in the home stretch, home, and for our blocks, plus
  a discounted chance node over our own next roll counting the captures it would allow.

Not modelled: the extra turn a 6 brings, and what opponents do to each other. The chance
nodes are computed with bit masks over the 36 ordered rolls, so a decision costs well under a
millisecond (p95 about 0.4 ms, worst seen about 4 ms). Every level is deterministic given
``rng``; ties are broken with it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai.levels import Level
from bot.engines.common import Phase, WrongPhase
from bot.engines.ludo import (
    HOME,
    LOOP,
    SQUARE,
    START,
    TOKENS,
    LudoState,
    Move,
    fast_blocked,
    fast_move,
    fast_targets,
    legal_actions,
)

SEATS_COUNT = 4

# Evaluation weights, in steps of progress.
OUT_BONUS = 20.0  # a token on the board is worth more than its steps: it cost a 6 to bring out
SAFE_BONUS = 6.0  # home stretch: nobody can capture it any more
HOME_BONUS = 4.0  # home: it also frees the dice for the other tokens
BLOCK_BONUS = 3.0  # a block holds opponents up
OPPONENT_WEIGHT = 0.3  # an opponent's progress hurts us, less than ours helps (three of them)
THREAT_WEIGHT = 1.0  # expected loss from the opponents' replies, in the same units
OFFENSE_WEIGHT = 0.7  # our own capture chances next turn (the prey may move away first)
WIN_VALUE = 1e6

ALL_ROLLS = (1 << 36) - 1


def _roll_bit(first: int, second: int) -> int:
    return 1 << ((first - 1) * 6 + second - 1)


def _moves_one_token(distance: int) -> int:
    """Rolls that move one token exactly ``distance`` steps: one die, or both on that token."""
    mask = 0
    for first in range(1, 7):
        for second in range(1, 7):
            if distance in (first, second, first + second):
                mask |= _roll_bit(first, second)
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
                mask |= _roll_bit(first, second)
    return mask


# HIT[d]: the rolls with which a token d steps behind a square can land on it.
HIT: tuple[int, ...] = tuple(_moves_one_token(d) if d else 0 for d in range(13))
# ENTER_HIT[k]: the rolls with which a token in base can land k steps past its start square.
ENTER_HIT: tuple[int, ...] = tuple(_enters_and_moves(k) for k in range(7))


def choose_action(state: LudoState, level: Level, rng: random.Random) -> Move:
    """The move the AI of ``level`` plays in ``state`` (which must be in the move phase)."""
    if state.phase is not Phase.MOVE:
        raise WrongPhase("The AI only chooses moves once the dice are rolled.")
    actions = legal_actions(state)
    if not actions:
        raise WrongPhase("There is no legal move to choose from.")
    if level == "easy":
        return rng.choice(actions)
    if level == "medium":
        return _best(actions, [_heuristic(state, action) for action in actions], rng)
    if USE2:
        return _best(actions, _search2(state, actions), rng)
    return _best(actions, _search(state, actions), rng)


def _search2(state: LudoState, actions: Sequence[Move]) -> list[float]:
    from bot.ai import ludo_eval
    position = state.position
    seat = position.to_move
    out = position.out
    tokens = position.tokens
    blocked = fast_blocked(tokens, seat, out)
    again = 6 in state.rolled
    following = seat
    if not again:
        for offset in range(1, 5):
            following = (seat + offset) % 4
            if following not in out:
                break
    seen: dict[tuple[int, ...], float] = {}
    weights = WEIGHTS2 if WEIGHTS2 is not None else ludo_eval.WEIGHTS

    def leaf(after: tuple[int, ...]) -> float:
        value = seen.get(after)
        if value is None:
            value = ludo_eval.win_chances(after, following, out, weights)[seat]
            seen[after] = value
        return value

    scores: list[float] = []
    for action in actions:
        after, _ = fast_move(tokens, seat, action.token, action.target, out)
        rest = list(state.dice)
        rest.remove(action.die)
        best = None
        if rest and not _all_home(after, seat):
            for token, target in fast_targets(after, seat, rest[0], blocked):
                nxt, _ = fast_move(after, seat, token, target, out)
                value = leaf(nxt)
                if best is None or value > best:
                    best = value
        scores.append(leaf(after) if best is None else best)
    return scores

WEIGHTS2 = None
USE2 = False
AGAIN_THREAT = 1.0
AGAIN_OFFENSE = 1.0


def _best(actions: Sequence[Move], scores: Sequence[float], rng: random.Random) -> Move:
    top = max(scores)
    return rng.choice([a for a, score in zip(actions, scores, strict=True) if score >= top - 1e-9])


# ---------------------------------------------------------------------------------------------
# Medium: one move at a time, rules of thumb


def _heuristic(state: LudoState, action: Move) -> float:
    position = state.position
    seat = position.to_move
    out = position.out
    tokens = position.tokens
    after, captured = fast_move(tokens, seat, action.token, action.target, out)
    table = SQUARE[seat]
    score = action.die * 0.2
    if captured >= 0:
        score += 15.0 + tokens[captured] * 0.5
    if action.source == 0:
        score += 12.0
    if action.target == HOME:
        score += 10.0
    elif action.target > LOOP >= action.source:
        score += 6.0
    own = range(seat * TOKENS, seat * TOKENS + TOKENS)
    source_square = table[action.source]
    target_square = table[action.target]
    source_mates = sum(1 for i in own if table[tokens[i]] == source_square) - 1
    target_mates = sum(1 for i in own if table[after[i]] == target_square) - 1
    if target_square >= 0 and target_mates >= 1:
        score += 5.0
    if source_square >= 0 and source_mates == 1:
        score -= 3.0  # breaks a block
    if source_square >= 0 and source_mates == 0:
        score += 4.0 * _exposure(tokens, seat, out, source_square)
    if target_square >= 0 and target_mates == 0:
        score -= 4.0 * _exposure(after, seat, out, target_square)
    return score


def _exposure(tokens: Sequence[int], seat: int, out: frozenset[int], square: int) -> float:
    """Rough danger of a lone token of ``seat`` on ``square``: opponents close behind it."""
    danger = 0.0
    for other in range(SEATS_COUNT):
        if other == seat or other in out:
            continue
        reach = (square - START[other]) % LOOP + 1  # the square as a step of ``other``
        for index in range(other * TOKENS, other * TOKENS + TOKENS):
            step = tokens[index]
            if step == 0:
                if reach <= 7:
                    danger += 0.3
            elif step < reach:
                gap = reach - step
                if gap <= 6:
                    danger += 1.0
                elif gap <= 12:
                    danger += 0.3
    return danger


# ---------------------------------------------------------------------------------------------
# Hard: search over the rest of this turn and the opponents' capture replies


def _search(state: LudoState, actions: Sequence[Move]) -> list[float]:
    position = state.position
    seat = position.to_move
    out = position.out
    tokens = position.tokens
    blocked = fast_blocked(tokens, seat, out)  # our moves never change other colours' blocks
    seen: dict[tuple[int, ...], float] = {}
    again = 6 in state.rolled
    threat = THREAT_WEIGHT * (AGAIN_THREAT if again else 1.0)
    offense = OFFENSE_WEIGHT * (AGAIN_OFFENSE if again else 1.0)

    def leaf(after: tuple[int, ...]) -> float:
        value = seen.get(after)
        if value is None:
            value = _evaluate(after, seat, out, threat, offense)
            seen[after] = value
        return value

    scores: list[float] = []
    for action in actions:
        after, _ = fast_move(tokens, seat, action.token, action.target, out)
        rest = list(state.dice)
        rest.remove(action.die)
        best = None
        if rest and not _all_home(after, seat):
            for token, target in fast_targets(after, seat, rest[0], blocked):
                following, _ = fast_move(after, seat, token, target, out)
                value = leaf(following)
                if best is None or value > best:
                    best = value
        scores.append(leaf(after) if best is None else best)
    return scores


def _all_home(tokens: Sequence[int], seat: int) -> bool:
    base = seat * TOKENS
    return all(step == HOME for step in tokens[base : base + TOKENS])


def _evaluate(tokens: tuple[int, ...], seat: int, out: frozenset[int], threat: float = THREAT_WEIGHT, offense: float = OFFENSE_WEIGHT) -> float:
    """Value of ``tokens`` for ``seat``: the static worth of every seat, our expected loss to
    the opponents' next rolls and, discounted, our own chances to capture next turn."""
    if _all_home(tokens, seat):
        return WIN_VALUE
    in_play = [other for other in range(SEATS_COUNT) if other not in out]
    holders: dict[int, list[int]] = {}  # loop square -> colour of each in-play token on it
    for other in in_play:
        table = SQUARE[other]
        for index in range(other * TOKENS, other * TOKENS + TOKENS):
            square = table[tokens[index]]
            if square >= 0:
                holders.setdefault(square, []).append(other)
    value = 0.0
    ours: list[tuple[float, int]] = []  # (what losing it costs, square) of our lone tokens
    theirs: list[tuple[float, int]] = []
    for other in in_play:
        worth = _seat_worth(tokens, other)
        value += worth if other == seat else -OPPONENT_WEIGHT * worth
        table = SQUARE[other]
        for index in range(other * TOKENS, other * TOKENS + TOKENS):
            step = tokens[index]
            square = table[step]
            if square >= 0 and holders[square].count(other) == 1:
                if other == seat:
                    ours.append((step + OUT_BONUS, square))
                else:
                    theirs.append(((step + OUT_BONUS) * OPPONENT_WEIGHT, square))
    if ours:
        ours.sort(reverse=True)
        for other in in_play:
            if other != seat:
                value -= threat * _expected_capture(tokens, other, out, ours, holders)
    if theirs and offense:
        theirs.sort(reverse=True)
        value += offense * _expected_capture(tokens, seat, out, theirs, holders)
    return value


def _seat_worth(tokens: Sequence[int], seat: int) -> float:
    worth = 0.0
    table = SQUARE[seat]
    squares: list[int] = []
    for index in range(seat * TOKENS, seat * TOKENS + TOKENS):
        step = tokens[index]
        if step == 0:
            continue
        worth += step + OUT_BONUS
        if step > LOOP:
            worth += SAFE_BONUS + (HOME_BONUS if step == HOME else 0.0)
        else:
            squares.append(table[step])
    worth += BLOCK_BONUS * (len(squares) - len(set(squares)))
    return worth


def _expected_capture(
    tokens: tuple[int, ...],
    hunter: int,
    out: frozenset[int],
    prey: Sequence[tuple[float, int]],
    holders: dict[int, list[int]],
) -> float:
    """Expected worth ``hunter`` captures with its next roll, always taking the most valuable
    of ``prey`` (lone tokens of other colours, most valuable first) that the roll reaches.

    ``holders`` gives the colours on each square: a capture needs exactly one token there that
    is not the hunter's.
    """
    blocked = fast_blocked(tokens, hunter, out)
    table = SQUARE[hunter]
    start = START[hunter]
    base = hunter * TOKENS
    steps = [tokens[i] for i in range(base, base + TOKENS)]
    can_enter = 0 in steps and table[1] not in blocked
    remaining = ALL_ROLLS
    total = 0.0
    for worth, square in prey:
        if len(holders[square]) - holders[square].count(hunter) != 1:
            continue
        reach = (square - start) % LOOP + 1
        mask = 0
        for step in steps:
            if 0 < step < reach <= step + 12 and _clear(table, blocked, step, reach):
                mask |= HIT[reach - step]
        if can_enter and reach <= 7 and _clear(table, blocked, 1, reach):
            mask |= ENTER_HIT[reach - 1]
        mask &= remaining
        if mask:
            total += worth * mask.bit_count() / 36.0
            remaining &= ~mask
            if not remaining:
                break
    return total


def _clear(table: Sequence[int], blocked: set[int], step: int, reach: int) -> bool:
    """No block on steps ``step + 1 .. reach`` of ``table``'s seat."""
    if not blocked:
        return True
    return all(table[passed] not in blocked for passed in range(step + 1, reach + 1))
