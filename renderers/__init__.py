"""Board images for the games: pure functions of an engine state (Pillow only).

Each game has its renderer module (``renderers.<game>``, a :class:`Renderer`), whose one
entry point ``draw`` gives a board and its printed labels; the functions here take it as
``renderer`` and add what every board shares: the view (who plays, from where, in which
theme) and PNG encoding. ``render`` returns the image, ``render_labelled`` the image and its
labels, ``render_png`` the PNG bytes of the board drawn on the game's palette. All are
safe to call from several threads at once: every cache holds immutable images, each built
once (``renderers.memo``); palettes and the costliest static boards are also kept on disk
between runs (``renderers.diskcache``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Sequence
from typing import Never, Protocol, TypeVar, Unpack

from PIL import Image

from bot.engines.common import GameState, S
from renderers.marks import Drawn, LabelBox
from renderers.png import encode_indexed
from renderers.view import PlayerInfo, View, ViewOptions, make_view

__all__ = [
    "Drawn",
    "LabelBox",
    "PlayerInfo",
    "Renderer",
    "recent_pngs",
    "render",
    "render_labelled",
    "render_png",
    "warm",
]


S_contra = TypeVar("S_contra", bound=GameState, contravariant=True)


class Renderer(Protocol[S_contra]):
    """What a game's renderer module provides for its states ``S_contra``. ``SEATS``: the
    engine's seat names, which name the players not given.

    ``draw(state, view, indexed=...)`` draws the board and records where each button label is
    printed on it: in RGB, or (``indexed``) straight onto the game's ``palette`` for the PNG
    (``renderers.canvas``; the same pixels as the RGB board mapped onto the palette)."""

    SEATS: tuple[str, ...]

    def draw(self, state: S_contra, view: View, *, indexed: bool) -> Drawn: ...

    def palette(self, theme_name: str) -> Image.Image: ...

    def warm(self, themes: tuple[str, ...]) -> None: ...


def render(state: S, *, renderer: Renderer[S], **options: Unpack[ViewOptions]) -> Image.Image:
    """The board image of ``state`` (RGB), drawn by its game's ``renderer`` as ``options``
    say (:class:`~renderers.view.ViewOptions`)."""
    return render_labelled(state, renderer=renderer, **options)[0]


def render_labelled(
    state: S, *, renderer: Renderer[S], **options: Unpack[ViewOptions]
) -> tuple[Image.Image, list[LabelBox]]:
    """``render`` and every button label printed on the image, with the box its glyphs
    cover (how the phone-size check measures them)."""
    drawn = renderer.draw(state, make_view(renderer.SEATS, **options), indexed=False)
    return drawn.image, drawn.labels


class RecentPngs:
    """The PNGs of the last few boards drawn, by everything that decides their pixels (the
    renderer, the state and the view), so that a board shown again (the edit that found its
    message deleted and posts it anew, ``/board``, a private copy) is encoded once."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._pngs: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> bytes | None:
        with self._lock:
            png = self._pngs.get(key)
            if png is not None:
                self._pngs.move_to_end(key)
            return png

    def put(self, key: Hashable, png: bytes) -> None:
        with self._lock:
            self._pngs[key] = png
            self._pngs.move_to_end(key)
            while len(self._pngs) > self.size:
                self._pngs.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._pngs.clear()


recent_pngs = RecentPngs()


def render_png(state: S, *, renderer: Renderer[S], **options: Unpack[ViewOptions]) -> bytes:
    """The board encoded as PNG on the game's fixed palette (``renderers.png``), drawn straight
    onto it (``renderers.canvas``); the same board asked for again comes from ``recent_pngs``."""
    view = make_view(renderer.SEATS, **options)
    key: Hashable | None = (renderer, state, view)
    try:
        png = recent_pngs.get(key)
    except TypeError:  # a state or highlight that cannot be hashed: drawn every time
        key, png = None, None
    if png is None:
        png = encode_indexed(renderer.draw(state, view, indexed=True).image)
        if key is not None:
            recent_pngs.put(key, png)
    return png


def warm(renderers: Iterable[Renderer[Never]], themes: Sequence[str] = ("dark", "light")) -> None:
    """Build or load every palette and static board of ``renderers`` now rather than on the
    first render of each: a few milliseconds per game once the disk cache holds them
    (``renderers.diskcache``), a fraction of a second per game and theme the first time. The
    bot calls this once in a worker thread; boards drawn meanwhile build what they need
    themselves, without waiting for the rest (``renderers.memo``)."""
    for renderer in renderers:
        renderer.warm(tuple(themes))
