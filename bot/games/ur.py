"""The Royal Game of Ur (Finkel's rules): two seats, four binary dice, rosettes; with the
solved table installed (``tabula ur-table build``), the ``perfect`` level, /hint and reviews."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.ai import ur as ai
from bot.ai import ur_table
from bot.engines import ur as engine
from bot.games.files import GameFile
from bot.games.spec import LEVELS, PERFECT, Asked, GameSpec, ReviewSpec, TableOptions, moves_only
from bot.games.ur_export import export_rgn, import_rgn
from bot.games.ur_menus import UrMenu
from bot.games.ur_texts import UrTexts
from bot.i18n import tr
from bot.service.options import HINTS
from renderers import ur as renderer
from renderers import ur_rules


class UrOptions(TableOptions):
    """``hints``: both players may ask the solved table (such games are never rated)."""

    def parse(self, asked: Asked) -> dict[str, Any]:
        return {HINTS: True} if asked.hints else {}

    def describe(self, options: Mapping[str, Any], locale: str | None) -> list[str]:
        return [tr("options.hints", locale)] if options.get(HINTS) else []


GAME = GameSpec(
    kind=engine.GAME,
    title="Royal Game of Ur",
    rules=engine,
    renderer=renderer,
    menu=UrMenu(),
    texts=UrTexts(),
    file=GameFile(".rgn", export_rgn, import_rgn),
    choose=moves_only(ai.choose_action),
    options=UrOptions(),
    ai_levels=(*LEVELS, PERFECT),
    solved=True,
    table_ready=lambda: ur_table.installed() is not None,
    review=ReviewSpec("bot.ui.ur_review:show_ur", needs_table=True),
    rule_pictures=ur_rules.pictures,
)
