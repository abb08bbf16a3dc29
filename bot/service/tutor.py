"""Tutor mode: before a person's costly move is stored, "Are you sure?".

In a game with the ``tutor`` option (``/play … tutor:on``, or ``/challenge … tutor:on`` once
accepted: never rated, like hints), each move a person chooses is judged first by the game's
review (its manifest's ``ReviewSpec.tutor``: :mod:`bot.games.tutor`). A move that gives up at
least the game's threshold is not stored: the question is (``tutor_warnings``), with what the
move costs, and the service answers the click with a :class:`~bot.service.models.Question`
instead of a change. Nothing reaches the game's log until the player answers:

- **Keep**: the move is stored exactly as a normal move (the same ``_advance`` and one
  transaction); a second Keep finds the game moved on and is refused as out of date;
- **Take back**: nothing of the move is stored; a backgammon play built checker by checker
  starts again from the turn's dice (the draft is cleared);
- playing another move instead (the question left open) counts as taking it back.

The question and its answer are stored, so one asked before a restart is answered after it.
The clock of a timed game stops while the question is open (``MatchClock.pause``, stored with
the question in one transaction) and runs on from where it was after the answer, so asking
costs the player no time. The judge runs off the event loop (the expert's worker processes, a
worker thread) and the click waits for it at most :data:`JUDGE_SECONDS`; a judge that cannot
answer in time lets the move be stored without a question.

After the game, :func:`warnings` reads the questions back for the review: a warning was heeded
when the move was taken back, or the log does not hold it where it would have gone.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, replace
from typing import Any, Final

from bot import storage as store
from bot.games.tutor import TutorSpec, Verdict
from bot.service.games import GameService
from bot.service.lookup import Viewer, sees_game
from bot.service.models import ActionResult, Draft, Game, Question
from bot.service.outages import interactive
from bot.storage import tutor as tutor_store
from bot.vocabulary.errors import GameNotFound, NotInGame, StaleAction, WrongChannel
from bot.vocabulary.options import TUTOR

__all__ = ["JUDGE_SECONDS", "KEEP", "TAKE_BACK", "TutorService", "Warning", "tutor_of", "warnings"]

log = logging.getLogger(__name__)

JUDGE_SECONDS: Final = 2.0  # how long a click waits for the judge; then the move is stored
KEEP: Final = "keep"
TAKE_BACK: Final = "back"


def tutor_of(game: Game) -> TutorSpec | None:
    """The tutor of a game played in tutor mode whose review offers one."""
    review = game.spec.review
    if not game.options.get(TUTOR) or review is None:
        return None
    return review.tutor


@dataclass(frozen=True, slots=True)
class Warning:
    """One question of a finished game, as its review shows it: the move that would have
    been action ``index``, its cost against ``best``, and whether the player heeded it."""

    index: int
    seat: int
    move: str
    best: str
    cost: float
    heeded: bool


async def warnings(service: GameService, game: Game) -> tuple[Warning, ...]:
    """The questions asked in ``game`` (none for a game not played in tutor mode)."""
    if not game.options.get(TUTOR):
        return ()
    rows = await tutor_store.warnings_of(service.db, game.id)
    if not rows:
        return ()
    log_rows = await store.load_actions(service.db, game.id)
    out = []
    for row in rows:
        if row.answer is not None:
            heeded = row.answer == TAKE_BACK
        else:  # left open: heeded unless the move stands where it would have gone
            stored = log_rows[row.action_index] if row.action_index < len(log_rows) else None
            heeded = stored is None or stored.notation != row.move
        out.append(Warning(row.action_index, row.seat, row.move, row.best, row.cost, heeded))
    return tuple(out)


def _unheard(task: asyncio.Future[Verdict | None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("tutor: a late judge failed: %r", task.exception())


class TutorService:
    """Asks, and answers the questions' buttons. Installs itself as ``service``'s screen of
    a person's moves (:attr:`GameService.screen`)."""

    def __init__(self, service: GameService, *, judge_seconds: float = JUDGE_SECONDS) -> None:
        self.games = service
        self.judge_seconds = judge_seconds
        self._late: set[asyncio.Future[Verdict | None]] = set()  # judges past their wait
        service.screen = self.screen

    # ------------------------------------------------------------------------------ asking

    async def screen(self, game: Game, user_id: int, action: Any) -> Game | ActionResult:
        """Under the game's lock, before ``user_id``'s ``action`` is stored: the game to store
        it in, or the question asked instead (nothing of the move stored)."""
        tutor = tutor_of(game)
        if tutor is None:
            return game
        if game.timer is not None and game.timer.paused is not None:
            # An open question answered by another move: the clock runs on from its pause.
            game = replace(game, timer=game.timer.resume(self.games.clock()))
        verdict = await self._judge(tutor, game, action)
        if verdict is None or not tutor.asks(verdict):
            return game
        return await self._ask(game, user_id, action, verdict, tutor)

    async def _judge(self, tutor: TutorSpec, game: Game, action: Any) -> Verdict | None:
        """The verdict, waited for at most ``judge_seconds``. A late judge is not cancelled
        (an expert worker cut off mid-search is replaced, at a cost): it finishes unheard."""
        task = asyncio.ensure_future(tutor.judge(game.state, action, self.games.expert))
        try:
            return await asyncio.wait_for(asyncio.shield(task), self.judge_seconds)
        except TimeoutError:
            log.info("tutor: no verdict on a move of game %s in time; stored unasked", game.id)
            self._late.add(task)
            task.add_done_callback(_unheard)
            task.add_done_callback(self._late.discard)
            return None

    async def _ask(
        self, game: Game, user_id: int, action: Any, verdict: Verdict, tutor: TutorSpec
    ) -> ActionResult:
        now = self.games.clock()
        seat = int(game.state.turn)
        move = game.rules.notation(game.state, action)
        after, state_json = game, None
        if game.timer is not None:
            timer = game.timer.pause(now)
            after = replace(game, timer=timer, turn_deadline=timer.flag_at())
            state_json = self.games.snapshot_of(after)
        warning = tutor_store.NewWarning(
            game.id, game.version, game.logged, seat, user_id, move, verdict.best, verdict.loss, now
        )
        # The judge may have taken most of the click's database time: the question gets its own.
        with interactive():
            try:
                warning_id = await tutor_store.ask(
                    self.games.db,
                    warning,
                    state_json=state_json,
                    turn_deadline=after.turn_deadline,
                )
            except store.VersionConflict:
                self.games.forget(game.id)
                raise StaleAction() from None
        self.games.live.get(game.id).remember(after)
        question = Question(
            game.id, game.version, warning_id, user_id, move, verdict.best, verdict.loss, tutor.unit
        )
        return ActionResult(game, after, (), question)

    # ----------------------------------------------------------------------------- answers

    async def keep(
        self,
        game_id: str,
        version: int,
        warning_id: int,
        user_id: int,
        *,
        channel_id: int | None,
        viewer: Viewer | None = None,
    ) -> ActionResult:
        """Keep: the questioned move is stored as any move is (once: a second Keep finds the
        game moved on)."""
        async with self.games.lock(game_id):
            game, row = await self._open(game_id, version, warning_id, user_id, channel_id, viewer)
            action = game.rules.parse(game.state, row.move)
            if game.timer is not None:
                game = replace(game, timer=game.timer.resume(self.games.clock()))
            result = await self.games.advance_chosen(game, action, user_id)
        try:
            await tutor_store.answer_warning(self.games.db, row.id, KEEP, self.games.clock())
        except store.StorageError as error:  # the log holds the move: the review reads it there
            log.warning("tutor: could not record Keep of warning %s: %s", row.id, error)
        return result

    async def take_back(
        self,
        game_id: str,
        version: int,
        warning_id: int,
        user_id: int,
        *,
        channel_id: int | None,
        viewer: Viewer | None = None,
    ) -> ActionResult:
        """Take back: the move is dropped; the board is the turn's again before its move (a
        checker-by-checker play begun is cleared), and a stopped clock runs on."""
        async with self.games.lock(game_id):
            game, row = await self._open(game_id, version, warning_id, user_id, channel_id, viewer)
            now = self.games.clock()
            db = self.games.db
            if not await tutor_store.answer_warning(db, row.id, TAKE_BACK, now):
                raise StaleAction("tutor.answered")
            after = game
            with self.games.storing(game.id):
                if game.draft != Draft():
                    version = await store.set_draft(db, game.id, game.version, None)
                    after = replace(after, draft=Draft(), version=version)
                if game.timer is not None and game.timer.paused is not None:
                    timer = game.timer.resume(now)
                    after = replace(after, timer=timer, turn_deadline=timer.flag_at())
                    snapshot = self.games.snapshot_of(after)
                    stored = await store.set_clock(
                        db, game.id, after.version, snapshot, after.turn_deadline
                    )
                    if not stored:
                        raise store.VersionConflict(game.id, after.version, -1)
            self.games.live.get(game.id).remember(after)
            return ActionResult(game, after, ())

    async def _open(
        self,
        game_id: str,
        version: int,
        warning_id: int,
        user_id: int,
        channel_id: int | None,
        viewer: Viewer | None,
    ) -> tuple[Game, tutor_store.WarningRow]:
        """The game and the open question ``warning_id`` it is answered on, or the refusal."""
        game = await self.games.load(game_id)
        if version > game.version:  # changed by another process: the stored game decides
            self.games.forget(game_id)
            game = await self.games.load(game_id)
        if viewer is not None and not sees_game(viewer, game):
            raise GameNotFound(game_id=game_id)
        if channel_id is not None and channel_id != game.channel_id:
            raise WrongChannel()
        row = await tutor_store.load_warning(self.games.db, warning_id)
        if row is None or row.game_id != game_id or row.version != version:
            raise GameNotFound(game_id=game_id)
        if row.user_id != user_id:
            raise NotInGame()
        if row.answer is not None:
            raise StaleAction("tutor.answered")
        if game.finished:
            raise StaleAction("error.game_over")
        if game.version != version:
            raise StaleAction("tutor.stale")
        return game, row
