"""The pictures ``/rules`` shows: one board per rule, the move that shows it drawn on it.

Each picture is a real engine position: either a roll about to be played with the piece
that makes the point selected (its label on a plate, the path drawn as a preview), or the
position right after that move, with the move's arrow. Positions are built with the engines'
public constructors and moves are played with the engines themselves, so a picture cannot
show a move the rules forbid. Pictures are drawn once per game and theme and then cached.

Caption keys are ``rules.picture.<game>.<rule>`` in the locale catalogues.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.engines import backgammon as bg
from bot.engines import ludo, ur
from bot.engines.common import Phase
from renderers import render_png
from renderers.memo import cached


@dataclass(frozen=True, slots=True)
class RulePicture:
    """``before``: the position the rule acts on; ``action``: the move or cube action that
    shows it; ``state``: what is drawn (``before`` with the move selected, or the position
    after it), with the render ``options``."""

    game: str
    rule: str
    before: Any
    action: Any
    state: Any
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def caption_key(self) -> str:
        return f"rules.picture.{self.game}.{self.rule}"


# ---------------------------------------------------------------------------------------- Ur


def _ur_selected(
    rule: str, light: list[int], dark: list[int], roll: int, source: int
) -> RulePicture:
    """Light to play ``roll`` with the piece on ``source`` selected."""
    dice = tuple(1 if i < roll else 0 for i in range(4))
    state = ur.UrState(
        ur.Position.from_squares(light, dark, "light"), Phase.MOVE, ur.LIGHT, dice=dice
    )
    move = next(m for m in ur.legal_actions(state) if m.source == source)
    return RulePicture("ur", rule, state, move, state, {"highlight": source, "perspective": 0})


def ur_pictures() -> list[RulePicture]:
    return [
        _ur_selected("enter", [0, 0, 0, 0, 0, 3, 6], [0, 0, 0, 0, 0, 2, 7], 2, ur.START),
        _ur_selected("capture", [0, 0, 0, 0, 0, 1, 6], [0, 0, 0, 0, 0, 3, 9], 3, 6),
        _ur_selected("rosette", [0, 0, 0, 0, 0, 2, 5], [0, 0, 0, 0, 0, 6, 10], 3, 5),
        _ur_selected("bear_off", [15, 15, 15, 15, 13, 11, 0], [15, 15, 0, 0, 5, 12, 14], 2, 13),
    ]


# -------------------------------------------------------------------------------------- Ludo


def _ludo_played(
    rule: str, steps: dict[str, list[int]], die: int, other: int, token: int
) -> RulePicture:
    """Red plays ``die`` with ``token`` (``other``, the roll's second die, already used)."""
    before = ludo.LudoState(
        ludo.Position.from_steps(steps, "red"), Phase.MOVE, dice=(die,), rolled=(die, other)
    )
    move = next(m for m in ludo.legal_actions(before) if m.token == token)
    after = ludo.apply(before, move)
    return RulePicture("ludo", rule, before, move, after, {"perspective": 0})


def ludo_pictures() -> list[RulePicture]:
    return [
        _ludo_played(
            "leave_base",
            {"red": [0, 0, 0, 14], "blue": [3, 0, 0, 0], "green": [0] * 4, "yellow": [9, 0, 0, 0]},
            6,
            2,
            0,
        ),
        _ludo_played(
            # Yellow's token on its step 24 is on red's step 12.
            "capture",
            {"red": [9, 0, 0, 0], "blue": [0] * 4, "green": [5, 0, 0, 0], "yellow": [24, 0, 0, 0]},
            3,
            1,
            0,
        ),
        _ludo_played(
            # Blue's token two squares behind the new block (blue's step 6, red's step 18).
            "block",
            {"red": [17, 20, 0, 0], "blue": [6, 0, 0, 0], "green": [0] * 4, "yellow": [0] * 4},
            3,
            1,
            0,
        ),
        _ludo_played(
            "home",
            {"red": [51, 54, 30, 0], "blue": [20, 0, 0, 0], "green": [0] * 4, "yellow": [0] * 4},
            3,
            2,
            0,
        ),
    ]


# -------------------------------------------------------------------------------- Backgammon


def _bg_played(
    rule: str,
    mine: dict[int | str, int],
    theirs: dict[int | str, int],
    dice: tuple[int, int],
    wanted: Callable[[bg.LastPlay], bool],
) -> RulePicture:
    """White to play ``dice``, drawn with the first legal play whose result ``wanted``
    accepts as a preview: the points still numbered from white's side, the dice shown."""
    before = bg.BackgammonState(bg.Position.from_points(mine, theirs), Phase.MOVE, 0, dice=dice)
    for play in bg.legal_plays_for(before):
        after = bg.apply(before, play)
        if after.last_play is not None and wanted(after.last_play):
            options = {"perspective": 0, "preview_steps": play.steps}
            return RulePicture("backgammon", rule, before, play, before, options)
    raise ValueError(f"No play shows {rule!r}.")


def backgammon_pictures() -> list[RulePicture]:
    enter = _bg_played(
        "enter",
        {"bar": 1, 13: 4, 8: 3, 6: 5, 24: 2},
        {24: 2, 13: 5, 8: 3, 6: 4, 5: 1},
        (4, 2),
        lambda last: last.steps[0][0] == bg.BAR and not any(last.hits),
    )
    hit = _bg_played(
        "hit",
        {13: 5, 8: 3, 6: 5, 24: 2},
        {24: 2, 13: 5, 8: 3, 6: 4, 3: 1},
        (2, 1),
        lambda last: last.hits[0],
    )
    bear_off = _bg_played(
        "bear_off",
        {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2},
        {13: 5, 8: 5, 6: 5},
        (6, 4),
        lambda last: all(target == bg.OFF for _, target in last.steps),
    )
    # After white's entry, black doubles: the offer with white's play still in view.
    entered = bg.apply(enter.before, enter.action)
    offered = bg.apply(entered, bg.Double())
    cube = RulePicture("backgammon", "cube", entered, bg.Double(), offered, {"perspective": 0})
    return [enter, hit, bear_off, cube]


PICTURES: dict[str, Callable[[], list[RulePicture]]] = {
    "ur": ur_pictures,
    "ludo": ludo_pictures,
    "backgammon": backgammon_pictures,
}


@cached
def pictures(game: str) -> tuple[RulePicture, ...]:
    """The pictures of ``game``'s rules, in the order the rules text tells them."""
    if game not in PICTURES:
        raise ValueError(f"No rule pictures for {game!r}.")
    return tuple(PICTURES[game]())


@cached
def picture_pngs(game: str, theme: str = "dark") -> tuple[tuple[str, bytes], ...]:
    """``(caption key, PNG)`` per picture of ``game``, drawn on the first call only."""
    return tuple(
        (picture.caption_key, render_png(picture.state, theme=theme, **picture.options))
        for picture in pictures(game)
    )
