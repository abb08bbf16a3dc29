"""The pictures ``/rules`` shows: one board per rule, the move that shows it drawn on it.

Each game makes its own (``renderers.<game>_rules.pictures``, named by its manifest); this
module holds what they share and draws them.

Each picture is a real engine position: either a roll about to be played with the piece
that makes the point selected (its label on a plate, the path drawn as a preview), or the
position right after that move, with the move's arrow. Positions are built with the engines'
public constructors and moves are played with the engines themselves, so a picture cannot
show a move the rules forbid. Pictures are drawn once per game and theme and then cached.

Caption keys are ``rules.picture.<game>.<rule>`` in the locale catalogues.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic

from bot.engines.common import A, S
from renderers import Renderer, render_png
from renderers.memo import cached
from renderers.view import ViewOptions


@dataclass(frozen=True, slots=True)
class RulePicture(Generic[S, A]):
    """``before``: the position the rule acts on; ``action``: the move or cube action that
    shows it; ``state``: what is drawn (``before`` with the move selected, or the position
    after it), with the render ``options``."""

    game: str
    rule: str
    before: S
    action: A
    state: S
    options: ViewOptions = field(default_factory=ViewOptions)

    @property
    def caption_key(self) -> str:
        return f"rules.picture.{self.game}.{self.rule}"


@cached
def picture_pngs(
    pictures: Callable[[], Sequence[RulePicture[S, A]]], renderer: Renderer[S], theme: str = "dark"
) -> tuple[tuple[str, bytes], ...]:
    """``(caption key, PNG)`` per picture ``pictures()`` makes, drawn by the game's
    ``renderer`` on the first call only."""
    drawn = []
    for picture in pictures():
        options: ViewOptions = {**picture.options, "theme": theme}
        drawn.append((picture.caption_key, render_png(picture.state, renderer=renderer, **options)))
    return tuple(drawn)
