"""Hypergammon: backgammon with three checkers a side (on each side's 24-, 23- and
22-points), with the cube, gammons, backgammons and matches as backgammon has them, solved:
with the table installed (``tabula hyper-table build``) the ``perfect`` level plays every
checker play and cube action perfectly for money and single games, and /hint, reviews and
tutor mode are exact. Without it the levels are backgammon's own AI (easy, medium, hard;
``perfect`` plays as hard). The bgsage expert is not offered: its networks are trained on
fifteen checkers, and the table finds it no better than hard at three (docs/playing.md).

Its own parts are the engine's start (``bot.engines.hypergammon``), the table and its
solver, its AI, review and hooks, its file's Variation tag, its rules and their first
picture; the rest (menus, texts, board, ``.mat``) is backgammon's.
"""

from __future__ import annotations

from bot.ai import hypergammon as ai
from bot.ai import hypergammon_table as table
from bot.ai.levels import OWN, PERFECT
from bot.engines import backgammon as bg
from bot.engines import hypergammon as engine
from bot.games import backgammon_review, hypergammon_solved
from bot.games.backgammon import logged_kind, rolls_itself
from bot.games.backgammon_export import mat_file
from bot.games.backgammon_menus import BackgammonMenu
from bot.games.backgammon_texts import COUNTED_ENDINGS, BackgammonTexts
from bot.games.review import ReviewSpec
from bot.games.spec import (
    GameSpec,
    TableOptions,
    TableTool,
    built_in_catalogue,
    seats_unused,
    worded,
)
from bot.hypergammon_table_command import COMMAND
from bot.hypergammon_table_command import run as table_command
from renderers import backgammon as renderer
from renderers import hypergammon_rules

VARIATION = "HyperGammon (3)"
"""The Variation tag GNU Backgammon writes in a 3-checker Hypergammon match's ``.mat``."""

GAME: GameSpec[bg.BackgammonState, bg.Decision] = GameSpec(
    kind=engine.GAME,
    order=12,
    title=hypergammon_solved.TITLE,
    rules=engine,
    renderer=renderer,
    menu=BackgammonMenu(),
    texts=BackgammonTexts(),
    file=mat_file(engine, VARIATION),
    choose=seats_unused(ai.choose_action),
    options=TableOptions(points="match_length", cube="cube"),
    ai_levels=(*OWN, PERFECT),
    solved=True,
    table_ready=lambda: hypergammon_solved.ready() is not None,
    table_build=table.BUILD_COMMAND,
    table_tool=TableTool(COMMAND, table_command, table.FILE),
    review=ReviewSpec(
        "bot.ui.backgammon_review:show_backgammon",
        analyse=hypergammon_solved.analyse,
        read=backgammon_review.Review.from_json,
        version=hypergammon_solved.REVIEW_VERSION,
        current=hypergammon_solved.current,
        needs_table=True,
        skill=backgammon_review.skill,
        pr=True,
        tutor=hypergammon_solved.TUTOR,
    ),
    hint=worded(hypergammon_solved.table_hint, hypergammon_solved.words),
    start=hypergammon_solved.start,
    drawn_from_player_side=True,
    rule_pictures=hypergammon_rules.pictures,
    counted_endings=COUNTED_ENDINGS,
    time_controls=True,
    catalogue=built_in_catalogue(engine.GAME),
    logged_kind=logged_kind,
    rolls_itself=rolls_itself,
    finished_part=bg.finished_game,
    accents=renderer.ACCENTS,
)
