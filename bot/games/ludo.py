"""Ludo, Tabula's four-seat variant with two dice: the AI fills empty seats and stands in for
idle players; results are places, and finished games can be reviewed by the AI's search."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Final

from PIL import Image

from bot.ai import ludo as ai
from bot.ai.levels import EXPERT, OWN
from bot.ai.ludo_review import analyse, judge_move
from bot.ai.pool import ExpertPool
from bot.engines import ludo as engine
from bot.engines.common import Phase
from bot.games import ludo_puzzles
from bot.games.files import GameFile
from bot.games.ludo_export import export_ludo_json, import_ludo_json
from bot.games.ludo_menus import LudoMenu
from bot.games.ludo_texts import LudoTexts
from bot.games.review import ChanceLook, ChanceReview, Record, chance_review
from bot.games.review import summarise_chances as summarise
from bot.games.spec import GameSpec, built_in_catalogue, moves_only
from bot.games.tutor import TutorSpec, Verdict, verdict_of
from bot.vocabulary.errors import Msg, msg
from bot.vocabulary.review_labels import GOOD_LOSS, MISTAKE_LOSS
from renderers import ludo as renderer
from renderers import ludo_rules
from renderers.review import seat_chart

REVIEW_LEVEL: Final = "hard"  # the AI level whose search judges the moves


def review(record: Record) -> ChanceReview:
    """The moves of the seats people held, judged by the hard AI's search (well under a
    second for a whole game, in a worker thread)."""
    analysis = analyse(record.notations, record.people)
    return summarise(analysis, record.people, game_id=record.game_id, level=REVIEW_LEVEL)


def chart(series: Sequence[tuple[int, Sequence[float]]], names: Sequence[str]) -> Image.Image:
    return seat_chart(series, names, renderer.COLOURS)


def nobody(review: ChanceReview) -> Msg | None:
    return None if review.players else msg("review.ludo_nobody")


async def judge(
    state: engine.LudoState, action: object, expert: ExpertPool | None
) -> Verdict | None:
    """Tutor mode: ``action`` judged by the review's search (the hard AI's), in a worker
    thread; ``None`` with no real choice."""
    if not isinstance(action, engine.Move) or state.phase is not Phase.MOVE:
        return None
    return verdict_of(await asyncio.to_thread(judge_move, state, action))


# Four-seat chances start at 25 %, so Ludo's losses are smaller than Ur's (see its review):
# questioned from a mistake, never below an inaccuracy.
TUTOR: Final = TutorSpec(judge, MISTAKE_LOSS, GOOD_LOSS, "chance")

REVIEW = chance_review(
    review,
    ChanceLook("review.ludo_working", "review.ludo_move", "review.ludo_footer", chart, nobody, 0.5),
    version=2,  # 2: each player's loss, its squares and agreement (the skill record)
    current=lambda level: level == REVIEW_LEVEL,
    tutor=TUTOR,
)


GAME: GameSpec[engine.LudoState, engine.Move] = GameSpec(
    kind=engine.GAME,
    order=30,
    title="Ludo",
    rules=engine,
    renderer=renderer,
    menu=LudoMenu(),
    texts=LudoTexts(),
    file=GameFile(".json", export_ludo_json, import_ludo_json),
    choose=moves_only(ai.choose_action),
    ai_levels=(*OWN, EXPERT),
    review=REVIEW,
    rule_pictures=ludo_rules.pictures,
    puzzles=ludo_puzzles.SOURCE,
    catalogue=built_in_catalogue(engine.GAME),
    accents=renderer.ACCENTS,
)
