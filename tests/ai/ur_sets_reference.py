"""A second, deliberately plain solver of Ur's rule sets, for tests: every position of a small
game listed through the engine itself (:class:`UrSetRules`'s ``position``, ``legal_moves`` and
``apply_move``), light's winning chance in absolute terms (light maximises, dark minimises),
and plain Jacobi value iteration. It shares nothing with :mod:`bot.ai.ur_sets_solver` but the
engine: no index, no mover-relative values, no groups, no ordering."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from bot.engines.common import InvalidPosition
from bot.engines.ur_sets import Position, RuleSet, UrSetRules

TOLERANCE = 1e-14


@dataclass(frozen=True)
class Solved:
    positions: list[Position]
    light_wins: npt.NDArray[np.float64]  # light's chance, whoever is to move

    def mover_chance(self, at: int) -> float:
        position = self.positions[at]
        light = float(self.light_wins[at])
        return light if position.to_move == 0 else 1.0 - light


def sides(engine: UrSetRules) -> list[tuple[int, ...]]:
    rules = engine.rules
    squares = range(rules.off + 1)
    return [
        side
        for side in itertools.combinations_with_replacement(squares, rules.pieces)
        if len({s for s in side if 0 < s < rules.off}) == sum(1 for s in side if 0 < s < rules.off)
    ]


def every_position(engine: UrSetRules) -> list[Position]:
    """Every position of the game but the one with both sides borne off (no game reaches it)."""
    found = []
    each = sides(engine)
    done = (engine.rules.off,) * engine.rules.pieces
    for light in each:
        for dark in each:
            if light == dark == done:
                continue
            for to_move in (0, 1):
                try:
                    found.append(engine.position(light, dark, to_move))
                except InvalidPosition:
                    continue
    return found


def solve(rules: RuleSet, pieces: int) -> Solved:
    engine = UrSetRules(replace(rules, pieces=pieces))
    positions = every_position(engine)
    where = {p: i for i, p in enumerate(positions)}
    chances = rules.roll_probabilities()
    fixed: dict[int, float] = {}
    # For each live position and roll: the successors and whether light chooses (max).
    choices: list[tuple[int, float, list[int], bool]] = []
    for i, position in enumerate(positions):
        winner = engine.winner(position)
        if winner is not None:
            fixed[i] = 1.0 if winner == 0 else 0.0
            continue
        for roll, chance in enumerate(chances):
            moves = engine.legal_moves(position, roll)
            if moves:
                after = [where[engine.apply_move(position, move)[0]] for move in moves]
            else:
                after = [where[position._replace(to_move=1 - position.to_move)]]
            choices.append((i, chance, after, position.to_move == 0))
    values = np.full(len(positions), 0.5)
    for i, value in fixed.items():
        values[i] = value
    rows = np.array([c[0] for c in choices])
    weights = np.array([c[1] for c in choices])
    lights = np.array([c[3] for c in choices])
    flat = np.array([s for c in choices for s in c[2]])
    starts = np.cumsum([0] + [len(c[2]) for c in choices[:-1]])
    live = np.array(sorted(set(rows.tolist())))
    while True:
        successor = values[flat]
        best = np.where(
            lights,
            np.maximum.reduceat(successor, starts),
            np.minimum.reduceat(successor, starts),
        )
        updated = values.copy()
        updated[live] = 0.0
        np.add.at(updated, rows, weights * best)
        change = float(np.max(np.abs(updated - values)))
        values = updated
        if change < TOLERANCE:
            return Solved(positions, values)
