"""What Hypergammon's solved table gives the bot (``tabula hyper-table build`` makes it):
installed when the bot starts, it plays the ``perfect`` level, answers /hint, judges the
review and tutor mode, all exactly. The manifest hands these to the bot as hooks.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Final

from bot.ai import hypergammon_table as table
from bot.ai.hypergammon import cube_decision, position_values, scored_plays
from bot.ai.hypergammon_review import analyse_game, judge_play
from bot.ai.pool import ExpertPool
from bot.config import Settings, game_table_path
from bot.engines import backgammon as bg
from bot.engines import hypergammon
from bot.engines.backgammon import BackgammonState, Phase, Play
from bot.formats import decimal
from bot.games import backgammon_review
from bot.games.review import Record, ReviewUnavailable
from bot.games.tutor import TutorSpec, Verdict
from bot.i18n import tr
from bot.vocabulary.errors import TabulaError

__all__ = [
    "LEVEL",
    "REVIEW_VERSION",
    "TUTOR",
    "HyperHint",
    "analyse",
    "current",
    "install_table",
    "ready",
    "start",
    "table_hint",
    "words",
]

log = logging.getLogger(__name__)

LEVEL: Final = "perfect"
TITLE: Final = "Hypergammon"
MISSING: Final = {"game": TITLE, "command": table.BUILD_COMMAND}
REVIEW_VERSION: Final = 1
HINT_LINES: Final = 5


def install_table(path: Path) -> table.HyperTable | None:
    """Install the table at ``path`` for this process, saying in the log what that offers;
    ``None`` (and the reason logged) where there is none."""
    try:
        found = table.install(path)
    except table.TableError as error:
        # No table is an ordinary set-up; a table that cannot be read is a problem.
        report = log.info if not path.exists() else log.warning
        report("Hypergammon's perfect level, hints and reviews are off: %s", error)
        return None
    if found is not None:
        log.info("solved Hypergammon table %s: perfect, hints and reviews", path)
    return found


def start(config: Settings) -> Callable[[], object]:
    """At bot start-up: install the table in ``GAME_TABLES``; the returned call removes it."""
    install_table(game_table_path(config, table.FILE))
    return partial(table.install, None)


def ready() -> table.HyperTable | None:
    """The installed table, if it is the game's (three checkers a side)."""
    found = table.installed()
    return found if found is not None and found.checkers == hypergammon.CHECKERS else None


@dataclass(frozen=True, slots=True)
class HyperHint:
    """/hint from the table: the plays of the roll (text, equity, behind the best), or the
    cube action with its equities (no double, double/take, double/drop) and the verdict."""

    plays: tuple[tuple[str, float, float], ...] = ()
    cube: tuple[float, float, float] | None = None
    verdict: str = ""  # "double", "no_double", "take" or "drop"
    to_roll: float | None = None  # before a roll without the cube: the equity to roll


def hint_of(state: BackgammonState, found: table.HyperTable) -> HyperHint:
    """The exact /hint for the seat on turn in ``state``."""
    if state.phase is Phase.MOVE:
        scored = scored_plays(state, found)
        dice = (state.dice[0], state.dice[1])
        value = [s.cubeful if state.cube_enabled else s.cubeless for s in scored]
        return HyperHint(
            plays=tuple(
                (bg.format_play(state.position, dice, s.play), v, value[0] - v)
                for s, v in zip(scored[:HINT_LINES], value, strict=False)
            )
        )
    if state.phase in (Phase.ROLL, Phase.CUBE) and state.cube_enabled:
        c = cube_decision(state, found)
        cube = (c.no_double, c.double_take, 1.0)
        if state.phase is Phase.CUBE:
            return HyperHint(cube=cube, verdict="take" if c.take else "drop")
        return HyperHint(cube=cube, verdict="double" if c.double else "no_double")
    if state.phase is Phase.ROLL:
        values = position_values(state.position, found)
        return HyperHint(to_roll=values.cubeless)
    return HyperHint()


async def table_hint(state: BackgammonState, expert: ExpertPool | None) -> HyperHint:
    """/hint from the installed table; refused (``hint.no_table``) where there is none."""
    found = ready()
    if found is None:
        raise TabulaError("hint.no_table", **MISSING)
    return hint_of(state, found)


def words(hint: HyperHint, locale: str | None) -> str:
    """The hint in the reader's words."""
    lines = [tr("hypergammon.hint.header", locale)]
    for rank, (text, equity, loss) in enumerate(hint.plays, start=1):
        lines.append(
            tr(
                "hypergammon.hint.play",
                locale,
                rank=rank,
                move=text,
                equity=decimal(equity, locale, 3, signed=True),
                loss=decimal(-loss, locale, 3) if loss > 0 else "",
            )
        )
    if hint.cube is not None:
        no_double, take, drop = hint.cube
        lines.append(
            tr(
                "hypergammon.hint.cube",
                locale,
                no_double=decimal(no_double, locale, 3, signed=True),
                take=decimal(take, locale, 3, signed=True),
                drop=decimal(drop, locale, 3, signed=True),
            )
        )
        lines.append(tr(f"hypergammon.hint.verdict.{hint.verdict}", locale))
    if hint.to_roll is not None:
        before = decimal(hint.to_roll, locale, 3, signed=True)
        lines.append(tr("hypergammon.hint.roll", locale, equity=before))
    return "\n".join(lines)


def current(stored_level: str) -> bool:
    """Whether a review made at ``stored_level`` is the table's."""
    return stored_level == LEVEL


def review(record: Record) -> backgammon_review.Review:
    """Both players' decisions judged exactly by the installed table."""
    found = ready()
    if found is None:
        raise ReviewUnavailable("error.review_no_table", **MISSING)
    analysis = analyse_game(record.options, record.notations, found, LEVEL)
    return backgammon_review.summarise(analysis, record.game_id)


async def analyse(record: Record, expert: ExpertPool | None) -> backgammon_review.Review:
    """The review hook: in a worker thread (the table's pages may come from disk)."""
    return await asyncio.to_thread(review, record)


async def judge(
    state: BackgammonState, action: object, expert: ExpertPool | None
) -> Verdict | None:
    """Tutor mode: the checker play ``action`` judged by the table as the review judges it;
    ``None`` without the table, for a cube action or a forced play."""
    found = ready()
    if found is None or state.phase is not Phase.MOVE or not isinstance(action, Play):
        return None
    decision = judge_play(state, action, found)
    return None if decision is None else Verdict(decision.loss, decision.best)


# Questioned from a blunder; never below an error (backgammon's review thresholds).
TUTOR: Final = TutorSpec(
    judge,
    backgammon_review.BLUNDER_MP / 1000.0,
    backgammon_review.ERROR_MP / 1000.0,
    "equity",
)
