"""The high-contrast theme stays readable with the common colour-vision deficiencies: its
markers, and the seats' colours, are simulated as deuteranopes and protanopes see them
(Machado, Oliveira and Fernandes 2009, severity 1.0, applied to linear RGB) and must stay a
clear distance apart in CIELAB (CIE76 ΔE), from each other and from the background."""

from __future__ import annotations

import itertools

import pytest

from renderers import ludo
from renderers.theme import CONTRAST, get_theme

Colour = tuple[int, int, int]
Matrix = tuple[tuple[float, float, float], ...]

NORMAL: Matrix = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
PROTANOPIA: Matrix = (
    (0.152286, 1.052583, -0.204868),
    (0.114503, 0.786281, 0.099216),
    (-0.003882, -0.048116, 1.051998),
)
DEUTERANOPIA: Matrix = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
VISIONS = {"normal": NORMAL, "protanopia": PROTANOPIA, "deuteranopia": DEUTERANOPIA}
MARKER_DISTANCE = 25.0  # ΔE76: about a quarter of the way from black to white
SEAT_DISTANCE = 20.0


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def seen(colour: Colour, matrix: Matrix) -> tuple[float, float, float]:
    """The colour as the vision ``matrix`` simulates it, in CIELAB (D65)."""
    rgb = [_linear(c) for c in colour]
    r, g, b = (
        max(0.0, min(1.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in matrix
    )
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def distance(a: Colour, b: Colour, matrix: Matrix) -> float:
    return sum((p - q) ** 2 for p, q in zip(seen(a, matrix), seen(b, matrix), strict=True)) ** 0.5


@pytest.mark.parametrize("vision", VISIONS)
def test_contrast_markers_stay_apart(vision: str) -> None:
    theme = CONTRAST
    markers = {
        "movable": theme.movable,
        "arrow": theme.arrow,
        "preview": theme.preview,
        "turn": theme.turn,
        "background": theme.background,
    }
    for (name_a, a), (name_b, b) in itertools.combinations(markers.items(), 2):
        apart = distance(a, b, VISIONS[vision])
        assert apart >= MARKER_DISTANCE, f"{name_a} and {name_b}: ΔE {apart:.1f} ({vision})"
    assert distance(theme.text, theme.background, VISIONS[vision]) >= 90


@pytest.mark.parametrize("vision", VISIONS)
def test_seat_colours_stay_apart(vision: str) -> None:
    for a, b in itertools.combinations(ludo.ACCENTS, 2):
        apart = distance(a, b, VISIONS[vision])
        assert apart >= SEAT_DISTANCE, f"{a} and {b}: ΔE {apart:.1f} ({vision})"


def test_the_simulation_tells_red_from_green_only_with_normal_vision() -> None:
    """The check can fail: a plain red and green, far apart normally, merge for both."""
    red, green = (180, 70, 50), (90, 110, 50)
    assert distance(red, green, NORMAL) > 50
    assert distance(red, green, DEUTERANOPIA) < SEAT_DISTANCE
    assert distance(red, green, PROTANOPIA) < SEAT_DISTANCE


def test_contrast_is_a_theme_of_the_renderers() -> None:
    assert get_theme("contrast") is CONTRAST
