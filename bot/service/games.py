"""The game service: the one place that joins engines, AI, dice, storage and rendering.

Cogs and buttons call it with plain values (ids, tokens, versions) and get plain data back.
Every state change goes through :meth:`GameService._commit`, which writes the actions, the new
state and the version in one transaction with an optimistic version check, before anything is
shown to anyone; a per-game lock keeps one process from racing itself, and the version check
keeps a second process (or a restarted one) honest. Each game in hand has one owner
(:class:`~bot.service.live.LiveGame`): its lock, its cached game, the events played on its
current board (for that board's summary line when a new one takes over) and its AI task.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from bot import games
from bot import storage as store
from bot.ai.levels import EXPERT, ONE_LOOK, level_named
from bot.ai.pool import ExpertPool
from bot.clock import SYSTEM_CLOCK
from bot.engines.common import Abandon, GameState, IllegalMove, Outcome, Phase, Resign, Roll
from bot.games.menu import SetDraft
from bot.games.spec import Worded
from bot.service import fair_dice
from bot.service.live import LiveGames, events_from_log
from bot.service.lookup import Viewer, sees_game
from bot.service.models import ActionResult, Draft, Event, Game, MoveCount, SeatInfo
from bot.service.outages import interactive
from bot.service.ratings import RatingService
from bot.service.time_control import MatchClock
from bot.storage import Database
from bot.vocabulary.errors import (
    ChallengeRefused,
    ChannelBusy,
    GameNotFound,
    IllegalAction,
    NotInGame,
    NotYourTurn,
    StaleAction,
    TabulaError,
    WrongChannel,
    msg,
)
from bot.vocabulary.markup import plain_name
from bot.vocabulary.options import CLOCK, HINTS, TUTOR, engine_options

log = logging.getLogger(__name__)

STAND_IN_LEVEL = "hard"  # plays for a Ludo seat whose player went idle
# The token of a board's Claim button: the person waiting wins once the other's time is up;
# the service reads it before the game's menu (a claim is no move of the game).
CLAIM = "claim"

Clock = Callable[[], float]
TimeoutFor = Callable[[int | None], Awaitable[int]]
Screen = Callable[[Game, int, Any], Awaitable["Game | ActionResult"]]
AutoRoll = Callable[[int], Awaitable[bool]]
"""Whether a person wants the dice rolled for them (their /prefs), by user id."""
DEFAULT_TURN_TIMEOUT = 24 * 3600


def new_game_id() -> str:
    """A new game's id: 8 hex digits, shown in its footer and its thread's name."""
    return secrets.token_hex(4)


async def _default_timeout(guild_id: int | None) -> int:
    return DEFAULT_TURN_TIMEOUT


class GameService:
    def __init__(
        self,
        db: Database,
        *,
        clock: Clock = SYSTEM_CLOCK.now,
        timeout_for: TimeoutFor = _default_timeout,
        ratings: RatingService | None = None,
        expert: ExpertPool | None = None,
        auto_roll: AutoRoll | None = None,
    ) -> None:
        """``auto_roll``: asked when a person's turn offers nothing but the roll; ``None``
        never rolls for anyone (every roll is a click)."""
        self.db = db
        self.auto_roll = auto_roll
        self.expert = expert
        self.ratings = ratings
        self.clock = clock
        self.timeout_for = timeout_for
        self.live = LiveGames()
        # Told of every game this process finishes, after its result is stored (tournaments
        # score it); must not block: a listener schedules its own work.
        self.finish_listeners: list[Callable[[Game], None]] = []
        # Told (after the commit) when a person comes on turn in a game that goes on.
        self.turn_listeners: list[Callable[[Game], None]] = []
        # Tutor mode (bot.service.tutor installs it): asked, under the game's lock, before a
        # person's move in a tutored game is stored: the game to store it in, or a question.
        self.screen: Screen | None = None

    # ----------------------------------------------------------------------------- loading

    def lock(self, game_id: str) -> asyncio.Lock:
        """The lock every change of the game is made under."""
        return self.live.get(game_id).lock

    @contextlib.asynccontextmanager
    async def opening(self, game_id: str) -> AsyncIterator[None]:
        """Held from before a new game is stored until its first board is drawn (under it:
        ``GameDriver.show(..., held=True)``). Between the two a start answers its command,
        edits its invitation or introduces its table; the start-up's redraw and the resume
        sweep, which see a stored game with no board, wait for its board lock or pass it by
        while it is held, instead of posting a second board (whose first one's buttons would
        then be stale)."""
        owner = self.live.get(game_id)
        async with owner.board:
            try:
                yield
            except BaseException:
                if owner.game is None:  # not stored: nothing to keep for it
                    self.live.let_go(game_id, owner)
                raise

    def forget(self, game_id: str) -> None:
        """Drop this process's copy of the game: it was changed outside the service (moved
        to another channel) or a storage error left its outcome unknown; the next load reads
        the stored one."""
        owner = self.live.peek(game_id)
        if owner is not None:
            owner.forget()

    def release(self, game_id: str) -> None:
        """The game is over and its final board shown: its owner goes (a later look at the
        game reads the stored one)."""
        self.live.drop(game_id)

    async def changed_elsewhere(self, game: Game) -> bool:
        """Whether the stored game is newer than ``game`` by a change another process on the
        same shard made; if so this process's copy is dropped, so the next load reads it. A
        change made here (stored, or under way under the game's lock) is not: its own board
        follows it."""
        stored = await store.stored_version(self.db, game.id)
        if stored is None or stored <= game.version:
            return False
        owner = self.live.peek(game.id)
        if owner is not None and (
            owner.lock.locked() or (owner.game is not None and owner.game.version >= stored)
        ):
            return False
        self.forget(game.id)
        return True

    async def load(self, game_id: str) -> Game:
        owner = self.live.peek(game_id)
        if owner is not None and owner.game is not None:
            return owner.game
        row = await store.load_game(self.db, game_id)
        if row is None:
            raise GameNotFound(game_id=game_id)
        game = self._from_row(row)
        if owner is None and game.finished:
            return game  # nothing changes a finished game: it is read, not kept
        owner = self.live.get(game_id)
        if owner.game is None:  # else a change was applied while the row was read
            owner.game = game
        return owner.game

    async def find(self, game_id: str, viewer: Viewer) -> Game:
        """The game ``game_id`` as ``viewer`` may see it (:mod:`bot.service.lookup`): a game
        outside their reach is refused exactly as one that does not exist."""
        game = await self.load(game_id)
        if not sees_game(viewer, game):
            raise GameNotFound(game_id=game_id)
        return game

    def _from_row(self, row: store.GameRow) -> Game:
        rules = games.get(row.game).rules
        snapshot = json.loads(row.state_json)
        return Game(
            id=row.id,
            kind=row.game,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            message_id=row.message_id,
            options=json.loads(row.options_json),
            state=rules.load_state(snapshot["engine"]),
            version=row.version,
            rolls=int(snapshot.get("rolls", 0)),
            seats=tuple(
                SeatInfo(
                    s.seat,
                    s.user_id,
                    s.display_name,
                    s.ai_level,
                    s.resigned,
                    getattr(s, "stand_in", None),
                )
                for s in row.seats
            ),
            draft=Draft.from_json(row.draft_json),
            status=str(row.status),
            seed_hash=row.dice_seed_hash,
            seed=row.dice_seed,
            rated=row.rated,
            turn_deadline=row.turn_deadline,
            message_seq=row.message_seq,
            timer=MatchClock.from_json(snapshot["clock"]) if snapshot.get("clock") else None,
            logged=row.action_count,
            moves=MoveCount.from_json(snapshot.get("moves"), int(snapshot.get("rolls", 0))),
            imported=row.imported,
        )

    async def game_in_channel(self, channel_id: int) -> Game | None:
        row = await store.active_game_in_channel(self.db, channel_id)
        return None if row is None else await self.load(row.id)

    async def games_of(self, user_id: int) -> list[Game]:
        rows = await store.active_games_for_user(self.db, user_id)
        return [await self.load(row.id) for row in rows]

    async def active_games(self, owned: Callable[[int | None], bool] | None = None) -> list[Game]:
        """Every active game, or those whose server ``owned`` accepts (this process's
        shards: see ``bot.shards``); the others are not even loaded."""
        rows = await store.active_games(self.db)
        return [await self.load(r.id) for r in rows if owned is None or owned(r.guild_id)]

    # ----------------------------------------------------------------------------- creation

    async def start(
        self,
        *,
        game: str,
        guild_id: int | None,
        channel_id: int,
        parent_channel_id: int | None,
        seats: Sequence[SeatInfo],
        options: dict[str, Any] | None = None,
        rated: bool = True,
        challenge_id: int | None = None,
        tournament_table: tuple[int, int, int] | None = None,
        game_id: str | None = None,
    ) -> Game:
        """Create a game (and close the challenge it comes from, or claim the tournament
        table it is played for, in the same transaction). ``game_id``: one from
        :func:`new_game_id` the caller named already (its thread), else a new one."""
        rules = games.get(game).rules
        options = dict(options or {})
        state = rules.new_game(engine_options(options))
        seed = fair_dice.new_seed()
        game_id = game_id or new_game_id()
        now = self.clock()
        timer = _new_timer(options, state, seats, now)
        deadline = (
            timer.flag_at()
            if timer is not None
            else await self._deadline_for(guild_id, state, seats, now)
        )
        try:
            await store.create_game(
                self.db,
                game_id=game_id,
                game=game,
                guild_id=guild_id,
                channel_id=channel_id,
                parent_channel_id=parent_channel_id,
                options_json=json.dumps(options, sort_keys=True),
                state_json=self._snapshot(rules, state, 0, timer, MoveCount()),
                seats=[store.SeatRow(s.seat, s.user_id, s.ai_level, s.name) for s in seats],
                dice_seed=seed,
                dice_seed_hash=fair_dice.seed_hash(seed),
                rated=rated,
                now=now,
                turn_deadline=deadline,
                challenge_id=challenge_id,
                tournament_table=tournament_table,
                live_position=_live_key(games.get(game), rated, state),
            )
        except store.ChannelBusy:
            raise ChannelBusy() from None
        except store.ChallengeNotPending:
            raise ChallengeRefused("challenge.closed") from None
        started = await self.load(game_id)
        self.live.get(game_id).rebuilt(0, [])  # nothing played yet: no log to read back
        # A roll the table makes for nobody (backgammon's opening) has no choice in it; a
        # person starting a game whose first turn offers only the roll may have it rolled.
        if started.spec.rolls_itself(started.state) or await self._rolls_for_person(
            started, started.state
        ):
            async with self.lock(game_id):
                started = (await self._advance(started, [], seat_user=None)).after
        return started

    # ----------------------------------------------------------------------------- actions

    async def act(
        self,
        game_id: str,
        user_id: int,
        version: int,
        token: str,
        *,
        channel_id: int | None,
        viewer: Viewer | None = None,
    ) -> ActionResult:
        """A person clicked ``token`` on a board drawn at ``version``; ``viewer``: who and
        from where (a game out of their reach is refused as unknown)."""
        async with self.lock(game_id):
            game = await self.load(game_id)
            if version > game.version:
                # A board newer than this process's copy of the game: another process
                # changed it (two on one shard, for a while during a rolling deploy). The
                # stored game decides.
                self.forget(game_id)
                game = await self.load(game_id)
            if viewer is not None and not sees_game(viewer, game):
                raise GameNotFound(game_id=game_id)
            if channel_id is not None and channel_id != game.channel_id:
                raise WrongChannel()
            seat = game.seat_of(user_id)
            if seat is None:
                raise NotInGame()
            if game.finished:
                raise StaleAction("error.game_over")
            if version != game.version:
                raise StaleAction()
            if token == CLAIM:
                return await self._claim(game, seat.seat)
            if self.flagged(game):  # a click after the reserve ran out: the match is lost
                return await self._lose_on_time(game)
            on_turn = game.seat_on_turn
            if on_turn.user_id != user_id:
                raise NotYourTurn(player=plain_name(on_turn.name))
            if on_turn.stand_in is not None:
                raise IllegalAction(reason=msg("reason.stood_in"))
            resolution = game.spec.menu.resolve(game.state, game.draft, token)
            if isinstance(resolution, SetDraft):
                return await self._set_draft(game, resolution.draft)
            if self.screen is not None and game.options.get(TUTOR):
                screened = await self.screen(game, user_id, resolution.action)
                if isinstance(screened, ActionResult):
                    return screened  # "Are you sure?": nothing stored
                with interactive():  # the judge took its time: the commit gets its own
                    return await self._advance(screened, [resolution.action], seat_user=user_id)
            return await self._advance(game, [resolution.action], seat_user=user_id)

    async def advance_chosen(self, game: Game, action: Any, user_id: int) -> ActionResult:
        """Store ``user_id``'s ``action`` in ``game`` (held under its lock) as :meth:`act`
        does: tutor mode's Keep."""
        return await self._advance(game, [action], seat_user=user_id)

    def snapshot_of(self, game: Game) -> str:
        """``game``'s stored snapshot (its engine state, rolls, moves and clock)."""
        return self._snapshot(game.rules, game.state, game.rolls, game.timer, game.moves)

    async def ai_step(self, game_id: str) -> ActionResult | None:
        """Let the AI on turn take one action; ``None`` when no AI is on turn."""
        async with self.lock(game_id):
            game = await self.load(game_id)
            if game.finished or not game.seat_on_turn.is_ai:
                return None
            seat = game.seat_on_turn
            rng = random.Random(f"{game.id}:{game.version}:ai")
            level = level_named(seat.level)
            state = game.state
            action: Any
            expert = self.expert if level == EXPERT and game.spec.expert else None
            seats = game.ai_levels()

            async def choose(position: Any) -> Any | None:
                if expert is not None:  # bgsage runs in a worker process; it falls back itself
                    return await expert.choose_action(position, rng=rng)
                if level in ONE_LOOK:
                    return game.spec.choose(position, level, rng, seats)
                # A searching level thinks for up to a hundred milliseconds (backgammon's hard,
                # Ludo's expert): in a worker thread, so other games' clicks are answered
                # meanwhile. Under the game's lock, so nothing else changes this game.
                return await asyncio.to_thread(game.spec.choose, position, level, rng, seats)

            async def then_move(position: Any) -> Any | None:
                # The AI's roll and the move it makes with those dice are one step and one
                # board: a person sees the dice and the move together, and a Ludo table of
                # three AI seats costs three boards a round instead of six.
                return await choose(position) if position.turn == seat.seat else None

            action = await choose(state)  # None: nothing to decide before the dice
            if action is None:
                return await self._advance(
                    game, [Roll(())], seat_user=None, automatic=True, then=then_move
                )
            return await self._advance(game, [action], seat_user=None, automatic=True)

    async def hint(self, channel_id: int, user_id: int) -> Worded:
        """The hint for the person on turn, where both players agreed to hints (an option of
        /challenge; such games are never rated), from the game's hint hook (``GameSpec.hint``:
        the expert's lines, a solved table's chances), to be worded in the reader's locale."""
        game = await self.game_in_channel(channel_id)
        if game is None:
            raise GameNotFound()
        if game.spec.hint is None:
            raise TabulaError("hint.not_offered", games=games.titles(lambda g: g.hint))
        if not game.options.get(HINTS) or game.rated:
            # /play (a game against the AI) takes no hints option: /challenge's is no answer.
            with_ai = any(seat.is_ai for seat in game.seats)
            raise TabulaError("hint.not_with_ai" if with_ai else "hint.not_agreed")
        if game.seat_of(user_id) is None:
            raise NotInGame()
        if game.seat_on_turn.user_id != user_id:
            raise NotYourTurn(player=plain_name(game.seat_on_turn.name))
        await self.refuse_live_position(game.kind, game.state)
        return await game.spec.hint(game.state, self.expert)

    async def refuse_live_position(self, kind: str, state: GameState) -> None:
        """Refuse an engine's verdict on ``state`` while it stands on the board of a live
        rated game of ``kind``, or of a game whose positions are written alike (a variant's,
        :func:`bot.games.sharing_positions`; anyone's, anywhere): one lookup in the index of
        live rated positions, which every move's commit keeps. Games whose positions cannot be
        written down (no ``positions`` tools) cannot be asked about a position of their
        choice."""
        if await self.on_live_board(kind, state):
            raise TabulaError("analyze.live_rated")

    async def on_live_board(self, kind: str, state: GameState) -> bool:
        """Whether ``state`` stands on the board of a live rated game of ``kind`` now (what
        :meth:`refuse_live_position` refuses; review cards hold such a position back)."""
        tools = games.get(kind).positions
        if tools is None:
            return False
        key = tools.key(state)
        return bool(await store.live_position_holders(self.db, games.sharing_positions(kind), key))

    async def index_live_positions(self) -> int:
        """Index the active rated games that have no entry in the index of live rated
        positions (started before it existed); a game's later moves keep its entry. Returns
        how many were added."""
        entries = []
        for row in await store.active_games(self.db):
            game = self._from_row(row)
            key = _live_key(game.spec, game.rated, game.state)
            if key is not None:
                entries.append((game.id, game.version, key))
        return await store.index_live_positions(self.db, entries)

    async def resignable(self, channel_id: int, user_id: int) -> Game:
        """The game in ``channel_id`` that ``user_id`` may resign (asked before /resign's
        confirmation, which names the game)."""
        game = await self.game_in_channel(channel_id)
        if game is None:
            raise GameNotFound()
        if game.seat_of(user_id) is None:
            raise NotInGame()
        return game

    async def resign(self, channel_id: int, user_id: int) -> ActionResult:
        game = await self.resignable(channel_id, user_id)
        return await self.resign_game(game.id, user_id)

    async def resign_game(
        self, game_id: str, user_id: int, viewer: Viewer | None = None
    ) -> ActionResult:
        """``user_id`` gives up ``game_id`` (confirmed): once, however often it is asked;
        ``viewer``: from where (a game out of their reach is refused as unknown)."""
        async with self.lock(game_id):
            game = await self.load(game_id)
            if viewer is not None and not sees_game(viewer, game):
                raise GameNotFound(game_id=game_id)
            if game.finished:
                raise StaleAction("error.game_over")
            seat = game.seat_of(user_id)
            if seat is None:
                raise NotInGame()
            result = await self._advance(game, [Resign(seat.seat)], seat_user=user_id)
            game = result.after
            if not game.finished and not any(
                not s.is_ai and not s.resigned for s in game.seats
            ):  # nobody left to play for: stop rather than let the AI play on alone
                result2 = await self._advance(game, [Abandon()], seat_user=None)
                result = ActionResult(result.before, result2.after, result.events + result2.events)
            return result

    # ----------------------------------------------------------------------------- internals

    async def _deadline_for(
        self, guild_id: int | None, state: Any, seats: Sequence[SeatInfo], now: float
    ) -> float | None:
        """When the seat on turn runs out of time; no clock while the AI is on turn."""
        if state.phase == Phase.FINISHED or seats[int(state.turn)].is_ai:
            return None
        return now + await self.timeout_for(guild_id)

    def flagged(self, game: Game) -> bool:
        """A match clock whose player on turn has used their delay and their reserve."""
        flag = game.timer.flag_at() if game.timer is not None else None
        return not game.finished and flag is not None and flag <= self.clock()

    async def _lose_on_time(self, game: Game) -> ActionResult:
        return await self._advance(
            game, [Resign(game.seat_on_turn.seat, on_time=True)], seat_user=None, reason="timeout"
        )

    async def lose_on_time(self, game_id: str) -> ActionResult | None:
        """The clock sweep: a timed game whose player on turn ran out of reserve is lost by
        them (the whole match). None when it is not (any more)."""
        async with self.lock(game_id):
            game = await self.load(game_id)
            return await self._lose_on_time(game) if self.flagged(game) else None

    async def clock_shown(self, game_id: str, version: int, at: float) -> None:
        """The board of ``version`` was shown at ``at``: a timed turn's clock starts then
        (once per turn), stored so a restart counts from the same moment."""
        async with self.lock(game_id):
            game = await self.load(game_id)
            if game.timer is None or game.finished:
                return
            timer = game.timer.shown_at(version, at)
            if timer is None:
                return
            snapshot = self._snapshot(game.rules, game.state, game.rolls, timer, game.moves)
            deadline = timer.flag_at()
            if await store.set_clock(self.db, game.id, game.version, snapshot, deadline):
                self._remember(replace(game, timer=timer, turn_deadline=deadline))
            else:
                self.forget(game.id)

    def timed_out(self, game: Game) -> bool:
        return (
            not game.finished
            and game.turn_deadline is not None
            and game.turn_deadline <= self.clock()
        )

    async def _claim(self, game: Game, claimant: int) -> ActionResult:
        """The player waiting for an idle opponent takes the win when the clock has run out."""
        idle = game.seat_on_turn
        if idle.seat == claimant:
            raise IllegalAction(reason=msg("reason.claim_own_turn"))
        if not self.timed_out(game):
            raise IllegalAction(reason=msg("reason.claim_too_early"))
        if len(game.seats) > 2:
            raise IllegalAction(reason=msg("reason.claim_multiplayer"))
        return await self._advance(
            game, [Resign(idle.seat, on_time=True)], seat_user=None, reason="timeout"
        )

    async def end_by_deadline(self, game_id: str) -> ActionResult | None:
        """A tournament round's deadline passed with this game still on: as when a turn's
        clock runs out, the seat on turn loses (a two-seat game); at a larger table every
        person's seat is handed to the AI, which plays it out. None when already over."""
        async with self.lock(game_id):
            game = await self.load(game_id)
            if game.finished:
                return None
            if len(game.seats) == 2:
                idle = game.seat_on_turn
                return await self._advance(
                    game, [Resign(idle.seat, on_time=True)], seat_user=None, reason="timeout"
                )
            seats = []
            for seat in game.seats:
                if not seat.is_ai and not seat.resigned:
                    await store.set_stand_in(self.db, game.id, seat.seat, STAND_IN_LEVEL)
                    seat = replace(seat, stand_in=STAND_IN_LEVEL)
                seats.append(seat)
            if tuple(seats) == game.seats:
                return None  # handed over already: the AI is playing it out
            after = replace(game, seats=tuple(seats), turn_deadline=None)
            self._remember(after)
            stood_in = Event(
                game.seat_on_turn.seat, "", True, "stand_in", game.state, None, game.state
            )
            return ActionResult(game, after, (stood_in,))

    async def hand_idle_seats_to_ai(self, game_id: str) -> ActionResult | None:
        """Ludo: a seat whose clock ran out is played by the AI from now on."""
        async with self.lock(game_id):
            game = await self.load(game_id)
            if not self.timed_out(game) or len(game.seats) <= 2:
                return None
            seat = game.seat_on_turn
            await store.set_stand_in(self.db, game.id, seat.seat, STAND_IN_LEVEL)
            seats = tuple(
                replace(s, stand_in=STAND_IN_LEVEL) if s.seat == seat.seat else s
                for s in game.seats
            )
            after = replace(game, seats=seats, turn_deadline=None)
            self._remember(after)
            stood_in = Event(seat.seat, "", True, "stand_in", game.state, None, game.state)
            return ActionResult(game, after, (stood_in,))

    def _snapshot(
        self,
        rules: Any,
        state: Any,
        rolls: int,
        timer: MatchClock | None,
        moves: MoveCount | None = None,
    ) -> str:
        snapshot: dict[str, Any] = {"engine": rules.dump_state(state), "rolls": rolls}
        if moves is not None:
            snapshot["moves"] = moves.to_json()
        if timer is not None:
            snapshot["clock"] = timer.to_json()
        return json.dumps(snapshot, sort_keys=True)

    @contextlib.contextmanager
    def storing(self, game_id: str) -> Iterator[None]:
        """Around a write of the game: a lost race is a stale action; after any storage error
        this process's copy is in doubt (perhaps stored after all: a COMMIT whose answer was
        lost), so the next step reads the stored one."""
        try:
            yield
        except store.VersionConflict:
            self.forget(game_id)
            raise StaleAction() from None
        except store.StorageError:
            self.forget(game_id)
            raise

    async def _set_draft(self, game: Game, draft: Draft) -> ActionResult:
        with self.storing(game.id):
            version = await store.set_draft(self.db, game.id, game.version, draft.to_json())
        after = replace(game, draft=draft, version=version)
        self._remember(after)
        return ActionResult(game, after, ())

    async def _advance(
        self,
        game: Game,
        actions: list[Any],
        *,
        seat_user: int | None,
        automatic: bool = False,
        reason: str | None = None,
        then: Callable[[Any], Awaitable[Any | None]] | None = None,
    ) -> ActionResult:
        """Apply ``actions``, then whatever follows without a choice, and commit it all.
        ``then``: asked once for one more action when nothing is forced and the position
        awaits a move (the AI choosing with the dice it has just rolled)."""
        rules = game.rules
        state, rolls, moves = game.state, game.rolls, game.moves
        finished_part = game.spec.finished_part
        log_rows: list[store.NewAction] = []
        events: list[Event] = []
        pending = list(actions)
        while True:
            if pending:
                action = pending.pop(0)
                by_choice = not automatic
            else:
                action = self._forced_action(game, state)
                if action is None and await self._rolls_for_person(game, state):
                    action = Roll(())
                by_choice = False
                if action is None and then is not None and state.phase == Phase.MOVE:
                    action, then = await then(state), None
                if action is None:
                    break
            actor = self._actor(game, state, action)
            if isinstance(action, Roll):
                rolls += 1
                action = rules.roll(state, fair_dice.roll_stream(game.seed, game.id, rolls))
                moves = moves.rolled(actor)
            before = state
            try:
                text = rules.notation(state, action)
                state = rules.apply(state, action)
            except IllegalMove as error:
                # The engine's sentence is English and for developers: log it, tell the
                # player in their language that the rules refuse this move.
                log.info("illegal move in game %s: %s", game.id, error)
                raise IllegalAction(reason=msg("reason.rules_refuse")) from None
            user = game.seats[actor].user_id if actor is not None else None
            kind = "timeout" if reason == "timeout" else game.spec.action_kind(action)
            log_rows.append(store.NewAction(actor, user, kind, text))
            seat = actor if actor is not None else -1
            events.append(Event(seat, text, not by_choice, kind, before, action, state))
            if finished_part is not None and finished_part(before, action) is not None:
                moves = moves.next_part()
            if state.phase == Phase.FINISHED:
                break
        outcome: Outcome | None = rules.outcome(state)
        resigned = {
            row.seat
            for row in log_rows
            if row.kind in ("resign", "timeout") and row.seat is not None
        }
        seats = tuple(replace(s, resigned=True) if s.seat in resigned else s for s in game.seats)
        now = self.clock()
        timer = game.timer
        if timer is not None:
            timer = _next_timer(timer, game, state, seats, log_rows, now, finished=outcome)
            deadline = None if outcome is not None else timer.flag_at()
        else:
            deadline = (
                None
                if outcome is not None
                else await self._deadline_for(game.guild_id, state, seats, now)
            )
        with self.storing(game.id):
            version = await store.append_actions(
                self.db,
                game.id,
                game.version,
                log_rows,
                new_state_json=self._snapshot(rules, state, rolls, timer, moves),
                now=now,
                turn_deadline=deadline,
                resigned_seats=sorted(resigned),
                results=self._results(game, outcome, reason) if outcome is not None else (),
                status=store.GameStatus.FINISHED if outcome is not None else None,
                live_position=_live_key(game.spec, game.rated, state),
                ai_turn=outcome is None and seats[int(state.turn)].is_ai,
            )
        after = replace(
            game,
            state=state,
            rolls=rolls,
            version=version,
            draft=Draft(),
            seats=seats,
            status="finished" if outcome is not None else game.status,
            turn_deadline=deadline,
            timer=timer,
            logged=game.logged + len(log_rows),
            moves=moves,
        )
        self.live.get(game.id).played(after, events)
        if outcome is not None and self.ratings is not None and game.rated:
            # Idempotent, and rebuilt from the results at start-up should we crash here.
            try:
                await self.ratings.record_game(game.id)
            except store.StorageError as error:
                # The game is stored finished: that stands, and its player must not hear
                # "nothing was changed". The ratings catch up at the next start.
                log.warning(
                    "could not rate game %s now (%s); rated at the next start", game.id, error
                )
        result = ActionResult(game, after, tuple(events))
        if outcome is not None:
            for listener in self.finish_listeners:
                listener(after)
        elif result.newly_on_turn is not None:
            for turn_listener in self.turn_listeners:
                turn_listener(after)
        return result

    async def _rolls_for_person(self, game: Game, state: Any) -> bool:
        """Whether to roll now for the person on turn: rolling is all their turn offers (the
        engine lists no action before the dice: no double, say) and their /prefs want it.
        AI seats roll in their own step (``ai_step``), with the move they choose."""
        if self.auto_roll is None or state.phase != Phase.ROLL:
            return False
        seat = game.seats[int(state.turn)]
        if seat.is_ai or seat.resigned or seat.user_id is None:
            return False
        if game.rules.legal_actions(state):
            return False
        return await self.auto_roll(seat.user_id)

    def _actor(self, game: Game, state: Any, action: Any) -> int | None:
        if isinstance(action, Resign):
            return action.seat
        if isinstance(action, Abandon) or game.spec.rolls_itself(state):
            return None
        return int(state.turn)

    def _forced_action(self, game: Game, state: GameState) -> object | None:
        """An action nobody has to choose: a roll the table makes (backgammon's opening),
        and a move that is the only one."""
        if game.spec.rolls_itself(state):
            return Roll(())
        if state.phase == Phase.MOVE:
            legal = game.rules.legal_actions(state)
            if len(legal) == 1:
                return legal[0]
        return None

    def _results(self, game: Game, outcome: Outcome, reason: str | None) -> list[store.SeatResult]:
        """One row per seat. Points: the winner's score; in two-seat games the loser's is
        its negative, so a leaderboard can sum them."""
        rows = []
        for seat in game.seats:
            won = outcome.winner == seat.seat
            points = outcome.points if won else (-outcome.points if len(game.seats) == 2 else 0)
            rows.append(
                store.SeatResult(
                    seat=seat.seat,
                    user_id=seat.user_id,
                    place=outcome.place_of(seat.seat),
                    points=points,
                    outcome_kind=outcome.kind,
                    reason=reason or str(outcome.reason),
                )
            )
        return rows

    def _remember(self, game: Game) -> None:
        self.live.get(game.id).remember(game)

    async def set_message(self, game_id: str, message_id: int) -> tuple[Event, ...]:
        """``message_id`` is the game's board from now on. Returns what was played on the
        board it replaces (that board's summary line): the events this process kept since
        then, or, where it did not see them all (after a restart), the log's read back once."""
        played = await self._record_board(game_id, message_id, replacing=None, checked=False)
        assert played is not None  # unchecked: always recorded
        return played

    async def post_board(
        self, game_id: str, message_id: int, replacing: int | None
    ) -> tuple[Event, ...] | None:
        """As :meth:`set_message` for a board this process posted in place of ``replacing``
        (the board the game had as it drew it): None where another board took that place
        meanwhile (another process on the same shard drew one too). That one stays the
        game's board; this one is the duplicate, and this process's copy of the game is
        read again."""
        return await self._record_board(game_id, message_id, replacing=replacing, checked=True)

    async def _record_board(
        self, game_id: str, message_id: int, *, replacing: int | None, checked: bool
    ) -> tuple[Event, ...] | None:
        old = await self.load(game_id)
        owner = self.live.get(game_id)
        if old.message_id == message_id:
            # Recorded already: a click on the new board came before its poster stored its
            # id (or after). Both retire the board it replaced, with the same line.
            return owner.replaced
        if checked:
            found = await store.replace_message(self.db, game_id, message_id, replacing)
            if found is None:
                owner.forget()
                return None
            seq = found
        else:
            seq = await store.set_message(self.db, game_id, message_id)
        played = owner.board_posted(old.message_seq, seq)
        if played is None:
            log_rows = await store.load_actions(self.db, game_id)
            rebuilt = events_from_log(old, log_rows, old.message_seq)
            cut = max(0, seq - old.message_seq)
            played = rebuilt[:cut]
            owner.rebuilt(seq, rebuilt[cut:])
        if owner.game is not None:
            owner.game = replace(owner.game, message_id=message_id, message_seq=seq)
        owner.replaced = tuple(played)
        return owner.replaced

    async def board_events(self, game: Game) -> tuple[Event, ...]:
        """Everything played on ``game``'s current board (the logged events after its
        ``message_seq``), so a board tells the whole of its part of the game: the steps the
        AI took while its board waited, the rolls and forced moves made for a person, a tied
        opening roll. The owner's copy, or the log's read back once where it has none."""
        owner = self.live.get(game.id)
        known = owner.known_since(game.message_seq)
        if known is not None and game.message_seq + len(known) == game.logged:
            return tuple(known)
        log_rows = await store.load_actions(self.db, game.id)
        rebuilt = events_from_log(game, log_rows, game.message_seq)
        if game.logged == len(log_rows):
            owner.rebuilt(game.message_seq, rebuilt)
        return tuple(rebuilt)

    async def boards_behind(self, owned: Callable[[int | None], bool] | None = None) -> list[Game]:
        """Active games whose board is behind the stored version, the longest waiting first
        (of the servers ``owned`` accepts, as :meth:`active_games`)."""
        rows = await store.boards_behind(self.db)
        return [await self.load(r.id) for r in rows if owned is None or owned(r.guild_id)]

    async def board_behind(self, game_id: str) -> bool:
        """Whether ``game_id``'s board is still behind its stored version (see above)."""
        return await store.board_behind(self.db, game_id)


def _live_key(spec: games.AnyGame, rated: bool, state: GameState) -> str | None:
    """The key of a rated game's position for the index of live rated positions (None:
    not indexed: unrated, over, or a game whose positions cannot be pasted anywhere)."""
    if not rated or spec.positions is None or state.phase == Phase.FINISHED:
        return None
    return spec.positions.key(state)


def _clock_seat(state: Any, seats: Sequence[SeatInfo]) -> int | None:
    """The seat whose match clock runs: a person on turn (the AI has no clock)."""
    if state.phase == Phase.FINISHED:
        return None
    seat = int(state.turn)
    return None if seats[seat].is_ai else seat


def _new_timer(
    options: dict[str, Any], state: Any, seats: Sequence[SeatInfo], now: float
) -> MatchClock | None:
    chosen = options.get(CLOCK)
    if not chosen:
        return None
    timer = MatchClock(float(chosen["delay"]), (float(chosen["reserve"]),) * len(seats))
    return timer.begin_turn(_clock_seat(state, seats), now, 0)


def _next_timer(
    timer: MatchClock,
    game: Game,
    state: Any,
    seats: Sequence[SeatInfo],
    log_rows: Sequence[store.NewAction],
    now: float,
    *,
    finished: Outcome | None,
) -> MatchClock:
    """The clock after ``log_rows``: unchanged while the same person keeps the turn (a roll,
    then the move); else the one who acted pays and the next turn begins (from ``now`` until
    its board is shown)."""
    running = timer.seat
    turned = (
        finished is not None
        or _clock_seat(state, seats) != running
        or any(row.seat is not None and row.seat != running for row in log_rows)
    )
    if not turned:
        return timer
    seat = None if finished is not None else _clock_seat(state, seats)
    return timer.end_turn(now).begin_turn(seat, now, game.version + len(log_rows))
