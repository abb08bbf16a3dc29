"""Backgammon: two seats, single games or matches to N points, the doubling cube, and the
bgsage expert (its strongest AI level, /hint lines and post-game reviews)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.ai import backgammon as ai
from bot.engines import backgammon as engine
from bot.games.backgammon_export import export_mat, import_mat
from bot.games.backgammon_menus import BackgammonMenu
from bot.games.backgammon_texts import COUNTED_ENDINGS, BackgammonTexts
from bot.games.files import GameFile
from bot.games.spec import EXPERT, LEVELS, Asked, GameSpec, ReviewSpec, TableOptions
from bot.i18n import tr
from bot.service.options import HINTS
from renderers import backgammon as renderer
from renderers import backgammon_rules


class BackgammonOptions(TableOptions):
    """``points`` (match length, 1: a single game), ``cube``, and ``hints`` (both players may
    ask the expert; such games are never rated)."""

    def parse(self, asked: Asked) -> dict[str, Any]:
        options: dict[str, Any] = {"match_length": asked.points, "cube": asked.cube}
        if asked.hints:
            options[HINTS] = True
        return options

    def describe(self, options: Mapping[str, Any], locale: str | None) -> list[str]:
        length = int(options.get("match_length", 1))
        parts = [
            tr("options.match", locale, points=length)
            if length > 1
            else tr("options.single", locale)
        ]
        cube = "options.cube_on" if options.get("cube", True) else "options.cube_off"
        parts.append(tr(cube, locale))
        if options.get(HINTS):
            parts.append(tr("options.hints", locale))
        return parts


GAME = GameSpec(
    kind=engine.GAME,
    title="Backgammon",
    rules=engine,
    renderer=renderer,
    menu=BackgammonMenu(),
    texts=BackgammonTexts(),
    file=GameFile(".mat", export_mat, import_mat),
    choose=ai.choose_action,
    options=BackgammonOptions(),
    ai_levels=(*LEVELS, EXPERT),
    expert=True,
    review=ReviewSpec("bot.ui.review:show_backgammon", needs_expert=True),
    drawn_from_player_side=True,
    rule_pictures=backgammon_rules.pictures,
    counted_endings=COUNTED_ENDINGS,
)
