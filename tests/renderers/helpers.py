"""Shared helpers for the renderer tests: seeded playouts and pixel sampling."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from PIL import Image

from bot.engines.common import Phase

Colour = tuple[int, int, int]


def playout(rules: Any, seed: int, options: dict[str, Any] | None = None) -> Iterator[Any]:
    """Every state of one seeded random game, first to last."""
    rng = random.Random(seed)
    state = rules.new_game(options)
    yield state
    for _ in range(5000):
        if state.phase is Phase.FINISHED:
            return
        actions = rules.legal_actions(state)
        if state.phase in (Phase.ROLL, Phase.OPENING):
            # Backgammon may double before rolling now and then; the cube phase answers.
            if actions and rng.random() < 0.1:
                state = rules.apply(state, actions[0])
            else:
                state = rules.apply(state, rules.roll(state, rng))
        else:
            state = rules.apply(state, actions[rng.randrange(len(actions))])
        yield state


def pixel(image: Image.Image, xy: tuple[float, float]) -> Colour:
    value = image.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(value, tuple)
    return value[0], value[1], value[2]


def near(a: Colour, b: Colour, tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))
