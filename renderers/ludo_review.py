"""Images of a Ludo review: every seat's winning chance over the game, and a move card.

Plain data in, Pillow out, like :mod:`renderers.review` (the backgammon review's images):

- :func:`seat_chart` draws one line per seat, in the seat's colour, from ``(action index,
  (each seat's chance))`` points; 25 % (an even four-seat game) is the middle line.
- :func:`move_card` draws the board twice, side by side: after the move made and after the
  best move (each with its move drawn as the last move), with the chance lost above.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.engines import ludo
from renderers import PlayerInfo, render
from renderers import ludo as board_renderer
from renderers.fonts import draw_text
from renderers.ludo import COLOURS
from renderers.theme import get_theme, mix

__all__ = ["move_card", "seat_chart"]

CHART_SIZE = (900, 360)
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 64, 24, 48, 44


def seat_chart(
    series: Sequence[tuple[int, Sequence[float]]],
    names: Sequence[str],
    *,
    theme: str = "dark",
    size: tuple[int, int] = CHART_SIZE,
    title: str = "Winning chances",
) -> Image.Image:
    """Each seat's chance to win (0-1) against the action index."""
    look = get_theme(theme)
    width, height = size
    image = Image.new("RGB", size, look.background)
    draw = ImageDraw.Draw(image)
    left, right = PAD_LEFT, width - PAD_RIGHT
    top, bottom = PAD_TOP, height - PAD_BOTTOM
    draw.rectangle((left, top, right, bottom), fill=look.panel)
    grid = mix(look.panel, look.muted, 0.35)
    for share in (0.25, 0.5, 0.75):
        y = bottom - share * (bottom - top)
        draw.line((left, y, right, y), fill=look.muted if share == 0.25 else grid, width=1)
    for share, label in ((1.0, "100%"), (0.25, "25%"), (0.0, "0%")):
        y = bottom - share * (bottom - top)
        draw_text(image, (left - 8, y), label, 16, look.muted, anchor="rm")
    draw_text(image, (left, top - 26), title, 20, look.text, bold=True, anchor="lm")
    x = right
    for seat in reversed(range(len(names))):  # the legend, right-aligned: names in colour
        box = draw_text(image, (x, top - 26), names[seat], 16, COLOURS[seat], anchor="rm")
        x = box[0] - 14
    if series:
        first = series[0][0]
        span = max(1, series[-1][0] - first)
        for seat in range(len(names)):
            points = [
                (
                    left + (index - first) / span * (right - left),
                    bottom - min(1.0, max(0.0, chances[seat])) * (bottom - top),
                )
                for index, chances in series
            ]
            if len(points) > 1:
                draw.line(points, fill=COLOURS[seat], width=3, joint="curve")
            else:
                px, py = points[0]
                draw.ellipse((px - 3, py - 3, px + 3, py + 3), fill=COLOURS[seat])
        draw_text(image, ((left + right) / 2, bottom + 22), "moves", 16, look.muted)
    return image


def move_card(
    state: ludo.LudoState,
    played: ludo.Move,
    best: ludo.Move,
    *,
    verdict: str,
    players: Sequence[PlayerInfo] | None = None,
    theme: str = "dark",
    scale: float = 0.5,
) -> Image.Image:
    """The board after the move made (left) and after the best move (right); ``state`` is
    the state just before them, ``verdict`` the line above (the chance lost, the label)."""
    look = get_theme(theme)
    perspective = int(state.turn)
    panels = []
    for label, move in (
        (f"Played: {played.notation()}", played),
        (f"Best: {best.notation()}", best),
    ):
        board = render(
            ludo.apply(state, move),
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
