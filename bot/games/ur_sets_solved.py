"""What a rule set's solved table (``tabula ur-table build --game <kind>``) gives its game, as
Finkel's table gives Ur's (:mod:`bot.games.ur_solved`): installed when the bot starts, it
plays the ``perfect`` level, answers /hint, judges reviews exactly, finds puzzles and is
tutor mode's judge. Where no table is installed the game plays up to ``hard``, /hint says how
to build the table and the review is the hard AI's estimate (:meth:`UrSetAI.analyse`).

A rule set's manifest makes one :class:`SolvedRuleSet` from its engine and AI and hands its
parts to its ``GameSpec`` as hooks; nothing here knows which rule set it serves.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, Final

from bot.ai import ur_sets_table
from bot.ai.levels import PERFECT
from bot.ai.pool import ExpertPool
from bot.ai.ur_hint import UrHint
from bot.ai.ur_sets import REVIEW_LEVEL, UrSetAI
from bot.ai.ur_sets_table import UrSetTable
from bot.config import Settings, ur_set_table_path
from bot.engines.common import Phase
from bot.engines.ur_sets import Move, UrSetState
from bot.games.puzzles import (
    Candidate,
    Mistake,
    Puzzle,
    PuzzleSource,
    chance_source,
    ordered,
    self_play,
)
from bot.games.review import (
    ChanceLook,
    ChanceReview,
    Record,
    Reviewed,
    ReviewSpec,
    chance_review,
    summarise_chances,
)
from bot.games.spec import Hint, worded
from bot.games.tutor import TutorSpec, Verdict, verdict_of
from bot.games.ur_texts import UrTexts
from bot.vocabulary.errors import Msg, TabulaError, msg
from bot.vocabulary.review_labels import BLUNDER_LOSS, MISTAKE_LOSS

__all__ = ["MIN_MARGIN", "SolvedRuleSet"]

log = logging.getLogger(__name__)

MIN_MARGIN: Final = 0.10  # a puzzle's best move keeps this much more chance than the next
MAX_GAMES_PER_PUZZLE: Final = 200  # gives up when the table covers too little of the game


def partial_note(review: ChanceReview) -> Msg | None:
    """That a table of fewer pieces judged only the end of the game (level ``perfect-N``)."""
    if review.complete:
        return None
    return msg("review.ur_partial", pieces=review.level.rpartition("-")[2])


class SolvedRuleSet:
    """The solved table's hooks for the game of one rule set."""

    def __init__(self, ai: UrSetAI, title: str) -> None:
        self.ai = ai
        self.engine = ai.engine
        self.kind = ai.engine.GAME
        self.title = title
        self.build_command = ur_sets_table.build_command(self.kind)

    # -- the table ---------------------------------------------------------------------------

    def table(self) -> UrSetTable | None:
        return ur_sets_table.installed(self.kind)

    def ready(self) -> bool:
        """Whether the table is installed (``GameSpec.table_ready``)."""
        return self.table() is not None

    def install(self, path: Path) -> UrSetTable | None:
        """Install the table at ``path`` for this process, saying in the log what that offers;
        ``None`` (and the reason logged) where there is none."""
        try:
            table = ur_sets_table.install(self.kind, ur_sets_table.open(path, self.engine.rules))
        except ur_sets_table.TableError as error:
            ur_sets_table.install(self.kind, None)
            # No table is an ordinary set-up; a table that cannot be read is a problem.
            report = log.info if not path.exists() else log.warning
            report("%s: perfect level, hints and exact reviews are off: %s", self.title, error)
            return None
        if table is not None:
            what = "the full game" if table.complete else f"{table.pieces} pieces a side"
            log.info("solved %s table %s: %s", self.title, path, what)
        return table

    def start(self, config: Settings) -> Callable[[], object]:
        """At bot start-up (``GameSpec.start``): install the table beside Finkel's; the
        returned call removes it."""
        self.install(ur_set_table_path(config, self.kind))
        return partial(ur_sets_table.install, self.kind, None)

    # -- /hint -------------------------------------------------------------------------------

    async def hint(self, state: UrSetState, expert: ExpertPool | None) -> UrHint:
        """/hint from the installed table (``hint.no_table``, ``hint.outside_table`` where
        there is none or it does not cover the position)."""
        table = self.table()
        if table is None:
            raise TabulaError("hint.no_table", game=self.title, command=self.build_command)
        if not table.covers(state.position):
            raise TabulaError(
                "hint.outside_table",
                pieces=table.pieces,
                off=self.engine.rules.pieces - table.pieces,
                command=self.build_command,
            )
        before_roll = table.win_chance(state.position)
        if state.phase is Phase.MOVE:
            chances = self.ai.move_chances(state.position, state.roll_value, table)
            return UrHint(chances[0][1], tuple((m.notation(), c) for m, c in chances))
        return UrHint(before_roll, ())

    def hint_hook(self) -> Hint[UrSetState]:
        """``GameSpec.hint``: the table's answer in the words of Finkel's hints."""
        return worded(self.hint, UrTexts().hint)

    # -- the review --------------------------------------------------------------------------

    def level(self) -> str:
        """The level a review made now is stored under: ``perfect`` (``perfect-N`` from a
        table of N pieces, so that the full table redoes it), or the hard AI's without one."""
        table = self.table()
        if table is None:
            return REVIEW_LEVEL
        return PERFECT if table.complete else f"{PERFECT}-{table.pieces}"

    def current(self, stored_level: str) -> bool:
        """Whether a stored review is what a review made now would be."""
        return stored_level == self.level()

    def review(self, record: Record) -> ChanceReview:
        """Both players' moves judged by the installed table, or the people's by the hard AI
        where there is none (in a worker thread: the table's pages may come from disk)."""
        table, made_at = self.table(), self.level()
        if table is None:
            analysis = self.ai.analyse(record.notations, record.people)
            return summarise_chances(analysis, record.people, game_id=record.game_id, level=made_at)
        analysis = self.ai.analyse_exact(record.notations, table)
        return summarise_chances(
            analysis, range(len(self.engine.SEATS)), game_id=record.game_id, level=made_at
        )

    def review_spec(self, chart: Callable[..., Any]) -> ReviewSpec:
        """The chance review worded by the game's ``review.<kind>.*`` keys."""
        kind = self.kind
        look = ChanceLook(
            f"review.{kind}.working",
            f"review.{kind}.move",
            f"review.{kind}.footer",
            chart,
            partial_note,
        )
        return chance_review(self.review, look, current=self.current, tutor=self.tutor())

    # -- tutor mode --------------------------------------------------------------------------

    async def judge(
        self, state: UrSetState, action: object, expert: ExpertPool | None
    ) -> Verdict | None:
        """``action`` judged by the installed table, as the review judges a move; ``None``
        without a table, outside it, or with no real choice."""
        table = self.table()
        if table is None or not isinstance(action, Move) or state.phase is not Phase.MOVE:
            return None
        return verdict_of(self.ai.judge_exact(state, action, table))

    def tutor(self) -> TutorSpec:
        # Questioned from a blunder; never below a mistake (the review's labels).
        return TutorSpec(self.judge, BLUNDER_LOSS, MISTAKE_LOSS, "chance")

    # -- puzzles -----------------------------------------------------------------------------

    def position_puzzle(
        self, state: UrSetState, table: UrSetTable, rng: random.Random
    ) -> Puzzle | None:
        if not table.covers(state.position):
            return None
        chances = self.ai.move_chances(state.position, state.roll_value, table)
        if len(chances) < 2 or chances[0][1] - chances[1][1] < MIN_MARGIN:
            return None
        candidates = [Candidate(move.notation(), chance) for move, chance in chances[:5]]
        dumped = self.engine.dump_state(state)
        return Puzzle(self.kind, dumped, state.turn, ordered(candidates, rng))

    def generate(self, count: int, rng: random.Random) -> list[Puzzle]:
        """Built-in puzzles from the bot's ``medium`` games, judged by the installed table."""
        table = self.table()
        if table is None:
            raise RuntimeError(f"{self.title} puzzles come from the solved table: build it first")
        return self_play(
            self.engine,
            count,
            rng,
            choose=lambda state: self.ai.choose_action(state, "medium", rng),
            find=lambda state, _: self.position_puzzle(state, table, rng),
            max_games=MAX_GAMES_PER_PUZZLE * count,
        )

    def puzzles(self) -> PuzzleSource:
        """Ur's puzzles for this rule set: built-in ones from the table, and a server's from
        its games' exact reviews (a hard AI's estimate makes none)."""
        source = chance_source(self.engine, self.generate, MIN_MARGIN, "puzzle.how.ur")

        def exact_puzzles(review: Reviewed, record: Record) -> list[Puzzle]:
            return source.from_review(review, record) if _exact(review) else []

        def exact_mistakes(review: Reviewed, record: Record) -> list[Mistake]:
            return source.mistakes(review, record) if _exact(review) else []

        return PuzzleSource(
            generate=source.generate,
            judge=source.judge,
            value=source.value,
            how=source.how,
            from_review=exact_puzzles,
            mistakes=exact_mistakes,
        )


def _exact(review: Reviewed) -> bool:
    return isinstance(review, ChanceReview) and review.level.startswith(PERFECT)
