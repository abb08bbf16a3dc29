"""What Ur's solved table gives the bot (``tabula ur-table build`` makes it): installed when
the bot starts, it plays the ``perfect`` level, answers /hint and judges reviews.

The manifest (:mod:`bot.games.ur`) hands these to the rest of the bot as hooks:
:func:`start` (``GameSpec.start``), :func:`table_hint` (``GameSpec.hint``) and the review's
``analyse`` / ``current`` (:data:`REVIEW`), so nothing outside Ur's modules knows the table.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Final

from bot.ai import ur_table
from bot.ai.pool import ExpertPool
from bot.ai.ur_hint import UrHint, hint
from bot.ai.ur_review import analyse, judge_move
from bot.config import Settings, ur_table_path
from bot.engines import ur
from bot.engines.common import Phase
from bot.games.review import ChanceReview, Record, ReviewUnavailable, summarise_chances
from bot.games.tutor import TutorSpec, Verdict, verdict_of
from bot.games.ur_texts import TITLE
from bot.vocabulary.errors import TabulaError
from bot.vocabulary.review_labels import BLUNDER_LOSS, MISTAKE_LOSS

__all__ = [
    "LEVEL",
    "REVIEW_VERSION",
    "TUTOR",
    "install_table",
    "level",
    "review",
    "start",
    "table_hint",
]

log = logging.getLogger(__name__)

LEVEL: Final = "perfect"
# What the refusals say when the table is missing (as GameSpec.table_missing does elsewhere).
MISSING: Final = {"game": TITLE, "command": ur_table.BUILD_COMMAND}
# 2: moves hold their roll as ``dice`` and the chart both sides' chances (1: ``roll``, light's).
REVIEW_VERSION: Final = 3  # bump when the numbers or the JSON change: old rows are redone


def install_table(path: Path) -> ur_table.UrTable | None:
    """Install the solved table at ``path`` for this process (bot start-up), saying in the
    log what that offers; ``None`` (and the reason logged) where there is none."""
    try:
        table = ur_table.install(path)
    except ur_table.TableError as error:
        # No table is an ordinary set-up; a table that cannot be read is a problem.
        report = log.info if not path.exists() else log.warning
        report("Ur's perfect level, hints and reviews are off: %s", error)
        return None
    if table is not None:
        what = "the full game" if table.complete else f"{table.pieces} pieces a side (a test table)"
        log.info("solved Ur table %s: %s, for perfect, hints and reviews", path, what)
    return table


def start(config: Settings) -> Callable[[], object]:
    """At bot start-up: install the table the settings name; the returned call removes it."""
    install_table(ur_table_path(config))
    return partial(ur_table.install, None)


async def table_hint(state: ur.UrState, expert: ExpertPool | None) -> UrHint:
    """/hint for an Ur game from the installed table; refuses (``hint.no_table``,
    ``hint.outside_table``) where there is none or it does not cover the position."""
    table = ur_table.installed()
    if table is None:
        raise TabulaError("hint.no_table", **MISSING)
    try:
        return hint(state, table)
    except ur_table.NotCovered:
        raise TabulaError(
            "hint.outside_table",
            pieces=table.pieces,
            off=ur.PIECES - table.pieces,
            command=ur_table.BUILD_COMMAND,
        ) from None


def level() -> str | None:
    """The level reviews are stored under: ``perfect``, or ``perfect-N`` from a table of
    N < 7 pieces (so that building the full table later redoes them); None: no table."""
    table = ur_table.installed()
    if table is None:
        return None
    return LEVEL if table.complete else f"{LEVEL}-{table.pieces}"


def current(stored_level: str) -> bool:
    """Whether a review made at ``stored_level`` is the installed table's."""
    return stored_level == level()


def review(record: Record) -> ChanceReview:
    """Both players' moves judged by the installed table (in a worker thread: the table's
    pages may come from disk)."""
    table, made_at = ur_table.installed(), level()
    if table is None or made_at is None:
        raise ReviewUnavailable("error.review_no_table", **MISSING)
    analysis = analyse(record.notations, table)
    return summarise_chances(
        analysis,
        range(len(ur.SEATS)),
        game_id=record.game_id,
        level=made_at,
        version=REVIEW_VERSION,
    )


async def judge(state: ur.UrState, action: object, expert: ExpertPool | None) -> Verdict | None:
    """Tutor mode: ``action`` judged by the installed table, as the review judges a move (a
    few table look-ups); ``None`` without a table, outside it, or with no real choice."""
    table = ur_table.installed()
    if table is None or not isinstance(action, ur.Move) or state.phase is not Phase.MOVE:
        return None
    return verdict_of(judge_move(state, action, table))


# Questioned from a blunder; never below a mistake (the review's labels).
TUTOR: Final = TutorSpec(judge, BLUNDER_LOSS, MISTAKE_LOSS, "chance")
