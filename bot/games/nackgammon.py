"""Nackgammon: backgammon from Nack Ballard's starting position (four back checkers: two on
the 24-point and two on the 23-point; four on the midpoint, three on the 8-point, four on
the 6-point), with the cube, matches, the expert AI, hints, reviews and ``.mat`` files as
backgammon has them. Its own parts are the engine's start (``bot.engines.nackgammon``), its
file's Variation tag, its rules and their first picture; the rest is backgammon's.

The expert (bgsage) judges any legal position, so it plays, hints and reviews Nackgammon as
it does backgammon. A position pasted into ``/analyze`` is a position (a GNU ID or an XGID
names the board, the cube and the score, not the set-up the game began from): it is judged
the same way whichever game it came from, and Share position prints a Nackgammon board's IDs
as it prints a backgammon board's.
"""

from __future__ import annotations

from dataclasses import replace

from bot.ai import backgammon as ai
from bot.ai.levels import EXPERT, OWN
from bot.ai.pool import ExpertPool
from bot.engines import backgammon as bg
from bot.engines import nackgammon as engine
from bot.games import backgammon_positions, backgammon_review
from bot.games.backgammon import expert_hint, logged_kind, rolls_itself
from bot.games.backgammon_export import mat_file
from bot.games.backgammon_menus import BackgammonMenu
from bot.games.backgammon_texts import COUNTED_ENDINGS, BackgammonTexts
from bot.games.review import Record, ReviewSpec
from bot.games.spec import GameSpec, TableOptions, built_in_catalogue, seats_unused, worded
from renderers import backgammon as renderer
from renderers import nackgammon_rules

VARIATION = "NackGammon"
"""The Variation tag GNU Backgammon writes in a Nackgammon match's ``.mat`` file."""


async def analyse(record: Record, expert: ExpertPool | None) -> backgammon_review.Review:
    """The expert's review of a finished Nackgammon game: backgammon's, its record replayed
    from the Nackgammon start (the expert's worker sets the game up from its options)."""
    started = replace(record, options={**record.options, "start": engine.START_ID})
    return await backgammon_review.analyse(started, expert)


TEXTS = BackgammonTexts()

GAME: GameSpec[bg.BackgammonState, bg.Decision] = GameSpec(
    kind=engine.GAME,
    order=11,
    title="Nackgammon",
    rules=engine,
    renderer=renderer,
    menu=BackgammonMenu(),
    texts=TEXTS,
    file=mat_file(engine, VARIATION),
    choose=seats_unused(ai.choose_action),
    options=TableOptions(points="match_length", cube="cube"),
    ai_levels=(*OWN, EXPERT),
    expert=True,
    review=ReviewSpec(
        "bot.ui.backgammon_review:show_backgammon",
        analyse=analyse,
        read=backgammon_review.Review.from_json,
        version=backgammon_review.REVIEW_VERSION,
        needs_expert=True,
        skill=backgammon_review.skill,
        pr=True,
    ),
    hint=worded(expert_hint, TEXTS.hint),
    positions=backgammon_positions.TOOLS,
    drawn_from_player_side=True,
    rule_pictures=nackgammon_rules.pictures,
    counted_endings=COUNTED_ENDINGS,
    time_controls=True,
    catalogue=built_in_catalogue(engine.GAME),
    logged_kind=logged_kind,
    rolls_itself=rolls_itself,
    finished_part=bg.finished_game,
    accents=renderer.ACCENTS,
)
