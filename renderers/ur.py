"""The Royal Game of Ur board.

Layout, left to right: the 4x3 block, the two-square bridge, the 2x3 block. The seat at the
bottom walks its bottom lane leftwards from the bridge (path squares 1-4, rosette on 4 in the
corner), the middle lane rightwards (5-12, the shared rosette on 8), then its lane leftwards
again (13 in the far corner, 14 the rosette) and off into the gap. The top seat mirrors that
in the top lane. Every square shows its path number, so "move 6" needs no counting. Pieces
waiting to enter sit above / below the big block left of the entry line, pieces borne off
right of it, with room between for the "enter" label; the counts are in the player strips.
The dice lie in the gap of the seat on turn.

The image is no wider than the board and its frame, and the labels the buttons carry are
large, so they are still 11 px tall when a phone shows the image 400 px wide.
"""

from __future__ import annotations

import random

from PIL import Image, ImageDraw

from bot.engines import ur
from bot.engines.common import Phase
from bot.engines.ur_labels import piece_labels
from renderers import chrome, palettes, sprites
from renderers.arrows import Point, draw_arrow, shorten
from renderers.canvas import Canvas, Surface
from renderers.dice import tetra
from renderers.diskcache import persisted
from renderers.fonts import draw_text
from renderers.marks import Drawn, Labels
from renderers.memo import cached
from renderers.sprites import paste_centred, paste_stamp
from renderers.theme import THEMES, Theme, get_theme, mix
from renderers.view import View

SEATS = ur.SEATS  # the players not named are called by these

# Geometry: everything follows from these.
SQUARE = 96
COLUMNS, ROWS = 8, 3
MARGIN = 8
STRIP_H = 56
POOL_H = 80
GAP = 8
FRAME_PAD = 13  # the frame around the squares
BOARD_X = MARGIN + FRAME_PAD + 3
WIDTH = COLUMNS * SQUARE + 2 * BOARD_X
TOP_STRIP_Y = MARGIN
TOP_POOL_Y = TOP_STRIP_Y + STRIP_H + GAP
BOARD_Y = TOP_POOL_Y + POOL_H + GAP
BOTTOM_POOL_Y = BOARD_Y + ROWS * SQUARE + GAP
BOTTOM_STRIP_Y = BOTTOM_POOL_Y + POOL_H + GAP
HEIGHT = BOTTOM_STRIP_Y + STRIP_H + MARGIN
GAP_COLUMNS = (4, 5)  # the outer rows have no squares here
PIECE = 70
POOL_PIECE = 44
POOL_PITCH = 47
ENTRY_ROOM = 56  # from the entry line to the first pool slot on each side: the label's place
# Button labels: 34 px DejaVu Sans Bold digits are 25 px tall, 12 px at 400 px wide.
LABEL = 34
SQUEEZE = 0.8

# Pieces and board keep one look in both themes.
TILE = (204, 178, 132)
TILE_EDGE = (120, 92, 60)
TILE_NUMBER = (128, 104, 70)
ROSETTE = (36, 80, 146)
ROSETTE_MARK = (242, 216, 140)
LIGHT_PIECE = (246, 240, 226)
LIGHT_EDGE = (28, 28, 30)
DARK_PIECE = (44, 44, 50)
DARK_EDGE = (216, 216, 220)
ACCENTS = (LIGHT_PIECE, DARK_PIECE)  # a board message's accent: the seat on turn
DIE_FACE = (240, 234, 218)
DIE_EDGE = (40, 36, 30)


def _lane_row(perspective: int, seat: int) -> int:
    return ROWS - 1 if seat == perspective else 0


def square_cell(perspective: int, seat: int, square: int) -> tuple[int, int]:
    """(row, column) of ``seat``'s path square 1-14 with ``perspective`` at the bottom."""
    if not 1 <= square <= 14:
        raise ValueError(f"Path square {square} is not on the board.")
    if ur.SHARED_SQUARES.start <= square < ur.SHARED_SQUARES.stop:
        return 1, square - ur.SHARED_SQUARES.start
    column = 4 - square if square <= 4 else 20 - square  # 13 -> 7, 14 -> 6
    return _lane_row(perspective, seat), column


def cell_centre(row: int, column: int) -> Point:
    return BOARD_X + (column + 0.5) * SQUARE, BOARD_Y + (row + 0.5) * SQUARE


def pool_centre(perspective: int, seat: int, square: int, slot: int) -> Point:
    """Centre of the ``slot``-th piece waiting (square 0) or borne off (square 15).

    Waiting pieces line up leftwards from above the entry square; borne-off ones rightwards
    from the bridge.
    """
    y = (BOTTOM_POOL_Y if seat == perspective else TOP_POOL_Y) + POOL_H / 2
    entry_x = ENTRY_X
    first = ENTRY_ROOM + POOL_PIECE / 2
    if square == ur.START:
        return entry_x - first - slot * POOL_PITCH, y
    return entry_x + first + slot * POOL_PITCH, y


ENTRY_X = BOARD_X + 4 * SQUARE  # the line between the waiting and the borne-off pieces


def enter_label_centre(perspective: int, seat: int) -> Point:
    """Where "enter" is printed: on the entry line, beside the first waiting piece."""
    y = (BOTTOM_POOL_Y if seat == perspective else TOP_POOL_Y) + POOL_H / 2
    return ENTRY_X, y


def piece_centre(perspective: int, seat: int, square: int, slot: int = 0) -> Point:
    """Where a piece of ``seat`` on path ``square`` is drawn (pools use ``slot``)."""
    if square in (ur.START, ur.OFF):
        return pool_centre(perspective, seat, square, slot)
    return cell_centre(*square_cell(perspective, seat, square))


def _is_square(row: int, column: int) -> bool:
    return row == 1 or column not in GAP_COLUMNS


def _path_number(perspective: int, row: int, column: int) -> int:
    """The path number printed on a square (its owner's number in the outer lanes)."""
    if row == 1:
        return column + ur.SHARED_SQUARES.start
    seat = perspective if row == ROWS - 1 else 1 - perspective
    for square in (1, 2, 3, 4, 13, 14):
        if square_cell(perspective, seat, square) == (row, column):
            return square
    raise ValueError((row, column))


def _is_rosette(perspective: int, row: int, column: int) -> bool:
    return _path_number(perspective, row, column) in ur.ROSETTE_SQUARES


@cached
def _rosette_mark(size: int) -> Image.Image:
    """An eight-petalled rosette, the inlay of the original board."""

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        import math

        c = size * s / 2
        petal = size * s * 0.16
        orbit = size * s * 0.25
        for i in range(8):
            angle = math.radians(i * 45)
            x, y = c + orbit * math.cos(angle), c + orbit * math.sin(angle)
            draw.ellipse((x - petal, y - petal, x + petal, y + petal), fill=ROSETTE_MARK)
        core = size * s * 0.15
        draw.ellipse((c - core, c - core, c + core, c + core), fill=ROSETTE)
        dot = size * s * 0.07
        draw.ellipse((c - dot, c - dot, c + dot, c + dot), fill=ROSETTE_MARK)

    return sprites.supersample(size, size, paint)


@cached
def static_board(theme_name: str, perspective: int) -> Image.Image:
    """Background, frame and squares with their numbers: what never changes in a game."""
    theme = get_theme(theme_name)
    image = Image.new("RGB", (WIDTH, HEIGHT), theme.background)
    draw = ImageDraw.Draw(image)
    pad = FRAME_PAD - 3
    blocks = [(0, 0, 4, 3), (4, 1, 6, 2), (6, 0, 8, 3)]  # column/row spans of the board parts
    # Outline every part first, then fill them all: the parts merge into one frame.
    for grow, fill in ((pad + 3, theme.frame_edge), (pad, theme.frame)):
        for c0, r0, c1, r1 in blocks:
            draw.rounded_rectangle(
                (
                    BOARD_X + c0 * SQUARE - grow,
                    BOARD_Y + r0 * SQUARE - grow,
                    BOARD_X + c1 * SQUARE + grow - 1,
                    BOARD_Y + r1 * SQUARE + grow - 1,
                ),
                radius=12,
                fill=fill,
            )
    for row in range(ROWS):
        for column in range(COLUMNS):
            if not _is_square(row, column):
                continue
            x0, y0 = BOARD_X + column * SQUARE, BOARD_Y + row * SQUARE
            rosette = _is_rosette(perspective, row, column)
            draw.rounded_rectangle(
                (x0 + 3, y0 + 3, x0 + SQUARE - 4, y0 + SQUARE - 4),
                radius=8,
                fill=ROSETTE if rosette else TILE,
                outline=TILE_EDGE,
                width=2,
            )
            if rosette:
                paste_centred(image, _rosette_mark(SQUARE - 14), cell_centre(row, column))
            number = str(_path_number(perspective, row, column))
            draw_text(
                image,
                (x0 + 10, y0 + 16),
                number,
                15,
                ROSETTE_MARK if rosette else TILE_NUMBER,
                bold=True,
                anchor="lm",
            )
    for y in (TOP_POOL_Y, BOTTOM_POOL_Y):
        draw.rounded_rectangle(
            (BOARD_X, y, BOARD_X + COLUMNS * SQUARE - 1, y + POOL_H - 1),
            radius=POOL_H // 2,
            fill=theme.panel,
        )
        draw.line(
            (BOARD_X + 4 * SQUARE, y + 12, BOARD_X + 4 * SQUARE, y + POOL_H - 12),
            fill=mix(theme.panel, theme.muted, 0.5),
            width=2,
        )
    return image


def seat_piece(seat: int, diameter: int) -> Image.Image:
    """Light pieces carry a dark dot on a dark edge; dark ones a light ring and edge."""
    if seat == ur.LIGHT:
        return sprites.piece(diameter, LIGHT_PIECE, LIGHT_EDGE, dot=LIGHT_EDGE, edge_width=3)
    return sprites.piece(diameter, DARK_PIECE, DARK_EDGE, ring=DARK_EDGE, edge_width=3)


def _path_points(
    perspective: int, seat: int, source: int, target: int, slot_from: int, slot_to: int
) -> list[Point]:
    """The centres a piece passes from ``source`` to ``target``, pools included."""
    points = [piece_centre(perspective, seat, source, slot_from)]
    for square in range(max(source, 0) + 1, min(target, 14) + 1):
        points.append(piece_centre(perspective, seat, square))
    if target == ur.OFF:
        points.append(piece_centre(perspective, seat, ur.OFF, slot_to))
    return points


def _status(state: ur.UrState, seat: int) -> str:
    side = ur.SEATS[seat]
    position = state.position
    counts = f"{position.waiting(side)} to enter · {position.borne_off(side)} off"
    if state.phase is Phase.FINISHED:
        won = state.outcome is not None and state.outcome.winner == seat
        return f"winner · {counts}" if won else counts
    if seat == state.turn:
        if state.phase is Phase.MOVE:
            return f"rolled {state.roll_value} · {counts}"
        return f"{'rosette: roll again' if state.extra_roll else 'to roll'} · {counts}"
    if state.passed:
        return f"rolled {sum(state.last_roll)}: no move · {counts}"
    return counts


def _draw_dice(image: Surface, theme: Theme, dice: tuple[int, ...], row: int, faded: bool) -> None:
    x0 = BOARD_X + GAP_COLUMNS[0] * SQUARE
    y0 = BOARD_Y + row * SQUARE
    size = 40
    for i, die in enumerate(dice):
        face = mix(DIE_FACE, theme.background, 0.5) if faded else DIE_FACE
        sprite = tetra(bool(die), size, face, DIE_EDGE, DIE_EDGE)
        cx = x0 + 12 + size / 2 + (i % 2) * (size + 4)
        cy = y0 + SQUARE / 2 + (i // 2 - 0.5) * (size + 2)
        paste_centred(image, sprite, (cx, cy))
    total_x = x0 + 2 * SQUARE - 44
    ink = theme.muted if faded else theme.text
    draw_text(image, (total_x, y0 + SQUARE / 2), str(sum(dice)), 48, ink, bold=True)


def draw(state: ur.UrState, view: View, *, indexed: bool) -> Drawn:
    """The board, on its palette if ``indexed``, and where each button label is printed on it."""
    printed: Labels = []
    theme = view.theme
    perspective = ur.LIGHT if view.perspective is None else view.perspective
    image = Canvas(static_board(theme.name, perspective), palette(theme.name) if indexed else None)
    position = state.position
    seats = (1 - perspective, perspective)  # top, bottom

    # Player strips.
    for seat, strip_y in zip(seats, (TOP_STRIP_Y, BOTTOM_STRIP_Y), strict=True):
        chrome.player_strip(
            image,
            (MARGIN, strip_y, WIDTH - MARGIN, strip_y + STRIP_H),
            theme,
            seat_piece(seat, 34),
            view.names[seat],
            _status(state, seat),
            on_turn=state.phase is not Phase.FINISHED and seat == state.turn,
        )

    # The last move, under the pieces: a ghost where the piece stood and an arrow along its
    # path; pieces it passed stay in view and the tip stops at the piece's edge.
    last = state.last_move
    if last is not None:
        side = ur.SEATS[last.seat]
        slot_from = 0  # pieces enter from the slot nearest the entry square
        slot_to = max(position.borne_off(side) - 1, 0)
        path = _path_points(perspective, last.seat, last.source, last.target, slot_from, slot_to)
        if last.source != ur.START:
            paste_centred(image, sprites.ghost(PIECE, theme.arrow, 3.0), path[0])
        draw_arrow(
            image, shorten(path, PIECE * 0.42), theme.arrow, theme.arrow_edge, width=6, head=20
        )

    # Pieces.
    for seat in (0, 1):
        side = ur.SEATS[seat]
        sprite = seat_piece(seat, PIECE)
        small = seat_piece(seat, POOL_PIECE)
        for slot in range(position.waiting(side)):
            paste_centred(image, small, pool_centre(perspective, seat, ur.START, slot))
        for slot in range(position.borne_off(side)):
            paste_centred(image, small, pool_centre(perspective, seat, ur.OFF, slot))
        mask = position.mask(side)
        for square in range(1, ur.OFF):
            if mask >> square & 1:
                paste_centred(image, sprite, piece_centre(perspective, seat, square))

    if last is not None and last.captured:
        tx, ty = piece_centre(perspective, last.seat, last.target)
        hit = sprites.badge("hit", 15, theme.preview, (255, 255, 255))
        paste_centred(image, hit, (tx - PIECE / 2 + 6, ty + PIECE / 2 - 8))

    # Movable pieces: a ring, the button's label, and a dashed mark where each would land.
    labels = piece_labels(state)
    if state.phase is Phase.MOVE:
        roll_value = state.roll_value
        side = ur.SEATS[state.turn]
        for source, label in labels.items():
            target = source + roll_value
            if source == ur.START:
                centre = pool_centre(perspective, state.turn, ur.START, 0)
                diameter = POOL_PIECE
            else:
                centre = piece_centre(perspective, state.turn, source)
                diameter = PIECE
            selected = view.highlight == source
            slot = position.borne_off(side)
            landing = piece_centre(perspective, state.turn, target, slot)
            if selected:
                path = _path_points(perspective, state.turn, source, target, 0, slot)
                draw_arrow(
                    image, shorten(path, PIECE * 0.42), theme.preview, theme.arrow_edge, 5, 18
                )
            paste_centred(
                image,
                sprites.ghost(
                    diameter if target == ur.OFF else PIECE - 16,
                    theme.movable,
                    3.5 if selected else 2.5,
                ),
                landing,
            )
            paste_centred(
                image, sprites.ring(diameter + 10, theme.movable, 4, theme.movable_text), centre
            )
            edge = theme.text if selected else theme.movable_text
            stamp = sprites.plate(label, LABEL, theme.movable, theme.movable_text, edge, 0, SQUEEZE)
            at = enter_label_centre(perspective, state.turn) if source == ur.START else centre
            paste_stamp(image, stamp, at, printed)

    # Dice in the gap of the seat that threw them.
    if state.phase is Phase.MOVE:
        _draw_dice(image, theme, state.dice, _lane_row(perspective, state.turn), False)
    elif state.passed and state.last_roll and state.phase is not Phase.FINISHED:
        passer = 1 - state.turn
        _draw_dice(image, theme, state.last_roll, _lane_row(perspective, passer), True)

    if state.phase is Phase.FINISHED and state.outcome is not None:
        outcome = state.outcome
        winner = outcome.winner
        accent = theme.movable if winner is None else (LIGHT_PIECE, DARK_EDGE)[winner]
        detail = ""
        if winner is not None:
            loser = ur.SEATS[1 - winner]
            detail = f"{position.borne_off(ur.SEATS[winner])}-{position.borne_off(loser)} off"
        chrome.banner(
            image,
            (WIDTH / 2, BOARD_Y + ROWS * SQUARE / 2),
            theme,
            chrome.result_lines(outcome, view.names, detail),
            accent,
        )
    return Drawn(image.image, printed)


# ---------------------------------------------------------------------------------------------
# Palette


def sample_states(seed: int = 7, count: int = 6) -> list[ur.UrState]:
    """States from a seeded random game, for the palette and for tests: moves, hits, the end."""
    return palettes.sample_game(ur.new_game(), _random_action, seed=seed, count=count)


def _random_action(state: ur.UrState, rng: random.Random) -> ur.UrState:
    """``state`` after a roll, or a move: a capture whenever there is one."""
    if state.phase is Phase.ROLL:
        return ur.apply(state, ur.roll(state, rng))
    moves = ur.legal_actions(state)
    captures = [m for m in moves if ur.is_capture(state.position, m)]
    return ur.apply(state, (captures or moves)[rng.randrange(len(captures or moves))])


@cached
@persisted(__name__)
def palette(theme_name: str) -> Image.Image:
    theme = get_theme(theme_name)
    pinned = [
        theme.frame,
        TILE,
        TILE_EDGE,
        TILE_NUMBER,
        ROSETTE,
        ROSETTE_MARK,
        LIGHT_PIECE,
        LIGHT_EDGE,
        DARK_PIECE,
        DARK_EDGE,
        DIE_FACE,
        DIE_EDGE,
    ]
    board = static_board(theme_name, 0)
    return palettes.fit_palette(theme_name, SEATS, draw, board, sample_states(), pinned)


def warm(themes: tuple[str, ...] = THEMES) -> None:
    for name in themes:
        palette(name)
        for perspective in (0, 1):
            static_board(name, perspective)
