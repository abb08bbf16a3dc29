"""The backgammon board, oriented for one seat.

The seat at the bottom (``perspective``) has its home board bottom right and bears off into
the tray on the right; it moves counter-clockwise: top right (its 24 point) to top left,
bottom left, bottom right. Point numbers above and below the board count from the side of
the seat that must act, exactly as the move buttons name them; the points whose checkers may
move now are on plates, and their top checkers ringed. The cube sits left of the board:
centred, at its owner's end, or (ringed, at its new value) in the middle when it has just
been offered; that column is never crossed by an arrow, so the offer hides no move.

Sizes are set for phones: Discord shows the image about 400 px wide there, and the labels
the buttons carry (point numbers, "bar", "off") must still be 11 px tall at that width, so
they are set in a large face and the margins around the board are kept narrow.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw

from bot.engines import backgammon as bg
from bot.engines.backgammon import Phase
from bot.engines.backgammon_labels import BAR, OFF, movable_points, point_label
from renderers import chrome, palettes, sprites
from renderers.arrows import Point, curve, draw_arrow, shorten
from renderers.canvas import Canvas, Surface
from renderers.dice import d6
from renderers.diskcache import persisted
from renderers.fonts import Colour, draw_text
from renderers.marks import Drawn, Labels
from renderers.memo import cached
from renderers.sprites import SCALE, Stamp, paste_centred, paste_stamp, stamp_labels
from renderers.theme import THEMES, Theme, get_theme, mix
from renderers.view import View

SEATS = bg.SEATS  # the players not named are called by these

# Geometry: everything follows from these.
MARGIN = 6
STRIP_H = 52
NUMBER_H = 44  # the row of point numbers above and below the board
CUBE_W = 58  # the cube's column left of the board
FRAME = 12
POINT_W = 54
BAR_W = 52
TRAY_W = 60
# Button labels: 34 px DejaVu Sans Bold digits are 25 px tall, 11.5 px at 400 px wide.
LABEL = 34
SQUEEZE = 0.8  # narrowed so two digits sit well apart inside a point's width
PITCH = 50  # checker spacing along a point
SHOWN = 5  # checkers drawn per point; more are counted on the last one
MIDDLE_H = 72  # the gap between the top and bottom points, where the dice lie
CHECKER = POINT_W - 4
HALF_W = 6 * POINT_W
POINT_LEN = SHOWN * PITCH

WIDTH = MARGIN + CUBE_W + FRAME + HALF_W + BAR_W + HALF_W + FRAME + TRAY_W + FRAME + MARGIN
BOARD_LEFT = MARGIN + CUBE_W  # outer edge of the frame
INNER_LEFT = BOARD_LEFT + FRAME
BAR_LEFT = INNER_LEFT + HALF_W
RIGHT_LEFT = BAR_LEFT + BAR_W
INNER_RIGHT = RIGHT_LEFT + HALF_W
TRAY_LEFT = INNER_RIGHT + FRAME
BOARD_RIGHT = TRAY_LEFT + TRAY_W + FRAME
TOP_STRIP_Y = MARGIN
TOP_NUMBERS_Y = TOP_STRIP_Y + STRIP_H + 2
BOARD_TOP = TOP_NUMBERS_Y + NUMBER_H
INNER_TOP = BOARD_TOP + FRAME
MIDDLE_Y = INNER_TOP + POINT_LEN + MIDDLE_H / 2
INNER_BOTTOM = INNER_TOP + 2 * POINT_LEN + MIDDLE_H
BOARD_BOTTOM = INNER_BOTTOM + FRAME
BOTTOM_NUMBERS_Y = BOARD_BOTTOM
BOTTOM_STRIP_Y = BOTTOM_NUMBERS_Y + NUMBER_H + 2
HEIGHT = BOTTOM_STRIP_Y + STRIP_H + MARGIN

FELT = (38, 92, 72)
POINT_DARK = (178, 66, 52)
POINT_LIGHT = (226, 204, 158)
WHITE_CHECKER = (244, 240, 230)
WHITE_EDGE = (28, 28, 30)
BLACK_CHECKER = (42, 42, 48)
BLACK_EDGE = (214, 214, 220)
ACCENTS = (WHITE_CHECKER, BLACK_CHECKER)  # a board message's accent: the seat on turn
CUBE_FACE = (250, 250, 246)
CUBE_INK = (24, 24, 24)
SLAB_H = 15  # a borne-off checker seen from the side
ARROW_W = 5
ARROW_HEAD = 17
ARROW_REACH = ARROW_HEAD * 0.55 + 8  # from an arrow's path to the farthest pixel it inks
TRAY = (28, 69, 54)


# ---------------------------------------------------------------------------------------------
# Geometry. ``p`` below is a point 1-24 counted from the seat at the bottom.

# Whether the bottom seat's home board is drawn on the left (/prefs): the points are mirrored
# (the cube column and the tray stay where they are). A setting of the whole drawing, like
# the constants above, so the geometry reads it rather than every helper passing it on; set
# by ``home_side`` around a drawing, in the thread that draws.
_HOME_LEFT: ContextVar[bool] = ContextVar("home_left", default=False)


@contextlib.contextmanager
def home_side(left: bool) -> Iterator[None]:
    token = _HOME_LEFT.set(left)
    try:
        yield
    finally:
        _HOME_LEFT.reset(token)


def point_column(p: int) -> tuple[int, bool]:
    """(column 0-11 from the left, on the top half?) of the bottom seat's point ``p``."""
    if not 1 <= p <= 24:
        raise ValueError(f"Point {p} is not 1-24.")
    column, top = (12 - p, False) if p <= 12 else (p - 13, True)
    # The bar sits in the middle of the twelve columns, so a mirror keeps it there.
    return (11 - column if _HOME_LEFT.get() else column), top


def column_x(column: int) -> float:
    left = INNER_LEFT if column < 6 else RIGHT_LEFT
    return left + (column % 6 + 0.5) * POINT_W


def checker_centre(p: int, slot: int) -> Point:
    """Centre of the ``slot``-th checker (0 at the edge) on the bottom seat's point ``p``."""
    column, top = point_column(p)
    slot = min(slot, SHOWN - 1)
    x = column_x(column)
    if top:
        return x, INNER_TOP + (slot + 0.5) * PITCH
    return x, INNER_BOTTOM - (slot + 0.5) * PITCH


def bar_centre(bottom: bool, slot: int) -> Point:
    """Checkers on the bar sit in their owner's half, from the middle outwards."""
    slot = min(slot, SHOWN - 2)
    offset = MIDDLE_H / 2 + (slot + 0.5) * PITCH
    return BAR_LEFT + BAR_W / 2, MIDDLE_Y + offset if bottom else MIDDLE_Y - offset


def off_centre(bottom: bool, slot: int) -> Point:
    """The ``slot``-th borne-off checker's slab in the tray, stacked from the outer end."""
    x = TRAY_LEFT + TRAY_W / 2
    if bottom:
        return x, INNER_BOTTOM - (slot + 0.5) * SLAB_H - 4
    return x, INNER_TOP + (slot + 0.5) * SLAB_H + 4


def to_bottom(point: int, seat: int, bottom_seat: int) -> int:
    """``seat``'s point 1-24 in the bottom seat's numbering (bar and off stay as they are)."""
    if point in (BAR, OFF) or seat == bottom_seat:
        return point
    return 25 - point


def piece_centre(seat: int, point: int, slot: int, bottom_seat: int) -> Point:
    """Centre of ``seat``'s ``slot``-th checker on ``point`` in its own numbering (25 bar,
    0 off) with ``bottom_seat`` drawn at the bottom."""
    bottom = seat == bottom_seat
    if point == BAR:
        return bar_centre(bottom, slot)
    if point == OFF:
        return off_centre(bottom, slot)
    return checker_centre(to_bottom(point, seat, bottom_seat), slot)


def number_centre(p: int) -> Point:
    """Where the number of the bottom seat's point ``p`` is printed, outside the frame."""
    column, top = point_column(p)
    y = TOP_NUMBERS_Y + NUMBER_H / 2 if top else BOTTOM_NUMBERS_Y + NUMBER_H / 2
    return column_x(column), y


def off_label_centre(bottom: bool) -> Point:
    """Where "off" is printed: beside the tray, at the end its seat bears off into."""
    y = BOTTOM_NUMBERS_Y + NUMBER_H / 2 if bottom else TOP_NUMBERS_Y + NUMBER_H / 2
    return TRAY_LEFT + TRAY_W / 2, y


def bottom_seat_of(state: bg.BackgammonState, view: View) -> int:
    return 0 if view.perspective is None else view.perspective


def mover_of(state: bg.BackgammonState) -> int:
    """The seat whose numbering the labels use: the one that must act (the doubler's
    opponent while a double is open, which is ``turn``)."""
    return state.turn


# ---------------------------------------------------------------------------------------------
# Boards as counts


@dataclass(frozen=True, slots=True)
class Counts:
    """Checkers of the bottom and top seats, each board in its owner's numbering (gnubg
    layout: index ``p - 1`` for point ``p``, 24 for the bar)."""

    bottom: tuple[int, ...]
    top: tuple[int, ...]


def counts_for(position: bg.Position, position_seat: int, bottom_seat: int) -> Counts:
    """``position`` is seen by ``position_seat`` (its ``mine``)."""
    if position_seat == bottom_seat:
        return Counts(position.mine, position.theirs)
    return Counts(position.theirs, position.mine)


def apply_steps(
    position: bg.Position, steps: Sequence[tuple[int, int]], checkers: int = bg.CHECKERS
) -> tuple[bg.Position, list[tuple[int, int, int, int, bool]]]:
    """Play single ``steps`` (mover's numbering) on ``position`` (``checkers`` a side); a blot
    on the target is hit.

    Returns the new position and, per step, ``(from, from_slot, to, to_slot, hit)`` with the
    stack slots the checker left and reached, for drawing trails.
    """
    mine = list(position.mine)
    theirs = list(position.theirs)
    trail = []
    for source, target in steps:
        index = source - 1
        if not mine[index]:
            raise ValueError(f"No checker on {source} to move.")
        mine[index] -= 1
        from_slot = mine[index]
        hit = False
        if target != OFF:
            theirs_index = 24 - target
            if theirs[theirs_index] == 1:
                theirs[theirs_index] = 0
                theirs[24] += 1
                hit = True
            to_slot = mine[target - 1]
            mine[target - 1] += 1
        else:
            to_slot = checkers - sum(mine) - 1
        trail.append((source, from_slot, target, to_slot, hit))
    return bg.Position(tuple(mine), tuple(theirs)), trail


def undo_steps(
    position: bg.Position, steps: Sequence[tuple[int, int]], hits: Sequence[bool]
) -> bg.Position:
    """The position before ``steps`` were played (mover's view), hits put back."""
    mine = list(position.mine)
    theirs = list(position.theirs)
    for (source, target), hit in zip(reversed(steps), reversed(hits), strict=True):
        if target != OFF:
            mine[target - 1] -= 1
            if hit:
                theirs[24] -= 1
                theirs[24 - target] += 1
        mine[source - 1] += 1
    return bg.Position(tuple(mine), tuple(theirs))


def dice_left(dice: tuple[int, ...], steps: Sequence[tuple[int, int]]) -> list[bool]:
    """Which of the dice (four for doubles) the ``steps`` have used, in dice order."""
    pool = list(dice) * 2 if len(dice) == 2 and dice[0] == dice[1] else list(dice)
    used = [False] * len(pool)
    for source, target in steps:
        need = source - target
        choice = next((i for i, d in enumerate(pool) if not used[i] and d == need), None)
        if choice is None:  # bearing off with a larger die: the smallest that does it
            options = [i for i, d in enumerate(pool) if not used[i] and d >= need]
            choice = min(options, key=lambda i: pool[i]) if options else None
        if choice is not None:
            used[choice] = True
    return used


# ---------------------------------------------------------------------------------------------
# Sprites and the static board


def checker(seat: int, diameter: int = CHECKER, *, marked: bool = True) -> Image.Image:
    """White: light with a dark edge and a dark dot. Black: dark with a light edge and ring.

    ``marked=False`` leaves the face plain, for the checker that carries a stack's count.
    """
    if seat == 0:
        dot = WHITE_EDGE if marked else None
        return sprites.piece(diameter, WHITE_CHECKER, WHITE_EDGE, dot=dot, edge_width=2.5)
    ring_colour = BLACK_EDGE if marked else None
    return sprites.piece(diameter, BLACK_CHECKER, BLACK_EDGE, ring=ring_colour, edge_width=2.5)


def slab(seat: int) -> Image.Image:
    fill, edge = (WHITE_CHECKER, WHITE_EDGE) if seat == 0 else (BLACK_CHECKER, BLACK_EDGE)
    return sprites.rounded_box(TRAY_W - 16, SLAB_H - 2, 4, fill, edge, 2)


@cached
def _cube(value: int, size: int) -> Image.Image:
    sprite = sprites.rounded_box(size, size, size // 6, CUBE_FACE, CUBE_INK, 3).copy()
    text = str(value)
    draw_text(
        sprite,
        (size / 2, size / 2),
        text,
        size // 2 if len(text) < 2 else size * 2 // 5,
        CUBE_INK,
        bold=True,
    )
    return sprite


@cached
@persisted(__name__)
def static_board(theme_name: str) -> Image.Image:
    """Frame, felt, points and tray: the same for both orientations, since the points
    alternate colours symmetrically and the numbers are drawn per render."""
    theme = get_theme(theme_name)
    image = Image.new("RGB", (WIDTH, HEIGHT), theme.background)
    frame = sprites.rounded_box(
        BOARD_RIGHT - BOARD_LEFT, BOARD_BOTTOM - BOARD_TOP, 12, theme.frame, theme.frame_edge, 3
    )
    image.paste(frame, (BOARD_LEFT, BOARD_TOP), frame)
    draw = ImageDraw.Draw(image)
    for left in (INNER_LEFT, RIGHT_LEFT):
        draw.rectangle((left, INNER_TOP, left + HALF_W - 1, INNER_BOTTOM - 1), fill=FELT)
    draw.rectangle((TRAY_LEFT, INNER_TOP, TRAY_LEFT + TRAY_W - 1, INNER_BOTTOM - 1), fill=TRAY)
    draw.rectangle(
        (TRAY_LEFT, MIDDLE_Y - 3, TRAY_LEFT + TRAY_W - 1, MIDDLE_Y + 2), fill=theme.frame
    )
    for p in range(1, 25):
        column, top = point_column(p)
        colour = POINT_DARK if (column + top) % 2 == 0 else POINT_LIGHT
        left = round(column_x(column) - POINT_W / 2) - 1
        sprite = _point(colour, top)
        image.paste(sprite, (left, INNER_TOP - 1 if top else INNER_BOTTOM - POINT_LEN - 1), sprite)
    return image


@cached
def _point(colour: Colour, top: bool) -> Image.Image:
    """A point (its base on the frame) drawn at SCALE and reduced, like the sprites, with a
    pixel of room all round, to paste at whole pixels: four sprites make the 24 points, for a
    twentieth of the work of drawing the whole board at SCALE (which gave the same edges, a
    level lighter or darker here and there), and every point of one look is the same pixels
    (see ``stack_tile``)."""
    width, height = POINT_W + 2, POINT_LEN + 2
    layer = Image.new("RGBA", (width * SCALE, height * SCALE), (0, 0, 0, 0))
    x0 = 2 * SCALE  # the column starts a pixel in, the point a pixel further
    x1 = x0 + (POINT_W - 2) * SCALE
    if top:
        base, tip = 1 * SCALE, (1 + POINT_LEN - 6) * SCALE
    else:
        base, tip = (height - 1) * SCALE, (height - 1 - POINT_LEN + 6) * SCALE
    ImageDraw.Draw(layer).polygon([(x0, base), (x1, base), ((x0 + x1) / 2, tip)], fill=colour)
    return layer.resize((width, height), Image.Resampling.BOX)


@cached
def _number_plates(
    theme_name: str, mover_at_bottom: bool, home_left: bool = False
) -> tuple[tuple[int, Stamp, Point], ...]:
    """The plain plate of every point number (with the bottom seat's point 1-24) and of
    "off" (with 0), and its centre, numbered from the side of the seat that must act."""
    theme = get_theme(theme_name)
    plates = []
    with home_side(home_left):
        for p in range(1, 25):
            label = point_label(p if mover_at_bottom else 25 - p)
            stamp = sprites.plate(
                label, LABEL, theme.panel, theme.muted, None, POINT_W - 4, SQUEEZE
            )
            plates.append((p, stamp, number_centre(p)))
    off = sprites.plate(point_label(OFF), LABEL, theme.panel, theme.muted, None, 0, SQUEEZE)
    plates.append((OFF, off, off_label_centre(mover_at_bottom)))
    return tuple(plates)


@cached
def numbered_board(theme_name: str, mover_at_bottom: bool, home_left: bool = False) -> Image.Image:
    """The static board with each point's number (and "off") on its plate, every plate
    plain; a render lights the movable ones. (The static board itself is the same both
    ways round: every column of one colour is the same pixels.)"""
    image = static_board(theme_name).copy()
    for _, stamp, centre in _number_plates(theme_name, mover_at_bottom, home_left):
        paste_centred(image, stamp.sprite, centre)
    return image


# ---------------------------------------------------------------------------------------------
# Rendering


def _status(state: bg.BackgammonState, seat: int, pips: int) -> str:
    parts = [f"{pips} pips"]
    if state.match_length > 1:
        parts.append(f"{state.score[seat]} of {state.match_length} points")
    if state.phase is Phase.FINISHED:
        return " · ".join(parts)
    if state.phase is Phase.CUBE:
        offer = f"doubles to {state.cube_value * 2}"
        parts.insert(0, "take or drop?" if seat == state.turn else offer)
    elif state.phase is Phase.OPENING:
        if seat == 0:
            parts.insert(0, "opening roll")
    elif state.phase is Phase.ROLL and seat == state.turn:
        parts.insert(0, "to roll")
    elif state.phase is Phase.ROLL and state.passed and seat != state.turn:
        parts.insert(0, "no move")
    return " · ".join(parts)


def stack_box(p: int) -> tuple[int, int, int, int]:
    """The part of the board that checkers on the bottom seat's point ``p`` can cover: its
    column, the point's length, a little more for the last checker's edge, and two rows of
    the frame (the first checker's edge reaches it). Its corner is at even coordinates: text
    placed at a half pixel rounds the same way in a stack as on the board."""
    column, top = point_column(p)
    left = round(column_x(column) - POINT_W / 2)
    if top:
        return left, INNER_TOP - 2, left + POINT_W, INNER_TOP + POINT_LEN + 4
    return left, INNER_BOTTOM - POINT_LEN - 4, left + POINT_W, INNER_BOTTOM + 2


def draw_stack(image: Surface, seat: int, p: int, count: int) -> None:
    """``count`` checkers of ``seat`` on the bottom seat's point ``p``: up to SHOWN, and the
    last one counts them when there are more."""
    for slot in range(min(count, SHOWN)):
        paste_centred(image, checker(seat), checker_centre(p, slot))
    if count > SHOWN:
        centre = checker_centre(p, SHOWN - 1)
        paste_centred(image, checker(seat, marked=False), centre)
        ink = WHITE_EDGE if seat == 0 else BLACK_EDGE
        draw_text(image, centre, str(count), 24, ink, bold=True)


@cached
def stack_tile(
    theme_name: str, dark: bool, top: bool, seat: int, count: int
) -> tuple[Image.Image, int]:
    """A point's part of the static board (see ``stack_box``) with its checkers on it,
    composited once: a render pastes it whole, an opaque copy instead of a blend per checker.
    Every point of one colour on one side lies on the same pixels of the static board (the
    points are one sprite each, the felt is flat), so one stack serves all of them; the
    renderer tests check that boards are the bytes that pasting each checker gives.

    Cut to the rows the checkers cover (returned with the row of the box where they start):
    the rest of the point is the static board's already, and a paste on a palette canvas
    costs by its area (blending, mapping and copying it), so a short stack costs less."""
    p = next(q for q in range(1, 25) if point_looks(q) == (dark, top))
    box = stack_box(p)
    tile = static_board(theme_name).crop(box)
    local = Image.new("RGB", (WIDTH, HEIGHT))  # stands in for the board around the stack
    local.paste(tile, box[:2])
    draw_stack(local, seat, p, count)
    drawn = local.crop(box)
    changed = ImageChops.difference(drawn, tile).getbbox()
    if changed is None:  # no checker: nothing to paste but the board itself
        return drawn, 0
    return drawn.crop((0, changed[1], drawn.width, changed[3])), changed[1]


def point_looks(p: int) -> tuple[bool, bool]:
    """(dark, on the top half) of the bottom seat's point ``p``."""
    column, top = point_column(p)
    return (column + top) % 2 == 0, top


def _draw_checkers(
    image: Surface, theme: Theme, counts: Counts, bottom_seat: int, checkers: int
) -> None:
    for seat, board in ((bottom_seat, counts.bottom), (1 - bottom_seat, counts.top)):
        sprite = checker(seat)
        for point in range(1, 25):
            count = board[point - 1]
            if count:
                p = to_bottom(point, seat, bottom_seat)
                dark, top = point_looks(p)
                tile, first_row = stack_tile(theme.name, dark, top, seat, count)
                left, row = stack_box(p)[:2]
                image.paste(tile, (left, row + first_row))
        on_bar = board[BAR - 1]
        for slot in range(min(on_bar, SHOWN - 1)):
            paste_centred(image, sprite, piece_centre(seat, BAR, slot, bottom_seat))
        if on_bar >= SHOWN:
            centre = piece_centre(seat, BAR, SHOWN - 2, bottom_seat)
            paste_centred(image, checker(seat, marked=False), centre)
            draw_text(
                image, centre, str(on_bar), 24, WHITE_EDGE if seat == 0 else BLACK_EDGE, bold=True
            )
        off = checkers - sum(board)
        bottom = seat == bottom_seat
        piece_slab = slab(seat)
        for slot in range(off):
            paste_centred(image, piece_slab, off_centre(bottom, slot))
        if off:
            x, y = off_centre(bottom, off - 1)
            y += -SLAB_H - 8 if bottom else SLAB_H + 8
            draw_text(image, (x, y), str(off), 18, (240, 240, 240), bold=True)


def _draw_cube(
    image: Surface,
    theme: Theme,
    state: bg.BackgammonState,
    bottom_seat: int,
    arrows: Sequence[Sequence[Point]],
) -> None:
    if not state.cube_enabled:
        return
    x = MARGIN + CUBE_W / 2
    size = 50
    if state.phase is Phase.CUBE:
        # Offered: the cube at its new value, ringed like everything that awaits an answer,
        # in its column (no arrow crosses it); the question goes on the board where no
        # arrow runs, or nowhere (the strips ask it too).
        value = state.cube_value * 2
        paste_centred(image, sprites.rounded_box(CUBE_W, CUBE_W, 14, theme.movable), (x, MIDDLE_Y))
        paste_centred(image, _cube(value, size), (x, MIDDLE_Y))
        tag = sprites.badge(
            f"double to {value}?", 19, theme.movable, theme.movable_text, theme.movable_text
        )
        spot = _clear_spot(tag.size, arrows, _half_centre(state.on_roll == bottom_seat))
        if spot is not None:
            paste_centred(image, tag, spot)
        return
    if state.cube_owner is None:
        y = MIDDLE_Y
    elif state.cube_owner == bottom_seat:
        y = INNER_BOTTOM - size / 2
    else:
        y = INNER_TOP + size / 2
    paste_centred(image, _cube(state.cube_value, size), (x, y))
    caption = "Crawford" if state.crawford else "cube"
    draw_text(
        image,
        (x, y + size / 2 + 14 if y < INNER_BOTTOM - size else y - size / 2 - 14),
        caption,
        12 if state.crawford else 14,
        theme.muted,
    )


def _clear_spot(
    size: tuple[int, int], arrows: Sequence[Sequence[Point]], first_x: float
) -> Point | None:
    """A centre on the middle line, within one half of the board, where a box of ``size``
    stays clear of every arrow; the nearest to ``first_x``, or None."""
    width, height = size
    spots = []
    for left in (INNER_LEFT, RIGHT_LEFT):
        x = left + width / 2 + 8
        while x <= left + HALF_W - width / 2 - 8:
            spots.append(x)
            x += 6
    for x in sorted(spots, key=lambda x: abs(x - first_x)):
        box = (x - width / 2, MIDDLE_Y - height / 2, x + width / 2, MIDDLE_Y + height / 2)
        if not any(_near_path(box, path, ARROW_REACH) for path in arrows):
            return x, MIDDLE_Y
    return None


def _near_path(box: tuple[float, float, float, float], path: Sequence[Point], pad: float) -> bool:
    """Whether any point of ``path`` (sampled every 2 px) comes within ``pad`` of ``box``."""
    left, top, right, bottom = box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad
    for (x0, y0), (x1, y1) in itertools.pairwise(path):
        steps = max(1, int(max(abs(x1 - x0), abs(y1 - y0)) / 2))
        for i in range(steps + 1):
            x = x0 + (x1 - x0) * i / steps
            y = y0 + (y1 - y0) * i / steps
            if left <= x <= right and top <= y <= bottom:
                return True
    return False


def _half_centre(bottom_seat_side: bool) -> float:
    """The dice of the bottom seat lie in the half of its home board, the top seat's in the
    other."""
    left = RIGHT_LEFT if bottom_seat_side != _HOME_LEFT.get() else INNER_LEFT
    return left + HALF_W / 2


def _draw_dice(
    image: Surface, dice: Sequence[int], used: Sequence[bool], seat: int, centre_x: float
) -> None:
    face, pip = (WHITE_CHECKER, WHITE_EDGE) if seat == 0 else (BLACK_CHECKER, BLACK_EDGE)
    size = 50
    gap = 10
    total = len(dice) * size + (len(dice) - 1) * gap
    x = centre_x - total / 2 + size / 2
    for die, spent in zip(dice, used, strict=True):
        if spent:
            sprite = d6(
                die, size, mix(face, FELT, 0.55), mix(pip, FELT, 0.55), mix(pip, FELT, 0.55)
            )
        else:
            sprite = d6(die, size, face, pip, pip)
        paste_centred(image, sprite, (x, MIDDLE_Y))
        x += size + gap


def _step_points(
    seat: int, trail: Sequence[tuple[int, int, int, int, bool]], bottom_seat: int
) -> list[tuple[Point, Point]]:
    return [
        (
            piece_centre(seat, source, from_slot, bottom_seat),
            piece_centre(seat, target, to_slot, bottom_seat),
        )
        for source, from_slot, target, to_slot, _ in trail
    ]


def _draw_trail(
    image: Surface,
    theme: Theme,
    seat: int,
    trail: Sequence[tuple[int, int, int, int, bool]],
    bottom_seat: int,
    colour: Colour,
) -> list[list[Point]]:
    """Ghosts where the checkers stood and an arrow per step; returns the arrows' paths."""
    segments = _step_points(seat, trail, bottom_seat)
    for start, _ in segments:
        paste_centred(image, sprites.ghost(CHECKER, colour, 3.0), start)
    drawn = []
    for (start, end), step in zip(segments, trail, strict=True):
        # Bow each arrow toward the middle of the board, away from the checker stacks (and,
        # for a step straight up or down, toward the bar, so no arrow leaves the board).
        bows = (curve(start, end, 0.15), curve(start, end, -0.15))
        path = shorten(
            min(
                bows,
                key=lambda p: (
                    round(abs(p[len(p) // 2][1] - MIDDLE_Y)),
                    abs(p[len(p) // 2][0] - (BAR_LEFT + BAR_W / 2)),
                ),
            ),
            CHECKER * 0.4,
        )
        draw_arrow(image, path, colour, theme.arrow_edge, width=ARROW_W, head=ARROW_HEAD)
        drawn.append(path)
        if step[4]:
            paste_centred(
                image,
                sprites.badge("hit", 14, theme.preview, (255, 255, 255)),
                (end[0], end[1] + (CHECKER / 2 if end[1] > MIDDLE_Y else -CHECKER / 2)),
            )
    return drawn


def draw(state: bg.BackgammonState, view: View, *, indexed: bool) -> Drawn:
    """The board, on its palette if ``indexed``, and where each button label is printed on it."""
    with home_side(view.home_left):
        return _draw_sided(state, view, indexed=indexed)


def _draw_sided(state: bg.BackgammonState, view: View, *, indexed: bool) -> Drawn:
    labels: Labels = []
    theme = view.theme
    bottom_seat = bottom_seat_of(state, view)
    mover = mover_of(state)
    image = Canvas(
        numbered_board(theme.name, mover == bottom_seat, view.home_left),
        palette(theme.name) if indexed else None,
    )
    finished = state.phase is Phase.FINISHED
    moving = state.phase is Phase.MOVE

    position = state.position  # seen by ``turn``
    trail: list[tuple[int, int, int, int, bool]] = []
    preview = view.preview_steps if moving else ()
    if preview:
        try:
            position, trail = apply_steps(position, preview, state.checkers)
        except (ValueError, IndexError):
            preview = ()  # a stale draft: show the position as it stands
    counts = counts_for(position, state.turn, bottom_seat)

    # Strips.
    pips = {
        bottom_seat: sum(c * (i + 1) for i, c in enumerate(counts.bottom)),
        1 - bottom_seat: sum(c * (i + 1) for i, c in enumerate(counts.top)),
    }
    for seat, y in ((1 - bottom_seat, TOP_STRIP_Y), (bottom_seat, BOTTOM_STRIP_Y)):
        on_turn = not finished and state.phase is not Phase.OPENING and seat == state.turn
        chrome.player_strip(
            image,
            (MARGIN, y, WIDTH - MARGIN, y + STRIP_H),
            theme,
            checker(seat, 34),
            view.names[seat],
            _status(state, seat, pips[seat]),
            on_turn=on_turn,
        )

    # Point numbers from the mover's side; the points that may move now are on plates.
    movable: list[int] = []
    if moving:
        movable = movable_points(state, preview)
    movable_bottom = {to_bottom(p, mover, bottom_seat) for p in movable if p != BAR}
    # The plain plates are on the cached board already; movable points get theirs on top.
    for p, stamp, centre in _number_plates(theme.name, mover == bottom_seat, view.home_left):
        if p not in movable_bottom:
            labels.extend(stamp_labels(stamp, centre))
            continue
        selected = view.highlight == to_bottom(p, bottom_seat, mover)
        edge = theme.text if selected else None
        label = stamp.labels[0].text
        lit = sprites.plate(
            label, LABEL, theme.movable, theme.movable_text, edge, POINT_W - 4, SQUEEZE
        )
        paste_stamp(image, lit, centre, labels)

    arrows: list[list[Point]] = []
    if not trail and state.last_play is not None and state.phase is not Phase.OPENING:
        last = state.last_play
        after = bg.state_board(state, last.seat)
        before = undo_steps(after, last.steps, last.hits)
        _, last_trail = apply_steps(before, last.steps, state.checkers)
        # Ghosts first so the checkers and arrows sit over them.
        _draw_checkers(image, theme, counts, bottom_seat, state.checkers)
        arrows = _draw_trail(image, theme, last.seat, last_trail, bottom_seat, theme.arrow)
    else:
        _draw_checkers(image, theme, counts, bottom_seat, state.checkers)
    if trail:
        arrows = _draw_trail(image, theme, state.turn, trail, bottom_seat, theme.preview)

    # Rings on the top checker of every movable point; for the selected point, its targets.
    if moving:
        board = position.mine
        for point in movable:
            slot = board[point - 1] - 1
            slot = min(slot, SHOWN - 2 if point == BAR else SHOWN - 1)
            centre = piece_centre(mover, point, slot, bottom_seat)
            paste_centred(
                image, sprites.ring(CHECKER + 10, theme.movable, 4, theme.movable_text), centre
            )
            if point == BAR:
                # The label goes in the middle of the bar, clear of the checkers.
                selected = view.highlight == BAR
                stamp = sprites.plate(
                    point_label(BAR),
                    LABEL,
                    theme.movable,
                    theme.movable_text,
                    theme.text if selected else theme.movable_text,
                    0,
                    SQUEEZE,
                )
                paste_stamp(image, stamp, (centre[0], MIDDLE_Y), labels)
        if isinstance(view.highlight, int) and view.highlight in movable:
            steps = bg.legal_steps(state.position, (state.dice[0], state.dice[1]), preview)
            for source, target in steps:
                if source != view.highlight:
                    continue
                slot = (
                    position.mine[target - 1]
                    if target != OFF
                    else state.checkers - sum(position.mine)
                )
                paste_centred(
                    image,
                    sprites.ghost(CHECKER - 6, theme.movable, 3.5),
                    piece_centre(mover, target, slot, bottom_seat),
                )

    # Dice, or the cube offer, in the middle of the board.
    if moving:
        dice = state.dice
        shown = list(dice) * 2 if dice[0] == dice[1] else list(dice)
        used = dice_left(dice, preview)
        _draw_dice(image, shown, used, mover, _half_centre(mover == bottom_seat))
    elif state.phase is Phase.OPENING and state.last_roll:
        white, black = state.last_roll
        for seat, die in ((0, white), (1, black)):
            _draw_dice(image, [die], [False], seat, _half_centre(seat == bottom_seat))
        draw_text(image, (BAR_LEFT + BAR_W / 2, MIDDLE_Y), "tie", 18, (240, 240, 240), bold=True)
    elif state.phase is Phase.ROLL and state.passed and state.last_roll:
        passer = 1 - state.turn
        _draw_dice(
            image, list(state.last_roll), [True, True], passer, _half_centre(passer == bottom_seat)
        )
    _draw_cube(image, theme, state, bottom_seat, arrows)

    if finished and state.outcome is not None:
        outcome = state.outcome
        accent = (
            theme.movable if outcome.winner is None else (WHITE_CHECKER, BLACK_EDGE)[outcome.winner]
        )
        chrome.banner(
            image, (BAR_LEFT + BAR_W / 2, MIDDLE_Y), theme, result_banner(state, view.names), accent
        )
    return Drawn(image.image, labels)


def result_banner(state: bg.BackgammonState, names: Sequence[str]) -> list[str]:
    """The game-over banner's lines. A match that is over names its winner with the final
    score (the one the board's text and headline give, winner's first) rather than the last
    game's points; one game of a match that goes on names the game and the score after it,
    never the match (``bg.match_over``, the rule the words follow too); its score is the
    winner's first too."""
    outcome = state.outcome
    assert outcome is not None
    in_match = state.match_length > 1 and outcome.winner is not None
    over = bg.match_over(state)
    detail = ""
    resigned_match = over and outcome.reason in bg.GAVE_UP  # its last game is moot
    if outcome.winner is not None and outcome.points and not resigned_match:
        plural = "s" if outcome.points != 1 else ""
        detail = f"{outcome.kind} · {outcome.points} point{plural}"
        if over:
            detail = f"last game: {detail}"
    lines = chrome.result_lines(outcome, names, detail)
    if in_match and outcome.winner is not None:
        won, lost = state.score[outcome.winner], state.score[1 - outcome.winner]
        if over:
            lines[0] = f"{names[outcome.winner]} wins the match {won}–{lost}"
        else:
            lines[0] = f"{names[outcome.winner]} wins game {state.game_number}"
            # The winner's score first, as every score a banner gives: under "Ben wins game
            # 1", "match 0–1" read as Ben's 0.
            lines.append(f"match {won}–{lost} (to {state.match_length})")
    return lines


# ---------------------------------------------------------------------------------------------
# Palette


def sample_states(seed: int = 5, count: int = 6) -> list[bg.BackgammonState]:
    """States from a seeded random money game with the cube: hits, the bar, bear-off, end."""
    first = bg.new_game({"match_length": 3})
    return palettes.sample_game(first, _random_action, seed=seed, count=count, limit=2000)


def _random_action(state: bg.BackgammonState, rng: random.Random) -> bg.BackgammonState:
    """``state`` after a roll (a double now and then), a take (mostly) or drop, or a move."""
    if state.phase in (Phase.OPENING, Phase.ROLL):
        actions = bg.legal_actions(state)
        if actions and rng.random() < 0.05:
            return bg.apply(state, actions[0])
        return bg.apply(state, bg.roll(state, rng))
    if state.phase is Phase.CUBE:
        return bg.apply(state, bg.Take() if rng.random() < 0.7 else bg.Drop())
    plays = bg.legal_actions(state)
    return bg.apply(state, plays[rng.randrange(len(plays))])


@cached
@persisted(__name__)
def palette(theme_name: str) -> Image.Image:
    theme = get_theme(theme_name)
    pinned = [
        theme.frame,
        theme.frame_edge,
        FELT,
        POINT_DARK,
        POINT_LIGHT,
        WHITE_CHECKER,
        WHITE_EDGE,
        BLACK_CHECKER,
        BLACK_EDGE,
        CUBE_FACE,
        TRAY,
    ]
    board = static_board(theme_name)
    return palettes.fit_palette(theme_name, SEATS, draw, board, sample_states(), pinned)


def warm(themes: tuple[str, ...] = THEMES) -> None:
    for name in themes:
        palette(name)
        for mover_at_bottom in (True, False):
            numbered_board(name, mover_at_bottom)
