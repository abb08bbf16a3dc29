"""The four-seat Ludo board.

The 48-square loop is the rim of a 13x13 grid (12 squares a side), walked clockwise. Each
seat's start square sits just past the middle of its side, and its home stretch runs from the
middle square of that side (its step 48) straight to the centre square (home). The four inner
quadrants hold each seat's base, its name and, on its turn, its dice. The seat given as
``perspective`` is turned to the bottom-left, as on a table.

Seats differ by colour (Okabe-Ito hues of different lightness) and by shape: red circles,
blue squares, green diamonds, yellow hexagons, each numbered 1-4. A block (two or more tokens
of one colour on a loop square) is drawn as a stack on a dark plate, so it never looks like a
single token, and carries every member's number.

Token numbers are the move buttons' labels, so they are set large (11 px tall when a phone
shows the image 400 px wide) and white ones are outlined in black, which keeps them legible
on every seat colour.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from PIL import Image, ImageDraw

from bot.engines import ludo
from bot.engines.common import Phase
from renderers import chrome, palettes, sprites
from renderers.arrows import Point, draw_arrow, shorten
from renderers.canvas import Canvas, Surface
from renderers.dice import d6
from renderers.diskcache import persisted
from renderers.fonts import Colour, draw_text
from renderers.marks import Drawn, Labels, print_label
from renderers.memo import cached
from renderers.sprites import Stamp, paste_centred, paste_stamp
from renderers.theme import THEMES, Theme, get_theme, mix
from renderers.view import View

SEATS = ludo.SEATS  # the players not named are called by these

# Geometry: everything follows from these.
CELL = 64
GRID = 13  # the loop is the rim: 4 * (GRID - 1) == ludo.LOOP squares
MIDDLE = GRID // 2
MARGIN = 10
WIDTH = HEIGHT = GRID * CELL + 2 * MARGIN
TOKEN = 52
MINI = 38  # tokens sharing a square with tokens of another colour, or in a home stretch
BASE_TOKEN = 54
# Token numbers: 34 px DejaVu Sans Bold digits are 25 px tall, 11.7 px at 400 px wide.
LABEL = 34
BLOCK_SQUEEZE = 0.75  # a block's numbers, "1·2", narrowed to fit its square
BASE_PITCH = 78
QUADRANT = (MIDDLE - 1) * CELL  # 5 cells
STRIP_H = 60

COLOURS: tuple[Colour, ...] = ((213, 94, 0), (0, 114, 178), (0, 158, 115), (240, 228, 66))
ACCENTS = COLOURS  # a board message's accent: the seat on turn
INKS: tuple[Colour, ...] = ((255, 255, 255), (255, 255, 255), (255, 255, 255), (24, 24, 24))
SHAPES = ("circle", "square", "diamond", "hexagon")
TOKEN_EDGE = (24, 24, 28)
BOARD = (214, 210, 200)
CELL_FILL = (250, 249, 245)
CELL_EDGE = (150, 146, 138)
OUT_FILL = (150, 150, 150)  # tokens of a seat that resigned
QUADRANT_TINTS = tuple(mix(colour, BOARD, 0.72) for colour in COLOURS)

assert 4 * (GRID - 1) == ludo.LOOP


# ---------------------------------------------------------------------------------------------
# Grid geometry (row, column), first for seat 0 at the top, then turned for the perspective


def _rim(index: int) -> tuple[int, int]:
    """The rim cell ``index`` squares clockwise from the top-left corner."""
    side, offset = divmod(index, GRID - 1)
    last = GRID - 1
    return ((0, offset), (offset, last), (last, last - offset), (last - offset, 0))[side]


def _turn(cell: tuple[int, int], quarter_turns: int) -> tuple[int, int]:
    row, column = cell
    for _ in range(quarter_turns % 4):
        row, column = column, GRID - 1 - row
    return row, column


def rotation(perspective: int | None) -> int:
    """Quarter turns clockwise that bring ``perspective`` to the bottom (seat 2's place)."""
    return (2 - (perspective or 0)) % 4


def loop_cell(square: int, quarter_turns: int = 0) -> tuple[int, int]:
    """Grid cell of loop square 0-47. Seat 0's start (square 0) is just right of top-middle."""
    return _turn(_rim((square + MIDDLE + 1) % ludo.LOOP), quarter_turns)


def step_cell(seat: int, step: int, quarter_turns: int = 0) -> tuple[int, int]:
    """Grid cell of ``seat``'s token on ``step`` 1-54 (54 is the centre)."""
    if 1 <= step <= ludo.LOOP:
        return loop_cell(ludo.SQUARE[seat][step], quarter_turns)
    if not ludo.LOOP < step <= ludo.HOME:
        raise ValueError(f"Step {step} is not on the board.")
    # Seat 0's stretch runs down the middle column from the top edge; other seats are turned.
    return _turn((step - ludo.LOOP, MIDDLE), seat + quarter_turns)


def cell_centre(cell: tuple[int, int]) -> Point:
    row, column = cell
    return MARGIN + (column + 0.5) * CELL, MARGIN + (row + 0.5) * CELL


def quadrant_origin(seat: int, quarter_turns: int) -> tuple[int, int]:
    """Top-left pixel of ``seat``'s base quadrant (seat 0: the top-right one)."""
    corner = _turn((1, MIDDLE + 1), seat + quarter_turns)
    # A turned quadrant's named corner is a different corner; take the box's minimum.
    far = _turn((MIDDLE - 1, GRID - 2), seat + quarter_turns)
    row, column = min(corner[0], far[0]), min(corner[1], far[1])
    return MARGIN + column * CELL, MARGIN + row * CELL


def _strip_on_top(seat: int, quarter_turns: int) -> bool:
    return quadrant_origin(seat, quarter_turns)[1] < HEIGHT / 2


def base_slot_centre(seat: int, token: int, quarter_turns: int) -> Point:
    """Centre of the base slot of ``token`` (slots keep the token order: 1 2 / 3 4)."""
    qx, qy = quadrant_origin(seat, quarter_turns)
    content_top = qy + (STRIP_H + 16 if _strip_on_top(seat, quarter_turns) else 8)
    cx = qx + 28 + BASE_PITCH
    cy = content_top + (QUADRANT - STRIP_H - 24) / 2
    return (
        cx + (token % 2 - 0.5) * BASE_PITCH,
        cy + (token // 2 - 0.5) * BASE_PITCH,
    )


def _dice_centres(seat: int, quarter_turns: int) -> tuple[Point, Point]:
    x, y = base_slot_centre(seat, 1, quarter_turns)
    _, y2 = base_slot_centre(seat, 3, quarter_turns)
    dx = x + BASE_PITCH / 2 + 74
    return (dx, y), (dx, y2)


# ---------------------------------------------------------------------------------------------
# Where each token is drawn


def _groups(position: ludo.Position) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """Tokens on the board grouped by grid cell (unturned), as (seat, token) in seat order."""
    cells: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for index, step in enumerate(position.tokens):
        if step > 0:
            seat = index // ludo.TOKENS
            cells.setdefault(step_cell(seat, step), []).append((seat, index % ludo.TOKENS))
    return cells


def is_block(
    position: ludo.Position, members: list[tuple[int, int]], cell: tuple[int, int]
) -> bool:
    """Two or more in-play tokens of one colour on a loop square."""
    seats = {seat for seat, _ in members}
    on_loop = cell[0] in (0, GRID - 1) or cell[1] in (0, GRID - 1)
    return on_loop and len(members) >= 2 and len(seats) == 1 and not seats & position.out


def _mini_offsets(count: int) -> list[Point]:
    """Two tokens on a diagonal, up to four in a square; each number keeps clear of the
    others (they are drawn after all the tokens)."""
    if count == 1:
        return [(0.0, 0.0)]
    if count == 2:
        d = (CELL - MINI) / 2
        return [(-d, -d), (d, d)]
    d = 16.0  # the tokens spill a little over the square's edge, to keep numbers apart
    return [(-d, -d), (d, -d), (-d, d), (d, d), (0.0, 0.0)][:count] + [(0.0, 0.0)] * (count - 5)


def layout(
    position: ludo.Position, quarter_turns: int
) -> Iterator[tuple[str, Point, list[tuple[int, int]]]]:
    """Everything on the board as ``(kind, centre, [(seat, token), ...])``.

    Kinds: ``"token"`` (one token), ``"block"``, ``"mini"`` (one of several tokens sharing a
    cell), ``"base"`` (in its base slot); finished tokens are counted, not placed.
    """
    for index, step in enumerate(position.tokens):
        if step == 0:
            seat, token = divmod(index, ludo.TOKENS)
            yield "base", base_slot_centre(seat, token, quarter_turns), [(seat, token)]
    for cell, members in _groups(position).items():
        if cell == (MIDDLE, MIDDLE):
            continue
        centre = cell_centre(_turn(cell, quarter_turns))
        if len(members) == 1:
            yield "token", centre, members
        elif is_block(position, members, cell):
            yield "block", centre, members
        else:
            for member, (dx, dy) in zip(members, _mini_offsets(len(members)), strict=True):
                yield "mini", (centre[0] + dx, centre[1] + dy), [member]


def token_centre(
    position: ludo.Position, seat: int, token: int, perspective: int | None = None
) -> Point | None:
    """Where ``seat``'s ``token`` is drawn, ``None`` when it is home (shown as a count)."""
    turns = rotation(perspective)
    for _, centre, members in layout(position, turns):
        if (seat, token) in members:
            return centre
    return None


# ---------------------------------------------------------------------------------------------
# Sprites


def token_sprite(seat: int, diameter: int, out: bool = False) -> Image.Image:
    """A token without its number (the strips' icon, a crowded square's tokens)."""
    fill = OUT_FILL if out else COLOURS[seat]
    return sprites.piece(diameter, fill, TOKEN_EDGE, shape=SHAPES[seat], edge_width=2.5)


def number_outline(seat: int) -> Colour:
    """Around a token's number: black around white numbers, the seat colour around dark
    ones (so a dark number stays legible where it overlaps a dark block plate)."""
    return TOKEN_EDGE if INKS[seat] == (255, 255, 255) else COLOURS[seat]


def print_number(
    image: Surface, labels: Labels | None, seat: int, centre: Point, number: int
) -> None:
    """A token's number, the label its move buttons carry, straight onto ``image``."""
    ink, edge = INKS[seat], number_outline(seat)
    print_label(image, labels, centre, str(number), LABEL, ink, edge, outline=edge)


@cached
def token_stamp(seat: int, diameter: int, number: int, out: bool = False) -> Stamp:
    """A token with its number."""
    sprite = token_sprite(seat, diameter, out).copy()
    found: Labels = []
    print_number(sprite, found, seat, (sprite.width / 2, sprite.height / 2), number)
    return Stamp(sprite, tuple(found))


@cached
def block_stamp(seat: int, tokens: tuple[int, ...]) -> Stamp:
    """A block: a dark plate filling the square with two stacked tokens on it, and every
    member's number ("1·2", a second row for a third and fourth). The plate makes it read
    as a wall, never as a single token."""
    size = CELL - 4
    shape_d = round(CELL * 0.6)

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        draw.rounded_rectangle((0, 0, size * s - 1, size * s - 1), radius=10 * s, fill=TOKEN_EDGE)
        for shift in (-0.1, 0.08):  # the back token up-left, the front one down-right
            c = size * s * (0.5 + shift)
            r = shape_d * s / 2
            outer = sprites.polygon_points(SHAPES[seat], c, r + 1.5 * s)
            inner = sprites.polygon_points(SHAPES[seat], c, r - 2 * s)
            if outer is None or inner is None:
                draw.ellipse((c - r, c - r, c + r, c + r), fill=(255, 255, 255))
                g = r - 2 * s
                draw.ellipse((c - g, c - g, c + g, c + g), fill=COLOURS[seat])
            else:
                draw.polygon(outer, fill=(255, 255, 255))
                draw.polygon(inner, fill=COLOURS[seat])

    sprite = sprites.supersample(size, size, paint).copy()
    numbers = [str(t + 1) for t in tokens]
    # Two numbers to a row: "1·2", and "3·4" under it for a bigger block.
    rows = ["·".join(numbers[i : i + 2]) for i in range(0, len(numbers), 2)]
    ink, edge = INKS[seat], number_outline(seat)
    found: Labels = []
    for row, text in enumerate(rows):
        dy = 2.0 if len(rows) == 1 else (-13.0, 14.0)[row]
        at = (size / 2, size / 2 + dy)
        print_label(sprite, found, at, text, LABEL, ink, edge, outline=edge, squeeze=BLOCK_SQUEEZE)
    return Stamp(sprite, tuple(found))


# ---------------------------------------------------------------------------------------------
# The static board


@cached
def static_board(theme_name: str, quarter_turns: int) -> Image.Image:
    theme = get_theme(theme_name)
    image = Image.new("RGB", (WIDTH, HEIGHT), theme.background)
    draw = ImageDraw.Draw(image)
    size = GRID * CELL
    draw.rounded_rectangle(
        (MARGIN - 6, MARGIN - 6, MARGIN + size + 5, MARGIN + size + 5),
        radius=14,
        fill=BOARD,
        outline=theme.frame_edge,
        width=3,
    )
    for seat in range(4):
        qx, qy = quadrant_origin(seat, quarter_turns)
        draw.rounded_rectangle(
            (qx + 4, qy + 4, qx + QUADRANT - 5, qy + QUADRANT - 5),
            radius=16,
            fill=QUADRANT_TINTS[seat],
        )
        for token in range(ludo.TOKENS):
            x, y = base_slot_centre(seat, token, quarter_turns)
            r = BASE_TOKEN / 2 + 5
            draw.ellipse(
                (x - r, y - r, x + r, y + r),
                fill=mix(COLOURS[seat], CELL_FILL, 0.45),
                outline=mix(COLOURS[seat], TOKEN_EDGE, 0.3),
                width=2,
            )

    def cell_box(cell: tuple[int, int]) -> tuple[int, int, int, int]:
        x, y = cell_centre(cell)
        h = CELL / 2
        return round(x - h + 2), round(y - h + 2), round(x + h - 3), round(y + h - 3)

    for square in range(ludo.LOOP):
        cell = loop_cell(square, quarter_turns)
        fill = CELL_FILL
        if square in ludo.START:
            fill = mix(COLOURS[ludo.START.index(square)], CELL_FILL, 0.25)
        draw.rounded_rectangle(cell_box(cell), radius=6, fill=fill, outline=CELL_EDGE, width=1)
    for seat in range(4):
        tint = mix(COLOURS[seat], CELL_FILL, 0.5)
        for step in range(ludo.LOOP + 1, ludo.HOME):
            draw.rounded_rectangle(
                cell_box(step_cell(seat, step, quarter_turns)),
                radius=6,
                fill=tint,
                outline=mix(COLOURS[seat], TOKEN_EDGE, 0.3),
                width=1,
            )
        _draw_start_arrow(draw, seat, quarter_turns)
        _draw_entry_arrow(draw, seat, quarter_turns)
    # Home: the centre square split into four triangles, each toward its seat's stretch.
    cx, cy = cell_centre((MIDDLE, MIDDLE))
    h = CELL / 2 - 1
    corners = [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]
    for seat in range(4):
        towards = cell_centre(step_cell(seat, ludo.HOME - 1, quarter_turns))
        pair = sorted(
            range(4),
            key=lambda i: (corners[i][0] - towards[0]) ** 2 + (corners[i][1] - towards[1]) ** 2,
        )[:2]
        draw.polygon(
            [corners[pair[0]], corners[pair[1]], (cx, cy)], fill=COLOURS[seat], outline=TOKEN_EDGE
        )
    return image


def _draw_start_arrow(draw: ImageDraw.ImageDraw, seat: int, quarter_turns: int) -> None:
    """A small arrowhead on the start square pointing the way tokens run."""
    here = cell_centre(step_cell(seat, 1, quarter_turns))
    ahead = cell_centre(step_cell(seat, 2, quarter_turns))
    _arrowhead(draw, here, ahead, COLOURS[seat], 13)


def _draw_entry_arrow(draw: ImageDraw.ImageDraw, seat: int, quarter_turns: int) -> None:
    """An arrowhead on the loop square where ``seat`` turns into its home stretch."""
    here = cell_centre(step_cell(seat, ludo.LOOP, quarter_turns))
    ahead = cell_centre(step_cell(seat, ludo.LOOP + 1, quarter_turns))
    _arrowhead(draw, here, ahead, mix(COLOURS[seat], CELL_FILL, 0.35), 11)


def _arrowhead(
    draw: ImageDraw.ImageDraw, here: Point, ahead: Point, fill: Colour, size: float
) -> None:
    dx, dy = ahead[0] - here[0], ahead[1] - here[1]
    length = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / length, dy / length
    tip = (here[0] + ux * size, here[1] + uy * size)
    back = (here[0] - ux * size * 0.7, here[1] - uy * size * 0.7)
    draw.polygon(
        [
            tip,
            (back[0] - uy * size, back[1] + ux * size),
            (back[0] + uy * size, back[1] - ux * size),
        ],
        fill=fill,
        outline=TOKEN_EDGE,
    )


# ---------------------------------------------------------------------------------------------
# Rendering


def _previous_roller(state: ludo.LudoState) -> int:
    """The seat whose roll ``state.rolled`` is, once the turn has moved on."""
    if state.extra_turn:
        return state.turn
    seat = state.turn
    for _ in range(4):
        seat = (seat - 1) % 4
        if seat not in state.position.out:
            return seat
    return state.turn


def _ordinal(place: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")


def _status(state: ludo.LudoState, seat: int) -> str:
    position = state.position
    home = sum(1 for step in position.steps(seat) if step == ludo.HOME)
    parts: list[str] = []
    if seat in position.out:
        parts.append("resigned")
    elif state.phase is Phase.FINISHED and state.outcome is not None:
        place = state.outcome.place_of(seat)
        parts.append("winner" if place == 1 else _ordinal(place))
    elif seat == state.turn and state.phase is Phase.ROLL:
        parts.append("rolls again" if state.extra_turn else "to roll")
    elif (
        state.phase is Phase.ROLL
        and state.passed
        and state.rolled
        and seat == _previous_roller(state)
        and seat != state.turn
    ):
        parts.append("no move")
    if home:
        parts.append(f"{home} home")
    return " · ".join(parts)


def _used(rolled: tuple[int, ...], left: tuple[int, ...]) -> list[bool]:
    remaining = list(left)
    used = []
    for die in rolled:
        if die in remaining:
            remaining.remove(die)
            used.append(False)
        else:
            used.append(True)
    return used


def _draw_dice(
    image: Surface,
    theme: Theme,
    state: ludo.LudoState,
    seat: int,
    turns: int,
    faded: bool,
    chosen: int | None,
) -> None:
    used = [True, True] if faded else _used(state.rolled, state.dice)
    marked = False
    for die, spent, centre in zip(state.rolled, used, _dice_centres(seat, turns), strict=False):
        face = mix(CELL_FILL, BOARD, 0.8) if spent else CELL_FILL
        pip = mix(TOKEN_EDGE, BOARD, 0.6) if spent else TOKEN_EDGE
        paste_centred(image, d6(die, 54, face, pip, pip), centre)
        if chosen == die and not spent and not marked:
            marked = True  # a double: mark one die, not both
            paste_centred(image, sprites.ring(70, theme.movable, 4, theme.movable_text), centre)


def _path(seat: int, source: int, target: int, turns: int) -> list[Point]:
    if source == 0:
        return [cell_centre(step_cell(seat, 1, turns))]
    return [cell_centre(step_cell(seat, step, turns)) for step in range(source, target + 1)]


def draw(state: ludo.LudoState, view: View, *, indexed: bool) -> Drawn:
    """The board, on its palette if ``indexed``, and where each button label (token number)
    is printed on it."""
    printed: Labels = []
    theme = view.theme
    turns = rotation(view.perspective)
    image = Canvas(static_board(theme.name, turns), palette(theme.name) if indexed else None)
    position = state.position
    finished = state.phase is Phase.FINISHED

    for seat in range(4):
        qx, qy = quadrant_origin(seat, turns)
        top = qy + 8 if _strip_on_top(seat, turns) else qy + QUADRANT - 8 - STRIP_H
        chrome.player_strip(
            image,
            (qx + 8, top, qx + QUADRANT - 8, top + STRIP_H),
            theme,
            token_sprite(seat, 28, seat in position.out),
            view.names[seat],
            _status(state, seat),
            on_turn=not finished and seat == state.turn,
            dimmed=seat in position.out,
            stacked=True,
            backdrop=QUADRANT_TINTS[seat],
        )

    # Finished tokens: a count on each seat's home triangle.
    for seat in range(4):
        home = sum(1 for step in position.steps(seat) if step == ludo.HOME)
        if home:
            centre = cell_centre((MIDDLE, MIDDLE))
            towards = cell_centre(step_cell(seat, ludo.HOME - 1, turns))
            at = (
                centre[0] + (towards[0] - centre[0]) * 0.3,
                centre[1] + (towards[1] - centre[1]) * 0.3,
            )
            draw_text(image, at, str(home), 17, INKS[seat], bold=True)

    last = state.last_move
    if last is not None and last.source > 0:
        paste_centred(
            image,
            sprites.ghost(TOKEN, theme.arrow, 3.0),
            cell_centre(step_cell(last.seat, last.source, turns)),
        )

    # The last move runs under the tokens, along the track it took.
    if last is not None and last.target > 0:
        path = _path(last.seat, last.source, min(last.target, ludo.HOME), turns)
        if last.source == 0:
            path.insert(0, base_slot_centre(last.seat, last.token, turns))
        if len(path) >= 2:
            draw_arrow(
                image, shorten(path, TOKEN * 0.45), theme.arrow, theme.arrow_edge, width=5, head=17
            )

    crowded: list[tuple[int, Point, int]] = []
    for kind, centre, members in layout(position, turns):
        seat, token = members[0]
        out = seat in position.out
        if kind == "block":
            paste_stamp(image, block_stamp(seat, tuple(t for _, t in members)), centre, printed)
        elif kind == "mini":
            paste_centred(image, token_sprite(seat, MINI, out), centre)
            crowded.append((seat, centre, token + 1))
        else:
            diameter = BASE_TOKEN if kind == "base" else TOKEN
            paste_stamp(image, token_stamp(seat, diameter, token + 1, out), centre, printed)
    if state.phase is Phase.MOVE:
        _draw_moves(image, theme, state, view, turns)
    # Numbers of tokens sharing a square go on top of them all and of the rings, so none is
    # covered.
    for seat, centre, number in crowded:
        print_number(image, printed, seat, centre, number)

    if last is not None and last.captured is not None and 0 < last.target < ludo.HOME:
        tx, ty = cell_centre(step_cell(last.seat, last.target, turns))
        paste_centred(
            image,
            sprites.badge("hit", 14, theme.preview, (255, 255, 255)),
            (tx - TOKEN / 2 + 4, ty + TOKEN / 2 - 6),
        )

    if state.phase is Phase.MOVE:
        chosen = view.highlight if isinstance(view.highlight, int) else None
        _draw_dice(image, theme, state, state.turn, turns, False, chosen)
    elif state.phase is Phase.ROLL and state.passed and state.rolled:
        _draw_dice(image, theme, state, _previous_roller(state), turns, True, None)

    if finished and state.outcome is not None:
        outcome = state.outcome
        accent = theme.movable if outcome.winner is None else COLOURS[outcome.winner]
        chrome.banner(
            image, (WIDTH / 2, HEIGHT / 2), theme, result_banner(state, view.names), accent
        )
    return Drawn(image.image, printed)


def result_banner(state: ludo.LudoState, names: Sequence[str]) -> list[str]:
    """The game-over banner's lines: the winner, then every other seat's place on a line of
    its own (``2nd yellow (AI)``: three places on one line outgrew the board)."""
    outcome = state.outcome
    assert outcome is not None
    lines = chrome.result_lines(outcome, names)
    if outcome.winner is not None:
        lines += [
            f"{_ordinal(outcome.place_of(seat))} {names[seat]}"
            for group in outcome.ranking[1:]
            for seat in group
        ]
    return lines


def _draw_moves(
    image: Surface, theme: Theme, state: ludo.LudoState, view: View, turns: int
) -> None:
    """Ring every token that may move (with the chosen die, if one is chosen) and mark its
    landing square; the token's own number is its label."""
    seat = state.turn
    moves = ludo.legal_actions(state)
    chosen = view.highlight if isinstance(view.highlight, int) else None
    if chosen in {m.die for m in moves}:
        moves = [m for m in moves if m.die == chosen]
    show_targets = len({m.die for m in moves}) == 1
    placed = list(layout(state.position, turns))
    where = {tuple(members): centre for _, centre, members in placed}
    minis = {centre for kind, centre, _ in placed if kind == "mini"}
    by_member = {m: c for members, c in where.items() for m in members}
    ringed: set[Point] = set()
    for move in moves:
        centre = by_member.get((seat, move.token))
        if centre is None:
            continue
        if show_targets:
            landing = cell_centre(step_cell(seat, move.target, turns))
            paste_centred(image, sprites.ghost(TOKEN - 10, theme.movable, 3.0), landing)
        if centre in ringed:
            continue
        ringed.add(centre)
        diameter = BASE_TOKEN if move.source == 0 else (MINI if centre in minis else TOKEN)
        members = next(m for m, c in where.items() if c == centre)
        if (
            len(members) > 1
            and centre == by_member[(seat, move.token)]
            and len({s for s, _ in members}) == 1
        ):
            diameter = CELL - 4
        paste_centred(
            image, sprites.ring(diameter + 10, theme.movable, 4, theme.movable_text), centre
        )


# ---------------------------------------------------------------------------------------------
# Palette


def sample_states(seed: int = 11, count: int = 6) -> list[ludo.LudoState]:
    """States from a seeded random game: tokens out, blocks, captures, the end."""
    first = ludo.new_game()
    return palettes.sample_game(first, _random_action, seed=seed, count=count, limit=4000)


def _random_action(state: ludo.LudoState, rng: random.Random) -> ludo.LudoState:
    """``state`` after a roll, or a move."""
    if state.phase is Phase.ROLL:
        return ludo.apply(state, ludo.roll(state, rng))
    moves = ludo.legal_actions(state)
    return ludo.apply(state, moves[rng.randrange(len(moves))])


@cached
@persisted(__name__)
def palette(theme_name: str) -> Image.Image:
    pinned = [
        BOARD,
        CELL_FILL,
        CELL_EDGE,
        TOKEN_EDGE,
        OUT_FILL,
        *COLOURS,
        *INKS,
        *(mix(c, CELL_FILL, 0.5) for c in COLOURS),
        *QUADRANT_TINTS,
    ]
    board = static_board(theme_name, 0)
    return palettes.fit_palette(theme_name, SEATS, draw, board, sample_states(), pinned)


def warm(themes: tuple[str, ...] = THEMES) -> None:
    for name in themes:
        palette(name)
        for quarter_turns in range(4):
            static_board(name, quarter_turns)
