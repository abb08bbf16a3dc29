"""Colours for Discord's dark and light themes.

The page colours follow Discord's own backgrounds so an image sits flush in the chat. Game
pieces keep one look in both themes (they are objects on a board); only the chrome around
them (background, text, markers) changes. Sides always differ by lightness and by a mark,
never by hue alone, so the boards read the same for colour-blind players.
"""

from __future__ import annotations

from dataclasses import dataclass

from renderers.fonts import Colour

THEMES: tuple[str, ...] = ("dark", "light", "contrast")


@dataclass(frozen=True, slots=True)
class Theme:
    name: str
    background: Colour
    panel: Colour  # the player strips and side panels
    text: Colour
    muted: Colour
    turn: Colour  # the strip of the seat on turn
    turn_text: Colour
    movable: Colour  # ring and badge of a piece that may move now
    movable_text: Colour
    arrow: Colour  # the last move
    arrow_edge: Colour
    preview: Colour  # steps chosen but not yet confirmed
    banner: Colour
    banner_text: Colour
    frame: Colour  # wood around a board
    frame_edge: Colour

    @property
    def chrome(self) -> tuple[Colour, ...]:
        """The colours every game's palette pins first: strips, text, markers, arrows, the
        game-over banner."""
        return (
            self.background,
            self.panel,
            self.text,
            self.muted,
            self.turn,
            self.turn_text,
            self.movable,
            self.movable_text,
            self.arrow,
            self.preview,
            self.banner,
            self.banner_text,
        )


DARK = Theme(
    name="dark",
    background=(49, 51, 56),
    panel=(35, 36, 40),
    text=(242, 243, 245),
    muted=(160, 165, 173),
    turn=(88, 101, 242),
    turn_text=(255, 255, 255),
    movable=(255, 196, 0),
    movable_text=(20, 20, 20),
    arrow=(64, 196, 255),
    arrow_edge=(10, 30, 50),
    preview=(255, 128, 64),
    banner=(20, 21, 24),
    banner_text=(255, 255, 255),
    frame=(92, 62, 40),
    frame_edge=(58, 38, 24),
)

LIGHT = Theme(
    name="light",
    background=(255, 255, 255),
    panel=(235, 237, 240),
    text=(20, 22, 26),
    muted=(92, 96, 104),
    turn=(71, 82, 196),
    turn_text=(255, 255, 255),
    movable=(255, 186, 0),
    movable_text=(20, 20, 20),
    arrow=(0, 114, 178),
    arrow_edge=(255, 255, 255),
    preview=(213, 94, 0),
    banner=(32, 34, 37),
    banner_text=(255, 255, 255),
    frame=(150, 104, 66),
    frame_edge=(104, 70, 42),
)


# High contrast, safe for the common colour-vision deficiencies: black and white chrome, and
# markers from Okabe and Ito's palette that stay apart under deuteranopia and protanopia
# (tests/renderers/test_contrast_theme.py simulates both): yellow for what may move, sky
# blue for the last move, vermilion for the steps not yet confirmed.
CONTRAST = Theme(
    name="contrast",
    background=(0, 0, 0),
    panel=(28, 28, 28),
    text=(255, 255, 255),
    muted=(200, 200, 200),
    turn=(255, 255, 255),
    turn_text=(0, 0, 0),
    movable=(240, 228, 66),
    movable_text=(0, 0, 0),
    arrow=(86, 180, 233),
    arrow_edge=(0, 0, 0),
    preview=(213, 94, 0),
    banner=(255, 255, 255),
    banner_text=(0, 0, 0),
    frame=(60, 60, 60),
    frame_edge=(255, 255, 255),
)


def get_theme(name: str) -> Theme:
    if name == "dark":
        return DARK
    if name == "light":
        return LIGHT
    if name == "contrast":
        return CONTRAST
    raise ValueError(f"Unknown theme {name!r}; use one of {', '.join(THEMES)}.")


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """``a`` moved a fraction ``t`` of the way to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )
