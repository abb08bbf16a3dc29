"""Backgammon: checkers, bar, tray, numbers and markers are drawn where the state says."""

from __future__ import annotations

import itertools
from dataclasses import replace
from functools import partial

import pytest
from PIL import Image

from bot.engines import backgammon as bg
from bot.engines.backgammon import Phase
from bot.engines.backgammon_labels import BAR, movable_points, point_label
from bot.engines.common import Roll
from renderers import backgammon as r
from renderers import render as render_board
from renderers import render_labelled
from renderers.theme import get_theme
from tests.renderers.helpers import near, pixel, playout

render = partial(render_board, renderer=r)  # this game's boards
render_labelled_board = partial(render_labelled, renderer=r)

WHITE, BLACK = 0, 1


def state_with(
    mine: dict[int | str, int],
    theirs: dict[int | str, int],
    *,
    turn: int = WHITE,
    dice: tuple[int, int] = (3, 1),
) -> bg.BackgammonState:
    """A MOVE-phase state; ``mine`` is the seat on turn, each side in its own numbering."""
    return bg.BackgammonState(bg.Position.from_points(mine, theirs), Phase.MOVE, turn, dice=dice)


def face(centre: tuple[float, float]) -> tuple[float, float]:
    return centre[0] - r.CHECKER * 0.2, centre[1]


COLOURS = {WHITE: r.WHITE_CHECKER, BLACK: r.BLACK_CHECKER}


def test_point_layout_for_the_bottom_seat() -> None:
    assert r.point_column(1) == (11, False)  # home board bottom right
    assert r.point_column(12) == (0, False)
    assert r.point_column(13) == (0, True)
    assert r.point_column(24) == (11, True)
    assert r.to_bottom(1, WHITE, BLACK) == 24
    assert r.to_bottom(25, WHITE, BLACK) == 25


@pytest.mark.parametrize("perspective", [WHITE, BLACK])
@pytest.mark.parametrize("turn", [WHITE, BLACK])
def test_checkers_bar_and_tray(perspective: int, turn: int) -> None:
    mine: dict[int | str, int] = {
        "bar": 1,
        24: 2,
        13: 4,
        8: 3,
        6: 3,
    }  # 13 on the board, 2 borne off
    theirs: dict[int | str, int] = {24: 1, 20: 2, 13: 5, 7: 7}
    state = state_with(mine, theirs, turn=turn, dice=(6, 6))
    image = render(state, perspective=perspective)
    sides = {turn: mine, 1 - turn: theirs}
    for seat, points in sides.items():
        for key, count in points.items():
            point = 25 if key == "bar" else int(key)
            for slot in range(min(count, 4)):
                centre = r.piece_centre(seat, point, slot, perspective)
                assert near(pixel(image, face(centre)), COLOURS[seat]), (seat, point, slot)
    for slot in range(2):
        x, y = r.off_centre(turn == perspective, slot)
        assert near(pixel(image, (x - 10, y)), COLOURS[turn])
    x, y = r.off_centre(turn != perspective, 0)
    assert near(pixel(image, (x - 10, y)), r.TRAY)
    # Empty points show the point's colour at the base.
    occupied = {r.to_bottom(int(p), turn, perspective) for p in mine if p != "bar"}
    occupied |= {r.to_bottom(int(p), 1 - turn, perspective) for p in theirs}
    for p in set(range(1, 25)) - occupied:
        sample = pixel(image, face(r.checker_centre(p, 0)))
        assert near(sample, r.POINT_DARK) or near(sample, r.POINT_LIGHT), p


def test_more_than_five_checkers_are_counted() -> None:
    state = state_with({6: 9, 1: 6}, {23: 15})
    image = render(state, perspective=WHITE)
    x, y = r.checker_centre(6, 4)
    # The count is printed in the checker's edge colour on its face.
    assert any(near(pixel(image, (x + dx, y)), r.WHITE_EDGE, 40) for dx in range(-8, 9))


def _ringed(image: Image.Image, centre: tuple[float, float]) -> bool:
    radius = (r.CHECKER + 10) / 2 - 3.5
    movable = get_theme("dark").movable
    # Sample toward the middle of the board: the neighbouring points' rings are beside it.
    towards = -1 if centre[1] > r.MIDDLE_Y else 1
    return near(pixel(image, (centre[0], centre[1] + towards * radius)), movable, 30)


@pytest.mark.parametrize("seed", [7, 8])
def test_markers_and_numbers_follow_the_legal_steps(seed: int) -> None:
    theme = get_theme("dark")
    checked = 0
    for state in playout(bg, seed, {"cube": False}):
        if state.phase is not Phase.MOVE or checked >= 10:
            continue
        checked += 1
        state = replace(state, last_play=None)
        mover = state.turn
        perspective = checked % 2
        image = render(state, perspective=perspective)
        movable = set(movable_points(state))
        mine = state.position.mine
        for point in range(1, 25):
            bottom = r.to_bottom(point, mover, perspective)
            x, y = r.number_centre(bottom)
            pill = near(pixel(image, (x - r.POINT_W / 2 + 5, y)), theme.movable, 30)
            assert pill == (point in movable), (point, movable)
            if mine[point - 1]:
                top = r.piece_centre(mover, point, mine[point - 1] - 1, perspective)
                assert _ringed(image, top) == (point in movable), (point, movable)
    assert checked


def test_preview_steps_are_drawn_as_played() -> None:
    state = bg.apply(bg.new_game(), Roll((3, 1)))  # white: 24/21? no - any first play
    play = bg.legal_plays_for(state)[0]
    first = play.steps[:1]
    image = render(state, perspective=state.turn, preview_steps=first)
    source, target = first[0]
    position, _ = r.apply_steps(state.position, first)
    landed = r.piece_centre(state.turn, target, position.mine[target - 1] - 1, state.turn)
    assert near(pixel(image, face(landed)), COLOURS[state.turn])
    left = r.piece_centre(state.turn, source, position.mine[source - 1], state.turn)
    assert not near(pixel(image, face(left)), COLOURS[state.turn])
    # One die is used up: its face is faded, the other is not.
    used = r.dice_left(state.dice, first)
    assert used.count(True) == 1


def test_apply_and_undo_steps_are_inverse() -> None:
    position = bg.Position.from_points({13: 2, 6: 5, 8: 3, 24: 2, 1: 3}, {20: 1, 18: 2, 11: 12})
    steps = ((13, 5), (8, 5))
    after, trail = r.apply_steps(position, steps)
    assert after.theirs[24] == 1  # the blot on my 5 (their 20) was hit
    assert [t[4] for t in trail] == [True, False]
    assert r.undo_steps(after, steps, (True, False)) == position


def test_cube_owner_and_offer() -> None:
    base = bg.new_game({"match_length": 5})
    owned = replace(state_with({6: 15}, {6: 15}), cube_value=4, cube_owner=BLACK)
    image = render(owned, perspective=WHITE)
    x = r.MARGIN + r.CUBE_W / 2
    assert near(pixel(image, (x - 18, r.INNER_TOP + 12)), r.CUBE_FACE)
    assert not near(pixel(image, (x - 18, r.MIDDLE_Y)), r.CUBE_FACE)
    # Offered: the cube, at its new value and ringed, stands in the middle of its column.
    offer = bg.apply(replace(base, phase=Phase.ROLL), bg.Double())
    image = render(offer, perspective=WHITE)
    assert near(pixel(image, (x - 18, r.MIDDLE_Y)), r.CUBE_FACE)
    assert near(pixel(image, (x - r.CUBE_W / 2 + 1, r.MIDDLE_Y)), get_theme("dark").movable, 30)
    assert not near(pixel(image, (x - 18, r.INNER_TOP + 12)), r.CUBE_FACE)


def _arrow_pixels(image: Image.Image, colour: tuple[int, int, int]) -> set[tuple[int, int]]:
    data = image.load()
    assert data is not None
    return {
        (x, y)
        for y in range(r.BOARD_TOP, r.BOARD_BOTTOM)
        for x in range(r.BOARD_LEFT, r.BOARD_RIGHT)
        if data[x, y] == colour
    }


@pytest.mark.parametrize("seed", [1, 2])
def test_a_double_offer_leaves_the_last_move_in_view(seed: int) -> None:
    """Every double offered in seeded games: each pixel of the last move's arrows drawn before
    the offer is still there with the offer on the board, and the offer is drawn."""
    theme = get_theme("dark")
    offers = 0
    states = list(playout(bg, seed, {"match_length": 25}))
    for before, after in itertools.pairwise(states):
        if after.phase is not Phase.CUBE or after.last_play is None:
            continue
        offers += 1
        perspective = offers % 2
        arrows = _arrow_pixels(render(before, perspective=perspective), theme.arrow)
        assert len(arrows) > 200  # the last move's arrows are on the board
        offered = render(after, perspective=perspective)
        covered = arrows - _arrow_pixels(offered, theme.arrow)
        assert not covered, (seed, offers, sorted(covered)[:5])
        x = r.MARGIN + r.CUBE_W / 2
        assert near(pixel(offered, (x - 18, r.MIDDLE_Y)), r.CUBE_FACE)
    assert offers >= 3


def test_the_offer_stays_clear_of_arrows_across_the_doublers_half() -> None:
    """Black's last play runs down through the middle of the half where white, doubling,
    would put the offer: the cube stays in its column, "double to 4?" finds a clear spot."""
    position = bg.Position.from_points({15: 3, 6: 5, 8: 3, 13: 4}, {24: 2, 13: 5, 8: 3, 6: 5})
    state = bg.BackgammonState(position, Phase.MOVE, BLACK, dice=(5, 5), cube_value=2)
    play = next(p for p in bg.legal_plays_for(state) if p.steps.count((15, 10)) == 3)
    state = bg.apply(state, play)
    offered = bg.apply(state, bg.Double())
    theme = get_theme("dark")
    # Black at the bottom: white's half is the top-left one, which black's arrows cross.
    before = render(state, perspective=BLACK)
    arrows = _arrow_pixels(before, theme.arrow)
    crossing = {x for x, y in arrows if y == round(r.MIDDLE_Y)}
    assert crossing and max(crossing) < r.BAR_LEFT
    image = render(offered, perspective=BLACK)
    assert not arrows - _arrow_pixels(image, theme.arrow)
    question = [
        x
        for x in range(r.INNER_LEFT, r.INNER_RIGHT)
        if pixel(image, (x, r.MIDDLE_Y)) == theme.movable
    ]
    assert question
    assert min(question) > max(crossing) or max(question) < min(crossing)


def test_a_stale_preview_is_ignored() -> None:
    state = bg.apply(bg.new_game(), Roll((3, 1)))
    assert render(state, preview_steps=((2, 1),)).tobytes() == render(state).tobytes()


def test_home_board_on_the_left_mirrors_the_points() -> None:
    with r.home_side(True):
        assert r.point_column(1) == (0, False)  # home board bottom left
        assert r.point_column(12) == (11, False)
        assert r.point_column(24) == (0, True)
    assert r.point_column(1) == (11, False)  # only inside the drawing


@pytest.mark.parametrize("seed", [7])
def test_a_mirrored_boards_markers_are_where_the_buttons_say(seed: int) -> None:
    """With the home board on the left, each movable point's lit number (what its button
    says) sits over that point's ringed top checker, the numbers read the right way round,
    and point 1 of the player at the bottom is at the bottom left."""
    checked = 0
    for state in playout(bg, seed, {"cube": False}):
        if state.phase is not Phase.MOVE or checked >= 6:
            continue
        checked += 1
        state = replace(state, last_play=None)
        mover, perspective = state.turn, checked % 2
        image, labels = render_labelled_board(
            state, perspective=perspective, home_left=True, theme="dark"
        )
        plain = render_labelled_board(state, perspective=perspective, theme="dark")[1]
        assert {label.text for label in labels} == {label.text for label in plain}
        movable = set(movable_points(state)) - {BAR}
        mine = state.position.mine
        with r.home_side(True):
            for point in movable:
                said = next(b for b in labels if b.text == point_label(point))
                middle = (said.box[0] + said.box[2]) / 2
                top = r.piece_centre(mover, point, mine[point - 1] - 1, perspective)
                assert abs(middle - top[0]) < r.POINT_W / 2, (point, middle, top)
                assert _ringed(image, top), point
        if mover == perspective:  # the mover's own point 1 at the bottom left
            one = next(b for b in labels if b.text == point_label(1))
            assert one.box[2] < r.BAR_LEFT and one.box[1] > r.MIDDLE_Y
    assert checked
