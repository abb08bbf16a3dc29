"""Board images for the games: pure functions of an engine state (Pillow only).

Each game has its renderer module (``renderers.<game>``, a :class:`Renderer`); the functions
here take it as ``renderer`` and add what every board shares: the view (who plays, from
where, in which theme) and PNG encoding. ``render`` returns the image, ``render_png`` its
PNG bytes. Both are safe to call from several threads at once: every cache holds immutable
images built under one lock.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from PIL import Image

from renderers.marks import LabelBox
from renderers.png import encode
from renderers.view import PlayerInfo, View, make_view

__all__ = [
    "LabelBox",
    "PlayerInfo",
    "Renderer",
    "render",
    "render_labelled",
    "render_png",
    "warm",
]


class Renderer(Protocol):
    """What a game's renderer module provides. ``SEATS``: the engine's seat names, which
    name the players not given."""

    SEATS: tuple[str, ...]

    def render(self, state: Any, view: View) -> Image.Image: ...

    def render_labelled(self, state: Any, view: View) -> tuple[Image.Image, list[LabelBox]]: ...

    def palette(self, theme_name: str) -> Image.Image: ...

    def warm(self, themes: tuple[str, ...]) -> None: ...


def render(
    state: Any,
    *,
    renderer: Renderer,
    players: Sequence[PlayerInfo] | None = None,
    perspective: int | None = None,
    highlight: object | None = None,
    preview_steps: Sequence[tuple[int, int]] = (),
    theme: str = "dark",
) -> Image.Image:
    """The board image of ``state`` (RGB), drawn by its game's ``renderer``.

    ``perspective``: the seat drawn at the bottom. ``highlight``: the selected piece
    (backgammon: a point from the mover's side; Ur: a source square; Ludo: the chosen die).
    ``preview_steps``: backgammon steps picked but not confirmed, drawn as played.
    """
    view = make_view(renderer.SEATS, players, perspective, highlight, preview_steps, theme)
    return renderer.render(state, view)


def render_labelled(
    state: Any,
    *,
    renderer: Renderer,
    players: Sequence[PlayerInfo] | None = None,
    perspective: int | None = None,
    highlight: object | None = None,
    preview_steps: Sequence[tuple[int, int]] = (),
    theme: str = "dark",
) -> tuple[Image.Image, list[LabelBox]]:
    """``render`` and every button label printed on the image, with the box its glyphs
    cover (how the phone-size check measures them)."""
    view = make_view(renderer.SEATS, players, perspective, highlight, preview_steps, theme)
    return renderer.render_labelled(state, view)


def render_png(
    state: Any,
    *,
    renderer: Renderer,
    players: Sequence[PlayerInfo] | None = None,
    perspective: int | None = None,
    highlight: object | None = None,
    preview_steps: Sequence[tuple[int, int]] = (),
    theme: str = "dark",
) -> bytes:
    """``render`` encoded as PNG on the game's fixed palette (see ``renderers.png``)."""
    view = make_view(renderer.SEATS, players, perspective, highlight, preview_steps, theme)
    return encode(renderer.render(state, view), renderer.palette(view.theme.name))


def warm(renderers: Iterable[Renderer], themes: Sequence[str] = ("dark", "light")) -> None:
    """Build every palette and static board of ``renderers`` now (about a second per game and
    theme) rather than on the first render of each; the bot may call this once in a worker
    thread."""
    for renderer in renderers:
        renderer.warm(tuple(themes))
