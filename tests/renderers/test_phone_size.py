"""Button labels stay legible where Discord shrinks a board to a phone's width (400 px).

Every label a player matches with a button (backgammon point numbers, "bar" and "off"; Ur
piece labels and "enter"; Ludo token numbers, on crowded squares and blocks too) is measured
in the PNG the bot sends: the rows that really hold its glyphs, not the size asked for.
"""

from __future__ import annotations

import io
import re
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

from bot.engines import backgammon as bg
from bot.engines import backgammon_labels, ludo, ludo_labels, ur, ur_labels
from bot.engines.common import Phase, Roll
from renderers import LabelBox, render_labelled, render_png
from renderers import backgammon as bg_renderer
from renderers import ludo as ludo_renderer
from renderers import ur as ur_renderer
from renderers.marks import PHONE_LABEL_PX, PHONE_WIDTH
from tests.renderers.helpers import contrast, ink_height

Scene = tuple[str, Any, dict[str, Any]]


def backgammon_scenes() -> list[Scene]:
    opening = bg.apply(bg.new_game(), Roll((3, 1)))
    entering = bg.BackgammonState(
        bg.Position.from_points({"bar": 1, 13: 4, 6: 5, 8: 3, 2: 2}, {24: 2, 6: 5, 13: 5}),
        bg.Phase.MOVE,
        1,
        dice=(3, 5),
    )
    return [
        ("opening move, mover at the bottom", opening, {"perspective": opening.turn}),
        ("opening move, mover at the top", opening, {"perspective": 1 - opening.turn}),
        ("a point selected, light theme", opening, {"highlight": 8, "theme": "light"}),
        ("entering from the bar", entering, {"perspective": 1}),
        ("entering from the bar, seen from above", entering, {"perspective": 0, "theme": "light"}),
    ]


def ur_scenes() -> list[Scene]:
    late = ur.UrState(
        ur.Position.from_squares([15, 15, 15, 14, 12, 9, 0], [15, 15, 13, 10, 6, 2, 0], "dark"),
        Phase.MOVE,
        ur.DARK,
        dice=(1, 0, 1, 0),
    )
    light = ur.UrState(
        ur.Position.from_squares([0, 0, 0, 4, 7, 11, 13], [0, 0, 5, 9, 14, 15, 15], "light"),
        Phase.MOVE,
        ur.LIGHT,
        dice=(1, 0, 0, 0),
    )
    return [
        ("entering, moving and bearing off", late, {"perspective": 1}),
        ("the same from the other side", late, {"perspective": 0, "theme": "light"}),
        ("a piece selected", light, {"highlight": 13}),
    ]


def ludo_to_move(steps: dict[str, list[int]], seat: str, dice: tuple[int, int]) -> ludo.LudoState:
    """``seat`` to move with ``dice`` just rolled, each seat's tokens at ``steps``."""
    return ludo.LudoState(
        position=ludo.Position.from_steps(steps, seat), phase=Phase.MOVE, dice=dice, rolled=dice
    )


def ludo_scenes() -> list[Scene]:
    # Red: a token in base, a block, a token sharing a square with blue and green (loop
    # square 19); blue: two tokens on one home-stretch square; yellow: a block of three.
    crowded = ludo_to_move(
        {
            "red": [0, 5, 5, 20],
            "blue": [8, 51, 51, 0],
            "green": [44, 30, 0, 54],
            "yellow": [22, 22, 22, 49],
        },
        "red",
        (6, 3),
    )
    four = ludo_to_move(
        {"red": [0, 0, 0, 0], "blue": [0, 0, 0, 0], "green": [7, 7, 7, 7], "yellow": [3, 0, 0, 0]},
        "green",
        (2, 1),
    )
    resigned = replace(crowded, position=replace(crowded.position, out=frozenset({1})))
    return [
        ("base, block, crowded square and home stretch", crowded, {"perspective": 0}),
        ("the same turned, light theme", crowded, {"perspective": 2, "theme": "light"}),
        ("a block of four", four, {"perspective": 3}),
        ("a resigned seat's tokens", resigned, {"perspective": 1}),
    ]


SCENES = {"backgammon": backgammon_scenes, "ur": ur_scenes, "ludo": ludo_scenes}
RENDERERS: dict[str, Any] = {"backgammon": bg_renderer, "ur": ur_renderer, "ludo": ludo_renderer}
LABELS: dict[str, Any] = {
    "backgammon": backgammon_labels,
    "ur": ur_labels,
    "ludo": ludo_labels,
}
# Every kind of label each game prints, by the text it carries.
KINDS = {
    "backgammon": {"bar", "off", *(str(p) for p in range(1, 25))},
    "ur": {"enter", "2", "6", "10", "13"},
    "ludo": {"1", "2", "3", "4", "1·2", "3·4"},
}


def _png(game: str, state: Any, options: dict[str, Any]) -> Image.Image:
    image = Image.open(io.BytesIO(render_png(state, renderer=RENDERERS[game], **options)))
    image.load()
    return image.convert("RGB")


def _button_words(game: str, state: Any) -> set[str]:
    """What the move buttons say now, cut into the words a board label carries."""
    words: set[str] = set()
    for label in LABELS[game].move_labels(state).values():
        if game == "backgammon":  # "bar/22* 13/11": points, never the "(2)" of a repeat
            words |= set(re.findall(r"(?<!\()\b(bar|off|\d+)\b", label))
        else:
            words.add(label)
    return words


def _printed_words(labels: list[LabelBox]) -> set[str]:
    return {word for label in labels for word in label.text.split("·")}


@pytest.mark.parametrize("game", sorted(SCENES))
def test_every_button_label_is_at_least_11_px_tall_at_phone_width(game: str) -> None:
    seen: set[str] = set()
    for name, state, options in SCENES[game]():
        image, labels = render_labelled(state, renderer=RENDERERS[game], **options)
        png = _png(game, state, options)
        assert png.size == image.size
        scale = PHONE_WIDTH / png.width
        assert labels, name
        for label in labels:
            left, top, right, bottom = label.box
            height = ink_height(png, label.box, label.ink, label.plate)
            # The box is where the glyphs are: they fill it from top to bottom...
            assert height >= bottom - top - 1, (name, label)
            # ...and stand at least 11 px tall on a phone.
            assert height * scale >= PHONE_LABEL_PX, (name, label.text, height * scale)
            assert right - left > 0
            assert contrast(label.ink, label.plate) >= 4.5, (name, label)
        seen |= {label.text for label in labels}
        # Whatever a button names now is printed on the board.
        missing = _button_words(game, state) - _printed_words(labels)
        assert not missing, (name, missing)
    assert KINDS[game] <= seen, KINDS[game] - seen


@pytest.mark.parametrize("game", sorted(SCENES))
def test_a_smaller_label_would_fail_the_measure(game: str) -> None:
    """The measure reads the pixels: the same box over a label drawn at half size is short."""
    from renderers.fonts import draw_text

    name, state, options = SCENES[game]()[0]
    _, labels = render_labelled(state, renderer=RENDERERS[game], **options)
    label = labels[0]
    left, top, right, bottom = label.box
    blank = Image.new("RGB", (PHONE_WIDTH * 3, PHONE_WIDTH * 3), label.plate)
    centre = ((left + right) / 2, (top + bottom) / 2)
    small = draw_text(blank, centre, label.text, 17, label.ink, bold=True)
    assert small[3] - small[1] < bottom - top
    height = ink_height(blank, label.box, label.ink, label.plate)
    assert height * PHONE_WIDTH / _png(game, state, options).width < PHONE_LABEL_PX, name
