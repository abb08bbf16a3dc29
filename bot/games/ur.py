"""The Royal Game of Ur (Finkel's rules): two seats, four binary dice, rosettes."""

from __future__ import annotations

from bot.ai import ur as ai
from bot.engines import ur as engine
from bot.games.files import GameFile
from bot.games.spec import GameSpec, moves_only
from bot.games.ur_export import export_rgn, import_rgn
from bot.games.ur_menus import UrMenu
from bot.games.ur_texts import UrTexts
from renderers import ur as renderer
from renderers import ur_rules

GAME = GameSpec(
    kind=engine.GAME,
    title="Royal Game of Ur",
    rules=engine,
    renderer=renderer,
    menu=UrMenu(),
    texts=UrTexts(),
    file=GameFile(".rgn", export_rgn, import_rgn),
    choose=moves_only(ai.choose_action),
    rule_pictures=ur_rules.pictures,
)
