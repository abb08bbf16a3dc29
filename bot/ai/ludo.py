"""Ludo AI: picks the die and the token for the seat on turn.

``easy`` plays a uniformly random legal move. ``medium`` scores each legal move on its own
with rules of thumb: capture, come out on a 6, get out of reach, build blocks, reach home,
and stay out of reach. ``hard`` searches every way to play the rest of this turn (both dice,
both orders, blocks in the way as the engine rules them) and keeps the one that leaves the
seat the best chance to win, as :mod:`bot.ai.ludo_eval` estimates it: that model sees whose
roll comes next, so after a roll with a 6 it values the position with the seat rolling again
(its captures come first, the threats against it only after its bonus roll), and it prices
every lone token by the chance that each opponent's next roll captures it, with the
opponents' blocks in their way, its own tokens with extra caution
(:data:`bot.ai.ludo_eval.OWN_RISK`).

:func:`action_chances` is that search's verdict on every legal move; the Ludo review judges
moves with it. A decision takes about a millisecond.

``expert`` (:mod:`bot.ai.ludo_search`) starts from ``hard``'s verdicts on the ends of the turn
and plays the best few on for two rounds of rolls in a fast simulator where every seat plays
``medium``'s rules of thumb, judging where each rollout ends with the same model; a decision
takes up to a few tens of milliseconds (:data:`EXPERT_BUDGET`). Every level is deterministic
given ``rng``; ties and the search's dice are drawn from it.

:func:`choose_action` may be told every seat's level (``models``): ``hard`` and ``expert`` then
count an ``easy`` seat's threats at :data:`bot.ai.ludo_eval.RANDOM_HUNTER` of a deliberate
hunter's (it captures only by chance), and the expert's rollouts play ``easy`` seats at random.
Without them, and for humans, every other seat is taken to play like ``medium``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai import ludo_search
from bot.ai.levels import Level
from bot.ai.ludo_eval import menaces, win_chances
from bot.ai.ludo_sim import turn_ends
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
    legal_actions,
    next_seat,
)

SEATS_COUNT = 4
EXPERT_BUDGET = ludo_search.Budget()  # the expert level's search (benchmarks may swap it)


def choose_action(
    state: LudoState,
    level: Level,
    rng: random.Random,
    models: Sequence[str | None] | None = None,
) -> Move:
    """The move the AI of ``level`` plays in ``state`` (which must be in the move phase).

    ``models``: the AI level of each seat, ``None`` for a human (or unknown). ``hard`` and
    ``expert`` fear an ``easy`` seat's threats less (it captures only by chance), and the
    expert's rollouts play ``easy`` seats at random. Without them every seat is taken to
    play like ``medium``."""
    if state.phase is not Phase.MOVE:
        raise WrongPhase("The AI only chooses moves once the dice are rolled.")
    actions = legal_actions(state)
    if not actions:
        raise WrongPhase("There is no legal move to choose from.")
    if level == "easy":
        return rng.choice(actions)
    if level == "medium":
        return _best(actions, [_heuristic(state, action) for action in actions], rng)
    if level == "expert":
        return ludo_search.choose(state, rng, EXPERT_BUDGET, models)
    return _best(actions, action_chances(state, actions, models), rng)


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
# Hard: the rest of this turn, judged by the winning-chance model


def action_chances(
    state: LudoState,
    actions: Sequence[Move] | None = None,
    models: Sequence[str | None] | None = None,
) -> list[float]:
    """The mover's chance to win after each of ``actions`` (default: every legal move),
    playing the rest of the turn as well as possible; ``models``: see :func:`choose_action`."""
    if actions is None:
        actions = legal_actions(state)
    position = state.position
    seat = position.to_move
    out = position.out
    tokens = position.tokens
    blocked = fast_blocked(tokens, seat, out)  # our moves never change other colours' blocks
    # Who rolls once this turn is over: the same seat again after a 6.
    following = seat if 6 in state.rolled else next_seat(seat, out)
    seen: dict[tuple[int, ...], float] = {}
    menace = menaces(models)

    def leaf(after: tuple[int, ...]) -> float:
        value = seen.get(after)
        if value is None:
            value = win_chances(after, following, out, cautious=seat, menace=menace)[seat]
            seen[after] = value
        return value

    chances: list[float] = []
    for action in actions:
        first = (action.die, action.token, action.target)
        ends = turn_ends(tokens, seat, out, state.dice, first, blocked)
        chances.append(max(leaf(end) for end in ends))
    return chances
