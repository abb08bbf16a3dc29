"""Ludo, Tabula's four-seat variant with two dice: the AI fills empty seats and stands in for
idle players; results are places, and finished games can be reviewed by the AI's search."""

from __future__ import annotations

from bot.ai import ludo as ai
from bot.engines import ludo as engine
from bot.games.files import GameFile
from bot.games.ludo_export import export_ludo_json, import_ludo_json
from bot.games.ludo_menus import LudoMenu
from bot.games.ludo_texts import LudoTexts
from bot.games.spec import GameSpec, ReviewSpec, moves_only
from renderers import ludo as renderer
from renderers import ludo_rules

GAME = GameSpec(
    kind=engine.GAME,
    title="Ludo",
    rules=engine,
    renderer=renderer,
    menu=LudoMenu(),
    texts=LudoTexts(),
    file=GameFile(".json", export_ludo_json, import_ludo_json),
    choose=moves_only(ai.choose_action),
    review=ReviewSpec("bot.ui.ludo_review:show_ludo"),
    rule_pictures=ludo_rules.pictures,
)
