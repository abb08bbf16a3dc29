"""A game's palette (``renderers.png``), fitted to boards of a seeded random game.

Each board renderer plays its game here with a choice of actions of its own (``sample_game``;
tests and benchmarks draw the same states), and fits its palette to its static board and to
those states drawn in the theme, with the theme's chrome and the game's own inks pinned
(``fit_palette``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, TypeVar

from PIL import Image

from bot.engines.common import GameState, Phase, S
from renderers.fonts import Colour
from renderers.marks import Drawn
from renderers.png import build_palette
from renderers.theme import get_theme
from renderers.view import View, make_view

S_contra = TypeVar("S_contra", bound=GameState, contravariant=True)


class Draw(Protocol[S_contra]):
    """A renderer's ``draw`` (:class:`renderers.Renderer`)."""

    def __call__(self, state: S_contra, view: View, *, indexed: bool) -> Drawn: ...


def sample_game(
    state: S,
    advance: Callable[[S, random.Random], S],
    *,
    seed: int,
    count: int,
    limit: int | None = None,
) -> list[S]:
    """``count`` states spread over a game played from ``state`` by ``advance`` (one action,
    drawn with a ``random.Random(seed)``) to its end, or to ``limit`` states; the last one
    is the end."""
    rng = random.Random(seed)
    states = [state]
    while state.phase != Phase.FINISHED and (limit is None or len(states) < limit):
        state = advance(state, rng)
        states.append(state)
    step = max(1, len(states) // count)
    return [*states[step::step][: count - 1], states[-1]]


def fit_palette(
    theme_name: str,
    seats: Sequence[str],
    draw: Draw[S],
    board: Image.Image,
    states: Iterable[S],
    pinned: Iterable[Colour],
) -> Image.Image:
    """The palette of a game's boards in the theme: the theme's chrome and ``pinned`` first,
    the rest fitted to the static ``board`` and to ``states`` as ``draw`` draws them."""
    view = make_view(seats, theme=theme_name)
    samples = [board, *(draw(state, view, indexed=False).image for state in states)]
    return build_palette(samples, [*get_theme(theme_name).chrome, *pinned])
