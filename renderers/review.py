"""Images of a post-game review: charts of the winning chances and cards of costly moves.

Plain data in (no service types), Pillow out, like the board renderers; every game's review
draws with these:

- :func:`win_chart` draws the first seat's chance to win over the game from ``(action index,
  game number, chance)`` points, one panel across, 50 % the middle line, game boundaries (a
  backgammon match) marked; :func:`lead_chart` draws the same from each seat's chances.
- :func:`seat_chart` draws one line per seat in the seat's colour (games of more seats).
- :func:`move_card` draws a board twice, side by side: after the move made and after the
  best move, with a verdict above; :func:`card` lays out any such panels.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.engines.common import S
from renderers import PlayerInfo, Renderer, render
from renderers.fonts import Colour, draw_text
from renderers.theme import Theme, get_theme, mix

__all__ = ["card", "lead_chart", "move_card", "seat_chart", "win_chart"]

CHART_SIZE = (900, 360)
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 64, 24, 48, 44
WHITE_LINE: Colour = (64, 196, 255)

Series = Sequence[tuple[int, Sequence[float]]]  # (action index, each seat's chance to win)


class _Chart:
    """An empty chart: the panel, grid lines at quarters, the even chance marked, the title."""

    def __init__(
        self, size: tuple[int, int], theme: str, title: str, even: float, even_label: str
    ) -> None:
        self.look: Theme = get_theme(theme)
        look = self.look
        width, height = size
        self.image = Image.new("RGB", size, look.background)
        self.draw = ImageDraw.Draw(self.image)
        self.left, self.right = PAD_LEFT, width - PAD_RIGHT
        self.top, self.bottom = PAD_TOP, height - PAD_BOTTOM
        self.draw.rectangle((self.left, self.top, self.right, self.bottom), fill=look.panel)
        grid = mix(look.panel, look.muted, 0.35)
        for share in (0.25, 0.5, 0.75):
            y = self.y(share)
            fill = look.muted if share == even else grid
            self.draw.line((self.left, y, self.right, y), fill=fill, width=1)
        for share, label in ((1.0, "100%"), (even, even_label), (0.0, "0%")):
            draw_text(
                self.image, (self.left - 8, self.y(share)), label, 16, look.muted, anchor="rm"
            )
        draw_text(
            self.image, (self.left, self.top - 26), title, 20, look.text, bold=True, anchor="lm"
        )

    def y(self, chance: float) -> float:
        return self.bottom - min(1.0, max(0.0, chance)) * (self.bottom - self.top)

    def scale(self, indices: Sequence[int]) -> tuple[int, int]:
        """The first action index and the span the x axis covers."""
        return indices[0], max(1, indices[-1] - indices[0])

    def x(self, index: int, first: int, span: int) -> float:
        return self.left + (index - first) / span * (self.right - self.left)

    def trace(self, points: Sequence[tuple[float, float]], colour: Colour) -> None:
        if len(points) > 1:
            self.draw.line(list(points), fill=colour, width=3, joint="curve")
        elif points:
            x, y = points[0]
            self.draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=colour)

    def axis(self) -> None:
        middle = (self.left + self.right) / 2
        draw_text(self.image, (middle, self.bottom + 22), "moves", 16, self.look.muted)


def win_chart(
    series: Sequence[tuple[int, int, float]],
    names: Sequence[str] = ("White", "Black"),
    *,
    theme: str = "dark",
    size: tuple[int, int] = CHART_SIZE,
    title: str = "Winning chances",
) -> Image.Image:
    """The first seat's chance to win (0-1) against the action index; 50 % is the middle
    line, the first seat above it."""
    chart = _Chart(size, theme, title, 0.5, "50%")
    legend = f"{names[0]} above the line, {names[1]} below"
    draw_text(chart.image, (chart.right, chart.top - 26), legend, 16, chart.look.muted, anchor="rm")
    if series:
        first, span = chart.scale([index for index, _, _ in series])
        games = sorted({g for _, g, _ in series})
        for number in games[1:]:  # a dashed line where each later game starts
            x = chart.x(min(i for i, g, _ in series if g == number), first, span)
            for y in range(chart.top, chart.bottom, 8):
                chart.draw.line((x, y, x, min(chart.bottom, y + 4)), fill=chart.look.muted)
        centre = chart.y(0.5)
        shade = mix(chart.look.panel, WHITE_LINE, 0.25)
        for number in games:
            points = [(chart.x(i, first, span), chart.y(w)) for i, g, w in series if g == number]
            for (x0, y0), (x1, y1) in itertools.pairwise(points):
                chart.draw.polygon([(x0, centre), (x0, y0), (x1, y1), (x1, centre)], fill=shade)
            chart.trace(points, WHITE_LINE)
        chart.axis()
    return chart.image


def lead_chart(series: Series, names: Sequence[str], *, theme: str = "dark") -> Image.Image:
    """:func:`win_chart` of a two-seat game from each seat's chances (one game)."""
    return win_chart([(index, 1, chances[0]) for index, chances in series], names, theme=theme)


def seat_chart(
    series: Series,
    names: Sequence[str],
    colours: Sequence[Colour],
    *,
    theme: str = "dark",
    size: tuple[int, int] = CHART_SIZE,
    title: str = "Winning chances",
) -> Image.Image:
    """Each seat's chance to win (0-1) against the action index, in the seat's colour; the
    even chance (25 % of four seats) is the marked line."""
    even = 1.0 / len(names)
    chart = _Chart(size, theme, title, even, f"{100 * even:.0f}%")
    x = chart.right
    for seat in reversed(range(len(names))):  # the legend, right-aligned: names in colour
        box = draw_text(
            chart.image, (x, chart.top - 26), names[seat], 16, colours[seat], anchor="rm"
        )
        x = box[0] - 14
    if series:
        first, span = chart.scale([index for index, _ in series])
        for seat in range(len(names)):
            points = [(chart.x(i, first, span), chart.y(chances[seat])) for i, chances in series]
            chart.trace(points, colours[seat])
        chart.axis()
    return chart.image


def card(
    verdict: str,
    panels: Sequence[tuple[str, Image.Image]],
    *,
    theme: str = "dark",
    scale: float = 0.6,
) -> Image.Image:
    """``panels`` (a caption and a board each) scaled by ``scale`` side by side under
    ``verdict``."""
    look = get_theme(theme)
    lanczos = Image.Resampling.LANCZOS
    boards = [
        (label, im.resize((round(im.width * scale), round(im.height * scale)), lanczos))
        for label, im in panels
    ]
    gap, header, caption = 16, 56, 34
    width = sum(im.width for _, im in boards) + gap * (len(boards) + 1)
    height = header + caption + max(im.height for _, im in boards) + gap
    image = Image.new("RGB", (width, height), look.background)
    draw_text(image, (width / 2, header / 2), verdict, 26, look.text, bold=True)
    x = gap
    for label, im in boards:
        draw_text(image, (x + im.width / 2, header + caption / 2 - 4), label, 20, look.muted)
        image.paste(im, (x, header + caption))
        x += im.width + gap
    return image


def move_card(
    renderer: Renderer[S],
    played: tuple[str, S],
    best: tuple[str, S],
    *,
    perspective: int,
    verdict: str,
    players: Sequence[PlayerInfo] | None = None,
    theme: str = "dark",
    scale: float = 0.6,
) -> Image.Image:
    """The board after the move made (left) and after the best move (right): ``played`` and
    ``best`` are each a move's notation and the state after it, drawn by ``renderer`` from
    the mover's side (``perspective``)."""
    panels = [
        (
            f"{caption}: {notation}",
            render(after, renderer=renderer, players=players, perspective=perspective, theme=theme),
        )
        for caption, (notation, after) in (("Played", played), ("Best", best))
    ]
    return card(verdict, panels, theme=theme, scale=scale)
