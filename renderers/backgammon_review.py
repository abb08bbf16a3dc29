"""Backgammon's review card (its chart is :func:`renderers.review.win_chart`).

:func:`decision_card` draws the board before a decision twice, side by side: the play made
and the best play (each as a preview on :func:`renderers.render`'s board), with the notation
and the equity lost above. A cube decision (no steps) shows the board once.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from bot.engines.backgammon import BackgammonState
from renderers import PlayerInfo, render
from renderers import backgammon as board_renderer
from renderers.review import card

__all__ = ["decision_card"]


def decision_card(
    state: BackgammonState,
    played_steps: Sequence[tuple[int, int]],
    best_steps: Sequence[tuple[int, int]],
    *,
    played: str,
    best: str,
    loss_mp: float,
    players: Sequence[PlayerInfo] | None = None,
    theme: str = "dark",
    scale: float = 0.6,
) -> Image.Image:
    """The board before a decision: the play made (left) and the best play (right)."""
    perspective = int(state.turn)
    if played_steps or best_steps:
        shown = [(f"Played: {played}", played_steps), (f"Best: {best}", best_steps)]
    else:
        shown = [(f"Played: {played}  ·  Best: {best}", ())]
    panels = [
        (
            label,
            render(
                state,
                renderer=board_renderer,
                players=players,
                perspective=perspective,
                preview_steps=steps,
                theme=theme,
            ),
        )
        for label, steps in shown
    ]
    verdict = "Best play" if loss_mp <= 0.0 else f"Lost {loss_mp:.0f} millipoints"
    return card(verdict, panels, theme=theme, scale=scale)
