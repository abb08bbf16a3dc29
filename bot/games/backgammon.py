"""Backgammon: two seats, single games or matches to N points, the doubling cube, and the
bgsage expert (its strongest AI level, /hint lines and post-game reviews)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.ai import backgammon as ai
from bot.ai.backgammon_analysis import HintLine
from bot.ai.bgsage_engine import ExpertUnavailable
from bot.ai.pool import ExpertPool
from bot.engines import backgammon as engine
from bot.games import backgammon_positions, backgammon_puzzles, backgammon_review
from bot.games.backgammon_export import export_mat, import_mat
from bot.games.backgammon_menus import BackgammonMenu
from bot.games.backgammon_texts import COUNTED_ENDINGS, BackgammonTexts
from bot.games.files import GameFile
from bot.games.review import ReviewSpec
from bot.games.spec import EXPERT, LEVELS, Asked, GameSpec, TableOptions, seats_unused, worded
from bot.vocabulary.errors import Msg, TabulaError, msg
from bot.vocabulary.options import HINTS
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

    def describe(self, options: Mapping[str, Any]) -> list[Msg]:
        length = int(options.get("match_length", 1))
        parts = [msg("options.match", points=length) if length > 1 else msg("options.single")]
        parts.append(msg("options.cube_on" if options.get("cube", True) else "options.cube_off"))
        if options.get(HINTS):
            parts.append(msg("options.hints"))
        return parts


async def expert_hint(state: engine.BackgammonState, expert: ExpertPool | None) -> list[HintLine]:
    """/hint: the expert engine's best lines for the player on turn."""
    if expert is None:
        raise TabulaError("hint.unavailable")
    try:
        return await expert.hint(state)
    except (ExpertUnavailable, TimeoutError):
        raise TabulaError("hint.unavailable") from None


TEXTS = BackgammonTexts()

GAME: GameSpec[engine.BackgammonState, engine.Decision] = GameSpec(
    kind=engine.GAME,
    title="Backgammon",
    rules=engine,
    renderer=renderer,
    menu=BackgammonMenu(),
    texts=TEXTS,
    file=GameFile(".mat", export_mat, import_mat),
    choose=seats_unused(ai.choose_action),
    options=BackgammonOptions(),
    ai_levels=(*LEVELS, EXPERT),
    expert=True,
    review=ReviewSpec(
        "bot.ui.backgammon_review:show_backgammon",
        analyse=backgammon_review.analyse,
        read=backgammon_review.Review.from_json,
        version=backgammon_review.REVIEW_VERSION,
        needs_expert=True,
    ),
    hint=worded(expert_hint, TEXTS.hint),
    positions=backgammon_positions.TOOLS,
    drawn_from_player_side=True,
    rule_pictures=backgammon_rules.pictures,
    counted_endings=COUNTED_ENDINGS,
    time_controls=True,
    puzzles=backgammon_puzzles.SOURCE,
)
