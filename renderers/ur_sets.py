"""Boards of Ur's rule sets other than Finkel's (:mod:`bot.engines.ur_sets`), drawn from the
rule set: its cells, rosettes and each side's path. The board lies across the picture, the
seat seen from at the bottom; each square of the mover's path carries its number, pieces that
can move their button's label (their square, or "enter" by the waiting pieces), the last move
is outlined, and the dice's total, the waiting and the borne-off pieces sit in the strips
above and below. A rule set's renderer (``renderers/ur_<set>.py``) is a :class:`UrSetBoard`
whose ``draw``, ``palette`` and ``warm`` it exports."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engines.common import Phase
from bot.engines.ur_sets import LIGHT, SEATS, START, Cell, RuleSet, UrSetRules, UrSetState
from renderers.canvas import map_onto
from renderers.fonts import draw_text
from renderers.marks import Drawn, Labels, print_label
from renderers.view import View

SQUARE = 80
STRIP = 72
MARGIN = 16
PIECE = 58
Colour = tuple[int, int, int]
PAPER: dict[str, Colour] = {"dark": (34, 30, 28), "light": (236, 228, 212), "contrast": (0, 0, 0)}
INK: dict[str, Colour] = {
    "dark": (230, 224, 210),
    "light": (40, 34, 28),
    "contrast": (255, 255, 255),
}
TILE: Colour = (204, 178, 132)
TILE_EDGE: Colour = (120, 92, 60)
NUMBER: Colour = (128, 104, 70)
ROSETTE: Colour = (36, 80, 146)
ROSETTE_MARK: Colour = (242, 216, 140)
PIECES: tuple[Colour, Colour] = ((246, 240, 226), (44, 44, 50))
EDGES: tuple[Colour, Colour] = ((28, 28, 30), (216, 216, 220))
HIGHLIGHT: Colour = (250, 200, 40)
LABEL_PLATE: Colour = (20, 20, 20)
ACCENTS = PIECES  # a board message's accent: the seat on turn


class UrSetBoard:
    """The renderer of one rule set."""

    def __init__(self, engine: UrSetRules) -> None:
        self.engine = engine
        self.rules: RuleSet = engine.rules
        self.SEATS = SEATS
        self.columns = max(y for _, y in self.rules.cells)
        self.width = self.columns * SQUARE + 2 * MARGIN
        self.height = 3 * SQUARE + 2 * STRIP + 2 * MARGIN

    def _centre(self, cell: Cell, bottom: int) -> tuple[float, float]:
        x, y = cell
        row = 3 - x if bottom == LIGHT else x - 1
        return (
            MARGIN + (self.columns - y) * SQUARE + SQUARE / 2,
            MARGIN + STRIP + row * SQUARE + SQUARE / 2,
        )

    def _strip(self, seat: int, bottom: int) -> float:
        top = MARGIN + STRIP / 2
        return self.height - top if seat == bottom else top

    def draw(self, state: UrSetState, view: View, *, indexed: bool) -> Drawn:
        labels: Labels = []
        image = self._rgb(state, view, labels)
        if indexed:
            image = map_onto(image, self.palette(view.theme.name))
        return Drawn(image, labels)

    def _rgb(self, state: UrSetState, view: View, labels: Labels) -> Image.Image:
        rules = self.rules
        theme = view.theme.name
        bottom = LIGHT if view.perspective is None else view.perspective
        image = Image.new("RGB", (self.width, self.height), PAPER.get(theme, PAPER["dark"]))
        pen = ImageDraw.Draw(image)
        half = SQUARE / 2 - 2
        numbers = {cell: n for n, cell in enumerate(rules.paths[state.turn], start=1)}
        for cell in rules.cells:
            cx, cy = self._centre(cell, bottom)
            box = (cx - half, cy - half, cx + half, cy + half)
            rosette = cell in rules.rosettes
            pen.rectangle(box, fill=ROSETTE if rosette else TILE, outline=TILE_EDGE, width=2)
            if rosette:
                pen.regular_polygon((cx, cy, SQUARE / 3), 8, fill=ROSETTE_MARK)
            if cell in numbers:
                draw_text(image, (cx - half + 12, cy - half + 12), str(numbers[cell]), 16, NUMBER)
        last = state.last_move
        if last is not None:
            for square in (last.source, last.target):
                if START < square < rules.off:
                    cx, cy = self._centre(rules.cell(last.seat, square), bottom)
                    pen.rectangle(
                        (cx - half, cy - half, cx + half, cy + half), outline=HIGHLIGHT, width=4
                    )
        movable = {m.source for m in self.engine.legal_actions(state)}
        ink = INK.get(theme, INK["dark"])
        radius = PIECE / 2
        for seat in (0, 1):
            side = state.position.side(seat)
            for square in side:
                if START < square < rules.off:
                    cx, cy = self._centre(rules.cell(seat, square), bottom)
                    ring = HIGHLIGHT if seat == state.turn and view.highlight == square else None
                    pen.ellipse(
                        (cx - radius, cy - radius, cx + radius, cy + radius),
                        fill=PIECES[seat],
                        outline=ring or EDGES[seat],
                        width=4 if ring else 2,
                    )
                    if seat == state.turn and square in movable:
                        print_label(
                            image,
                            labels,
                            (cx, cy),
                            str(square),
                            30,
                            HIGHLIGHT,
                            LABEL_PLATE,
                            outline=LABEL_PLATE,
                        )
            y = self._strip(seat, bottom)
            waiting = side.count(START)
            for i in range(waiting):
                x = MARGIN + 24 + i * 30
                pen.ellipse(
                    (x - 13, y - 13, x + 13, y + 13), fill=PIECES[seat], outline=EDGES[seat]
                )
            if seat == state.turn and START in movable:
                print_label(
                    image,
                    labels,
                    (MARGIN + 24 + waiting * 30 + 40, y),
                    "enter",
                    26,
                    HIGHLIGHT,
                    LABEL_PLATE,
                    outline=LABEL_PLATE,
                )
            off = side.count(rules.off)
            draw_text(
                image,
                (self.width - MARGIN - 90, y),
                f"{view.names[seat]}: {off}/{rules.pieces}",
                20,
                ink,
                anchor="mm",
            )
        if state.phase is Phase.MOVE and state.outcome is None:
            dx, dy = self.width / 2, self._strip(state.turn, bottom)
            pen.rectangle(
                (dx - 26, dy - 26, dx + 26, dy + 26), fill=TILE, outline=HIGHLIGHT, width=3
            )
            draw_text(image, (dx, dy), str(state.roll_value), 32, LABEL_PLATE, bold=True)
        return image

    def palette(self, theme_name: str) -> Image.Image:
        colours = [
            PAPER.get(theme_name, PAPER["dark"]),
            INK.get(theme_name, INK["dark"]),
            TILE,
            TILE_EDGE,
            NUMBER,
            ROSETTE,
            ROSETTE_MARK,
            *PIECES,
            *EDGES,
            HIGHLIGHT,
            LABEL_PLATE,
        ]
        flat = [channel for colour in colours for channel in colour]
        image = Image.new("P", (1, 1))
        image.putpalette(flat + [0] * (768 - len(flat)))
        return image

    def warm(self, themes: tuple[str, ...]) -> None:
        """Nothing to build ahead: the board is a few shapes."""
