"""Shared by the benchmarks: play one seeded game with an AI level per seat."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot import games
from bot.engines.common import Phase


@dataclass
class Played:
    outcome: Any
    decisions: dict[int, list[float]] = field(default_factory=dict)  # seat -> seconds each
    actions: int = 0


def play(
    game: str,
    levels: Sequence[str],
    seed: int,
    *,
    options: dict[str, Any] | None = None,
    max_actions: int = 20_000,
    seats: Sequence[str | None] | None = None,
) -> Played:
    """Play ``game`` to the end; seat i is played by the AI at ``levels[i]``. The AIs are
    told who plays each seat: ``seats`` (``None`` for a person), by default ``levels``."""
    spec = games.get(game)
    rules = spec.rules
    told = tuple(levels if seats is None else seats)
    dice_rng = random.Random(seed)
    ai_rng = random.Random(seed * 7919 + 1)
    state = rules.new_game(options or {})
    played = Played(None, {seat: [] for seat in range(len(levels))})
    while state.phase != Phase.FINISHED:
        if played.actions >= max_actions:
            raise RuntimeError(f"{game} seed {seed} did not finish")
        seat = int(state.turn)
        action = None
        if not spec.rolls_itself(state):  # nobody chooses in a roll the table makes
            started = time.perf_counter()
            action = spec.choose(state, levels[seat], ai_rng, told)
            if state.phase == Phase.MOVE:
                played.decisions[seat].append(time.perf_counter() - started)
        if action is None:
            action = rules.roll(state, dice_rng)
        state = rules.apply(state, action)
        played.actions += 1
    played.outcome = state.outcome
    return played
