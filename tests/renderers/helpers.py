"""Shared helpers for the renderer tests: seeded playouts and pixel sampling."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from PIL import Image

from renderers import gallery

Colour = tuple[int, int, int]


def playout(rules: Any, seed: int, options: dict[str, Any] | None = None) -> Iterator[Any]:
    """Every state of one seeded random game, first to last."""
    return gallery.playout(rules, rules.new_game(options), random.Random(seed))


def pixel(image: Image.Image, xy: tuple[float, float]) -> Colour:
    value = image.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(value, tuple)
    return value[0], value[1], value[2]


def near(a: Colour, b: Colour, tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def _distance(a: Colour, b: Colour) -> int:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True))


def ink_height(
    image: Image.Image, box: tuple[int, int, int, int], ink: Colour, plate: Colour
) -> int:
    """Rows of ``image`` within ``box`` (and one pixel round it) that hold a glyph pixel: a
    pixel nearer the label's ink than the plate under it. 0 when nothing is printed there."""
    rgb = image.convert("RGB")
    left, top, right, bottom = box
    rows = [
        y
        for y in range(max(0, top - 1), min(rgb.height, bottom + 1))
        if any(
            _distance(pixel(rgb, (x, y)), ink) < _distance(pixel(rgb, (x, y)), plate)
            for x in range(max(0, left - 1), min(rgb.width, right + 1))
        )
    ]
    return rows[-1] - rows[0] + 1 if rows else 0


def contrast(a: Colour, b: Colour) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""

    def luminance(colour: Colour) -> float:
        channels = [c / 255 for c in colour]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)
