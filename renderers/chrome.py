"""What every board image has around the board: player strips and the game-over banner."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PIL import Image

from renderers.canvas import Surface
from renderers.fonts import Colour, draw_text, text_width
from renderers.memo import cached
from renderers.sprites import paste_centred, rounded_box
from renderers.theme import Theme

if TYPE_CHECKING:
    from bot.engines.common import Outcome

NAME_SIZE = 26
INFO_SIZE = 21


def fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so it fits ``width`` pixels."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"


def player_strip(
    image: Surface,
    box: tuple[int, int, int, int],
    theme: Theme,
    icon: Image.Image,
    name: str,
    info: str,
    *,
    on_turn: bool,
    dimmed: bool = False,
    stacked: bool = False,
    backdrop: Colour | None = None,
) -> None:
    """One seat's strip: its piece, name and a short status; the seat on turn stands out.

    The turn is shown three ways so it reads at a glance and without colour: the strip is
    filled, a pointer sits before the piece, and the name is bold. ``stacked`` puts the
    status under the name, for narrow strips. ``backdrop`` is the colour under the strip
    (the page colour unless it sits on a board).
    """
    left, top, right, bottom = box
    height = bottom - top
    fill = theme.turn if on_turn else theme.panel
    ink = theme.turn_text if on_turn else (theme.muted if dimmed else theme.text)
    radius = min(height // 2, 22)
    # Flattened onto the page colour once, so each render pastes it opaque (a plain copy).
    under = theme.background if backdrop is None else backdrop
    image.paste(_flat_strip(right - left, height, radius, fill, under), (left, top))
    middle = top + height / 2
    x = left + radius
    if on_turn:
        draw_text(image, (x - 4, middle), "▶", INFO_SIZE - 2, ink, anchor="lm")
        x += 22
    paste_centred(image, icon, (x + icon.width / 2, middle))
    x += icon.width + 10
    end = right - radius
    if stacked:
        name_size, info_size = NAME_SIZE - 4, INFO_SIZE - 4
        name_y = middle - (info_size / 2 + 3 if info else 0)
        draw_text(
            image,
            (x, name_y),
            fit(name, name_size, end - x, True),
            name_size,
            ink,
            bold=True,
            anchor="lm",
        )
        if info:
            draw_text(
                image,
                (x, middle + name_size / 2 + 2),
                fit(info, info_size, end - x),
                info_size,
                ink,
                anchor="lm",
            )
        return
    info_w = text_width(info, INFO_SIZE) if info else 0
    room = end - x - info_w - 16
    draw_text(
        image, (x, middle), fit(name, NAME_SIZE, room, True), NAME_SIZE, ink, bold=True, anchor="lm"
    )
    if info:
        draw_text(image, (end, middle), info, INFO_SIZE, ink, anchor="rm")


@cached
def _flat_strip(
    width: int, height: int, radius: int, fill: Colour, background: Colour
) -> Image.Image:
    strip = rounded_box(width, height, radius, fill)
    flat = Image.new("RGB", (width, height), background)
    flat.paste(strip, (0, 0), strip)
    return flat


def banner(
    image: Surface,
    centre: tuple[float, float],
    theme: Theme,
    lines: Sequence[str],
    accent: Colour,
) -> None:
    """The game-over card across the board: the result in large type, details below."""
    title, *rest = lines
    title_size, line_size = 40, 24
    width = (
        max([text_width(title, title_size, True)] + [text_width(line, line_size) for line in rest])
        + 80
    )
    height = 40 + title_size + len(rest) * (line_size + 14) + 20
    card = rounded_box(width, height, 22, theme.banner, accent, 5)
    cx, cy = centre
    left, top = round(cx - width / 2), round(cy - height / 2)
    image.paste(card, (left, top), card)
    y = top + 26 + title_size / 2
    draw_text(image, (cx, y), title, title_size, theme.banner_text, bold=True)
    y += title_size / 2 + 14 + line_size / 2
    for line in rest:
        draw_text(image, (cx, y), line, line_size, theme.banner_text)
        y += line_size + 14


def result_lines(outcome: Outcome, names: Sequence[str], detail: str = "") -> list[str]:
    """Title and detail lines for the game-over banner."""
    from bot.engines.common import EndReason

    if outcome.winner is None:
        title = "Game abandoned" if outcome.reason == EndReason.ABANDON else "Game over"
        return [title, *([detail] if detail else [])]
    winner = names[outcome.winner]
    losers = [names[seat] for group in outcome.ranking[1:] for seat in group]
    lines = [f"{winner} wins"]
    reason = outcome.reason
    if reason == EndReason.RESIGN:
        lines.append(f"{losers[-1] if losers else 'the opponent'} resigned")
    elif reason == EndReason.DROP:
        lines.append(f"{losers[0] if losers else 'the opponent'} dropped the double")
    elif reason == EndReason.TIMEOUT:
        lines.append(f"{losers[0] if losers else 'the opponent'} ran out of time")
    elif reason == EndReason.ABANDON:
        lines.append("game abandoned")
    if detail:
        lines.append(detail)
    return lines
