"""Monte-Carlo search for the ``expert`` Ludo AI.

The candidates are the positions the rest of the turn can end in (both dice, both orders, as
:func:`bot.ai.ludo.action_chances` sees them). The ``hard`` level's judgement of each
(:func:`bot.ai.ludo_eval.chance`, caution about its own lone tokens included) is the prior:
only the best few, and none far below the best, are searched. Each survivor is then played on
with the simulator (:mod:`bot.ai.ludo_sim`: every seat playing ``medium``'s rules of thumb,
the opponents some of their turns at random with :attr:`Budget.wild`) for a round or two of
rolls, extra turns after a 6 included, and the end of each rollout is judged by the model.
All candidates see the same dice (common random numbers), so a rollout's luck largely cancels
out of their differences; after every batch of rollouts a candidate clearly behind the leader
(the paired differences' mean beyond :attr:`Budget.z` standard errors) is dropped. The search
stops when one candidate is left or the work budget (rolls simulated, a deterministic stand-in
for time) is spent, and plays the candidate with the best mean.

The seats' AI levels are public, so :func:`choose` may be told them (``models``): the rollouts
then play an ``easy`` seat at random on every turn, and the model (prior and leaves) counts
only :data:`bot.ai.ludo_eval.RANDOM_HUNTER` of its threats, since it captures only when its
draw falls on the capture. Humans and the other levels are modelled as ``medium``.

The dice come from the ``rng`` passed in, so a decision is deterministic given it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.ai import ludo_sim as sim
from bot.ai.ludo_eval import SEATS_COUNT, chance, menaces
from bot.engines.ludo import LudoState, Move, all_home, fast_blocked, legal_actions, next_seat

LEAF_COST = 2  # a leaf judged by the model costs about as much as two simulated rolls


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a decision may search."""

    work: int = 1000  # simulated rolls per decision (about 20 µs each), leaves included
    rounds: int = 2  # rollouts stop when the searching seat is about to roll this often
    candidates: int = 6  # the best ends by the prior that are searched
    margin: float = 0.08  # ... and none whose prior is this far below the best one's
    batch: int = 8  # rollouts per candidate between two prunings
    z: float = 2.0  # standard errors by which a dropped candidate trails the leader
    wild: float = 0.0  # share of the opponents' turns played at random in the rollouts
    cautious_leaf: bool = True  # judge the rollouts' ends with the mover's own caution


def endings(state: LudoState, actions: Sequence[Move]) -> dict[tuple[int, ...], list[Move]]:
    """Every position the rest of the turn can end in, with the first moves that reach it."""
    position = state.position
    seat = position.to_move
    out = position.out
    blocked = fast_blocked(position.tokens, seat, out)
    result: dict[tuple[int, ...], list[Move]] = {}
    for action in actions:
        first = (action.die, action.token, action.target)
        for end in sim.turn_ends(position.tokens, seat, out, state.dice, first, blocked):
            firsts = result.setdefault(end, [])
            if action not in firsts:
                firsts.append(action)
    return result


def choose(
    state: LudoState,
    rng: random.Random,
    budget: Budget | None = None,
    models: Sequence[str | None] | None = None,
) -> Move:
    """The move the search plays in ``state`` (in the move phase, with a legal move).

    ``models``: how each seat plays, by its AI level (``None``: a human or unknown); the
    rollouts play ``easy`` seats at random and every other seat by ``medium``'s rules."""
    budget = budget or Budget()
    actions = legal_actions(state)
    if len(actions) == 1:
        return actions[0]
    plans = endings(state, actions)
    best = search(state, list(plans), rng, budget, wilds(models, budget), menaces(models))
    return rng.choice(plans[best])


def wilds(models: Sequence[str | None] | None, budget: Budget) -> tuple[float, ...]:
    """Each seat's share of turns played at random in the rollouts, from the seats' ``models``
    (all an ``easy`` seat's, :attr:`Budget.wild` of the others'; that for every seat without
    ``models``)."""
    if not models:
        return (budget.wild,) * SEATS_COUNT
    return tuple(1.0 if model == "easy" else budget.wild for model in models)


def search(
    state: LudoState,
    ends: Sequence[tuple[int, ...]],
    rng: random.Random,
    budget: Budget,
    seat_wild: Sequence[float] = (),
    menace: Sequence[float] = (),
) -> tuple[int, ...]:
    """The end of the turn, among ``ends``, that the search rates best for the mover;
    ``seat_wild``: each seat's share of random turns in the rollouts (see :func:`wilds`);
    ``menace``: how much each seat's threats count at the leaves
    (:func:`bot.ai.ludo_eval.menaces`)."""
    position = state.position
    seat = position.to_move
    out = position.out
    if len(ends) == 1:
        return ends[0]
    for end in ends:
        if all_home(end, seat):
            return end
    # Who rolls once this turn is over: the same seat again after a 6.
    following = seat if 6 in state.rolled else next_seat(seat, out)
    prior = {end: chance(end, following, out, seat, seat, menace) for end in ends}
    ranked = sorted(ends, key=lambda end: -prior[end])
    top = prior[ranked[0]]
    survivors = [end for end in ranked[: budget.candidates] if prior[end] >= top - budget.margin]
    if len(survivors) == 1:
        return survivors[0]
    cautious = seat if budget.cautious_leaf else None
    # The longest a rollout can need: every roll a 6 is rare, so a cap of rolls per round.
    rolls = 6 * budget.rounds + 4
    values: dict[tuple[int, ...], list[float]] = {end: [] for end in survivors}
    if not seat_wild:
        seat_wild = wilds(None, budget)
    random_turns = any(seat_wild)
    work = 0
    while len(survivors) > 1 and work < budget.work:
        for _ in range(budget.batch):
            dice = [rng.randint(1, 6) for _ in range(2 * rolls)]
            noise = [rng.random() for _ in range(3 * rolls)] if random_turns else []
            for end in survivors:
                tok = list(end)
                to_roll, winner, played = sim.play_out(
                    tok, following, out, dice, seat, noise, budget.rounds, seat_wild
                )
                if winner is not None:
                    value = 1.0 if winner == seat else 0.0
                else:
                    value = chance(tok, to_roll, out, seat, cautious, menace)
                values[end].append(value)
                work += played + LEAF_COST
        survivors = _prune(survivors, values, budget.z)
    return max(survivors, key=lambda end: (sum(values[end]), prior[end]))


def _prune(
    survivors: list[tuple[int, ...]], values: dict[tuple[int, ...], list[float]], z: float
) -> list[tuple[int, ...]]:
    """The candidates not clearly behind the leader, by their paired differences."""
    leader = max(survivors, key=lambda end: sum(values[end]))
    lead = values[leader]
    n = len(lead)
    kept = [leader]
    for end in survivors:
        if end == leader:
            continue
        diffs = [a - b for a, b in zip(lead, values[end], strict=True)]
        mean = sum(diffs) / n
        spread = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else math.inf
        if mean <= z * math.sqrt(spread / n):
            kept.append(end)
    return kept
