"""Images of an Ur review: light's winning chance over the game, and a move card.

Plain data in, Pillow out, like :mod:`renderers.review` (whose chart it draws) and
:mod:`renderers.ludo_review`:

- :func:`chance_chart` draws light's chance to win from ``(action index, light's chance)``
  points; 50 % is the middle line, light above it, dark below.
- :func:`move_card` draws the board twice, side by side: after the move made and after the
  best move (each with its move drawn as the last move), with the chance lost above.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from bot.engines import ur
from renderers import PlayerInfo, render
from renderers import ur as board_renderer
from renderers.fonts import draw_text
from renderers.review import win_chart
from renderers.theme import get_theme

__all__ = ["chance_chart", "move_card"]


def chance_chart(
    series: Sequence[tuple[int, float]], names: Sequence[str], *, theme: str = "dark"
) -> Image.Image:
    """Light's chance to win (0-1) against the action index (one game)."""
    return win_chart([(index, 1, chance) for index, chance in series], names, theme=theme)


def move_card(
    state: ur.UrState,
    played: ur.Move,
    best: ur.Move,
    *,
    verdict: str,
    players: Sequence[PlayerInfo] | None = None,
    theme: str = "dark",
    scale: float = 0.6,
) -> Image.Image:
    """The board after the move made (left) and after the best move (right); ``state`` is
    the state just before them (its roll on the table), ``verdict`` the line above."""
    look = get_theme(theme)
    perspective = int(state.turn)
    panels = []
    for label, move in (
        (f"Played: {played.notation()}", played),
        (f"Best: {best.notation()}", best),
    ):
        board = render(
            ur.apply(state, move),
            renderer=board_renderer,
            players=players,
            perspective=perspective,
            theme=theme,
        )
        size = (round(board.width * scale), round(board.height * scale))
        panels.append((label, board.resize(size, Image.Resampling.LANCZOS)))
    gap, header, caption = 16, 56, 34
    width = sum(im.width for _, im in panels) + gap * (len(panels) + 1)
    height = header + caption + max(im.height for _, im in panels) + gap
    card = Image.new("RGB", (width, height), look.background)
    draw_text(card, (width / 2, header / 2), verdict, 26, look.text, bold=True)
    x = gap
    for label, im in panels:
        draw_text(card, (x + im.width / 2, header + caption / 2 - 4), label, 20, look.muted)
        card.paste(im, (x, header + caption))
        x += im.width + gap
    return card
