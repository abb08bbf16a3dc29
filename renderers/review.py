"""Images of a post-game review: the win-probability chart and a decision card.

Plain data in (no service types), Pillow out, like the board renderers:

- :func:`win_chart` draws white's chance to win over the game from ``(action index, game
  number, white's chance)`` points, one panel across, game boundaries marked.
- :func:`decision_card` draws the board before a decision twice, side by side: the play made
  and the best play (each as a preview on :func:`renderers.render`'s board), with the notation
  and the equity lost above. A cube decision (no steps) shows the board once.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from renderers import PlayerInfo, render
from renderers import backgammon as board_renderer
from renderers.fonts import Colour, draw_text
from renderers.theme import get_theme, mix

__all__ = ["decision_card", "win_chart"]

CHART_SIZE = (900, 360)
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 64, 24, 48, 44
WHITE_LINE: Colour = (64, 196, 255)


def win_chart(
    series: Sequence[tuple[int, int, float]],
    names: Sequence[str] = ("White", "Black"),
    *,
    theme: str = "dark",
    size: tuple[int, int] = CHART_SIZE,
    title: str = "Winning chances",
) -> Image.Image:
    """White's chance to win (0-1) against the action index; 50 % is the middle line."""
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
        draw.line((left, y, right, y), fill=look.muted if share == 0.5 else grid, width=1)
    for share, label in ((1.0, "100%"), (0.5, "50%"), (0.0, "0%")):
        y = bottom - share * (bottom - top)
        draw_text(image, (left - 8, y), label, 16, look.muted, anchor="rm")
    draw_text(image, (left, top - 26), title, 20, look.text, bold=True, anchor="lm")
    legend = f"{names[0]} above the line, {names[1]} below"
    draw_text(image, (right, top - 26), legend, 16, look.muted, anchor="rm")
    if series:
        first = series[0][0]
        span = max(1, series[-1][0] - first)

        def xy(index: int, chance: float) -> tuple[float, float]:
            x = left + (index - first) / span * (right - left)
            return x, bottom - min(1.0, max(0.0, chance)) * (bottom - top)

        games = sorted({g for _, g, _ in series})
        for number in games[1:]:  # a dashed line where each later game starts
            start = min(i for i, g, _ in series if g == number)
            x = xy(start, 0.0)[0]
            for y in range(top, bottom, 8):
                draw.line((x, y, x, min(bottom, y + 4)), fill=look.muted)
        centre = bottom - 0.5 * (bottom - top)
        for number in games:
            points = [xy(i, w) for i, g, w in series if g == number]
            for (x0, y0), (x1, y1) in itertools.pairwise(points):
                shade = mix(look.panel, WHITE_LINE, 0.25)
                draw.polygon([(x0, centre), (x0, y0), (x1, y1), (x1, centre)], fill=shade)
            if len(points) > 1:
                draw.line(points, fill=WHITE_LINE, width=3, joint="curve")
            elif points:
                x, y = points[0]
                draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=WHITE_LINE)
        draw_text(image, ((left + right) / 2, bottom + 22), "moves", 16, look.muted)
    return image


def decision_card(
    state: Any,
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
    look = get_theme(theme)
    perspective = int(state.turn)
    panels: list[tuple[str, Image.Image]] = []
    if played_steps or best_steps:
        for label, steps in ((f"Played: {played}", played_steps), (f"Best: {best}", best_steps)):
            board = render(
                state,
                renderer=board_renderer,
                players=players,
                perspective=perspective,
                preview_steps=steps,
                theme=theme,
            )
            panels.append((label, board))
    else:
        board = render(
            state, renderer=board_renderer, players=players, perspective=perspective, theme=theme
        )
        panels.append((f"Played: {played}  ·  Best: {best}", board))
    lanczos = Image.Resampling.LANCZOS
    boards = [
        (label, im.resize((round(im.width * scale), round(im.height * scale)), lanczos))
        for label, im in panels
    ]
    gap, header, caption = 16, 56, 34
    width = sum(im.width for _, im in boards) + gap * (len(boards) + 1)
    height = header + caption + max(im.height for _, im in boards) + gap
    card = Image.new("RGB", (width, height), look.background)
    verdict = "Best play" if loss_mp <= 0.0 else f"Lost {loss_mp:.0f} millipoints"
    draw_text(card, (width / 2, header / 2), verdict, 26, look.text, bold=True)
    x = gap
    for label, im in boards:
        draw_text(card, (x + im.width / 2, header + caption / 2 - 4), label, 20, look.muted)
        card.paste(im, (x, header + caption))
        x += im.width + gap
    return card
