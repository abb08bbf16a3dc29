"""Board images for the three games: pure functions of an engine state (Pillow only).

``render`` returns the image, ``render_png`` its PNG bytes. Both are safe to call from
several threads at once: every cache holds immutable images built under one lock.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any, Protocol, cast

from PIL import Image

from renderers.labels import game_of
from renderers.marks import LabelBox
from renderers.png import encode
from renderers.view import PlayerInfo, View, make_view

__all__ = ["LabelBox", "PlayerInfo", "render", "render_labelled", "render_png", "warm"]


class _Renderer(Protocol):
    def render(self, state: Any, view: View) -> Image.Image: ...

    def render_labelled(self, state: Any, view: View) -> tuple[Image.Image, list[LabelBox]]: ...

    def palette(self, theme_name: str) -> Image.Image: ...

    def warm(self, themes: tuple[str, ...]) -> None: ...


def _renderer(game: str) -> _Renderer:
    return cast(_Renderer, importlib.import_module(f"renderers.{game}"))


def _prepare(
    state: Any,
    players: Sequence[PlayerInfo] | None,
    perspective: int | None,
    highlight: object | None,
    preview_steps: Sequence[tuple[int, int]],
    theme: str,
) -> tuple[_Renderer, View]:
    game = game_of(state)
    seats: tuple[str, ...] = importlib.import_module(f"bot.engines.{game}").SEATS
    view = make_view(seats, players, perspective, highlight, preview_steps, theme)
    return _renderer(game), view


def render(
    state: Any,
    *,
    players: Sequence[PlayerInfo] | None = None,
    perspective: int | None = None,
    highlight: object | None = None,
    preview_steps: Sequence[tuple[int, int]] = (),
    theme: str = "dark",
) -> Image.Image:
    """The board image of ``state`` (RGB).

    ``perspective``: the seat drawn at the bottom. ``highlight``: the selected piece
    (backgammon: a point from the mover's side; Ur: a source square; Ludo: the chosen die).
    ``preview_steps``: backgammon steps picked but not confirmed, drawn as played.
    """
    renderer, view = _prepare(state, players, perspective, highlight, preview_steps, theme)
    return renderer.render(state, view)


def render_labelled(
    state: Any,
    *,
    players: Sequence[PlayerInfo] | None = None,
    perspective: int | None = None,
    highlight: object | None = None,
    preview_steps: Sequence[tuple[int, int]] = (),
    theme: str = "dark",
) -> tuple[Image.Image, list[LabelBox]]:
    """``render`` and every button label printed on the image, with the box its glyphs
    cover (how the phone-size check measures them)."""
    renderer, view = _prepare(state, players, perspective, highlight, preview_steps, theme)
    return renderer.render_labelled(state, view)


def render_png(
    state: Any,
    *,
    players: Sequence[PlayerInfo] | None = None,
    perspective: int | None = None,
    highlight: object | None = None,
    preview_steps: Sequence[tuple[int, int]] = (),
    theme: str = "dark",
) -> bytes:
    """``render`` encoded as PNG on the game's fixed palette (see ``renderers.png``)."""
    renderer, view = _prepare(state, players, perspective, highlight, preview_steps, theme)
    return encode(renderer.render(state, view), renderer.palette(view.theme.name))


def warm(themes: Sequence[str] = ("dark", "light")) -> None:
    """Build every palette and static board now (about a second per game and theme) rather
    than on the first render of each; the bot may call this once in a worker thread."""
    for game in ("backgammon", "ur", "ludo"):
        _renderer(game).warm(tuple(themes))
