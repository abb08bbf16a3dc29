"""Backgammon: two seats, single games or matches to N points, the doubling cube, and the
bgsage expert (its strongest AI level, /hint lines and post-game reviews)."""

from __future__ import annotations

from bot.ai import backgammon as ai
from bot.ai.backgammon_analysis import HintLine
from bot.ai.bgsage_engine import ExpertUnavailable
from bot.ai.levels import EXPERT, OWN
from bot.ai.pool import ExpertPool
from bot.engines import backgammon as engine
from bot.games import (
    backgammon_import,
    backgammon_positions,
    backgammon_puzzles,
    backgammon_review,
)
from bot.games.backgammon_export import export_mat, import_mat
from bot.games.backgammon_menus import BackgammonMenu
from bot.games.backgammon_texts import COUNTED_ENDINGS, BackgammonTexts
from bot.games.files import GameFile
from bot.games.review import ReviewSpec
from bot.games.spec import GameSpec, TableOptions, built_in_catalogue, seats_unused, worded
from bot.vocabulary.errors import TabulaError
from renderers import backgammon as renderer
from renderers import backgammon_rules


def logged_kind(action: engine.Action) -> str:
    """A double, a take and a drop are cube actions in the log; everything else a move."""
    return "cube" if isinstance(action, engine.Double | engine.Take | engine.Drop) else "move"


def rolls_itself(state: engine.BackgammonState) -> bool:
    """The opening roll (each side's die decides who starts) is nobody's choice or action."""
    return state.phase is engine.Phase.OPENING


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
    order=10,
    title="Backgammon",
    rules=engine,
    renderer=renderer,
    menu=BackgammonMenu(),
    texts=TEXTS,
    file=GameFile(".mat", export_mat, import_mat),
    choose=seats_unused(ai.choose_action),
    # ``points``: the match length (1: a single game); ``hints``: both players may ask the
    # expert (such games are never rated).
    options=TableOptions(points="match_length", cube="cube"),
    ai_levels=(*OWN, EXPERT),
    expert=True,
    review=ReviewSpec(
        "bot.ui.backgammon_review:show_backgammon",
        analyse=backgammon_review.analyse,
        read=backgammon_review.Review.from_json,
        version=backgammon_review.REVIEW_VERSION,
        needs_expert=True,
        skill=backgammon_review.skill,
        pr=True,
        tutor=backgammon_review.TUTOR,
    ),
    hint=worded(expert_hint, TEXTS.hint),
    positions=backgammon_positions.TOOLS,
    drawn_from_player_side=True,
    rule_pictures=backgammon_rules.pictures,
    counted_endings=COUNTED_ENDINGS,
    time_controls=True,
    puzzles=backgammon_puzzles.SOURCE,
    catalogue=built_in_catalogue(engine.GAME),
    logged_kind=logged_kind,
    rolls_itself=rolls_itself,
    finished_part=engine.finished_game,
    accents=renderer.ACCENTS,
    readers=backgammon_import.READERS,
)
