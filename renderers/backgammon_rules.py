"""The pictures ``/rules`` shows for backgammon: white's roll with the play that shows the rule
as a preview (entering from the bar, hitting, bearing off), then a double offered."""

from __future__ import annotations

from collections.abc import Callable

from bot.engines import backgammon as bg
from bot.engines.backgammon import Phase
from renderers.rule_pictures import RulePicture
from renderers.view import ViewOptions

Picture = RulePicture[bg.BackgammonState, bg.Decision]


def _bg_played(
    rule: str,
    mine: dict[int | str, int],
    theirs: dict[int | str, int],
    dice: tuple[int, int],
    wanted: Callable[[bg.LastPlay], bool],
) -> Picture:
    """White to play ``dice``, drawn with the first legal play whose result ``wanted``
    accepts as a preview: the points still numbered from white's side, the dice shown."""
    before = bg.BackgammonState(bg.Position.from_points(mine, theirs), Phase.MOVE, 0, dice=dice)
    for play in bg.legal_plays_for(before):
        after = bg.apply(before, play)
        if after.last_play is not None and wanted(after.last_play):
            options: ViewOptions = {"perspective": 0, "preview_steps": play.steps}
            return RulePicture(bg.GAME, rule, before, play, before, options)
    raise ValueError(f"No play shows {rule!r}.")


def pictures() -> list[Picture]:
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
    cube: Picture = RulePicture(bg.GAME, "cube", entered, bg.Double(), offered, {"perspective": 0})
    return [enter, hit, bear_off, cube]
