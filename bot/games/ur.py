"""The Royal Game of Ur (Finkel's rules): two seats, four binary dice, rosettes; with the
solved table installed (``tabula ur-table build``), the ``perfect`` level, /hint and reviews."""

from __future__ import annotations

from bot.ai import ur as ai
from bot.ai import ur_table
from bot.ai.levels import OWN, PERFECT
from bot.engines import ur as engine
from bot.games import ur_puzzles, ur_solved
from bot.games.files import GameFile
from bot.games.review import ChanceLook, ChanceReview, chance_review
from bot.games.spec import (
    GameSpec,
    built_in_catalogue,
    moves_only,
    seats_unused,
    worded,
)
from bot.games.ur_export import export_rgn, import_rgn
from bot.games.ur_menus import UrMenu
from bot.games.ur_texts import TITLE, UrTexts
from bot.vocabulary.errors import Msg, msg
from renderers import ur as renderer
from renderers import ur_rules
from renderers.review import lead_chart


def partial(review: ChanceReview) -> Msg | None:
    """That a table of fewer pieces judged only the end of the game (level ``perfect-N``)."""
    if review.complete:
        return None
    return msg("review.ur_partial", pieces=review.level.rpartition("-")[2])


REVIEW = chance_review(
    ur_solved.review,
    ChanceLook("review.ur_working", "review.ur_move", "review.ur_footer", lead_chart, partial),
    version=ur_solved.REVIEW_VERSION,
    current=ur_solved.current,
    needs_table=True,
    tutor=ur_solved.TUTOR,
)


TEXTS = UrTexts()

GAME: GameSpec[engine.UrState, engine.Move] = GameSpec(
    kind=engine.GAME,
    order=20,
    title=TITLE,
    rules=engine,
    renderer=renderer,
    menu=UrMenu(),
    texts=TEXTS,
    file=GameFile(".rgn", export_rgn, import_rgn),
    choose=moves_only(seats_unused(ai.choose_action)),
    ai_levels=(*OWN, PERFECT),
    solved=True,
    table_ready=lambda: ur_table.installed() is not None,
    table_build=ur_table.BUILD_COMMAND,
    review=REVIEW,
    hint=worded(ur_solved.table_hint, TEXTS.hint),
    start=ur_solved.start,
    rule_pictures=ur_rules.pictures,
    puzzles=ur_puzzles.SOURCE,
    catalogue=built_in_catalogue(engine.GAME),
    accents=renderer.ACCENTS,
)
