"""Tournaments: entering, starting, pairing each round, scoring games, standings, admin tools.

A tournament moves by stored transitions, each one write transaction guarded by its version
(:mod:`bot.storage.tournaments`): the start and every round's advance insert the round's
tables (its pairings) together with the new round number, so of two processes (or a click
racing a restarted bot) exactly one advances, and a SIGKILL leaves either the old round or
the new one with all its tables. The Discord side of a round (threads, games, boards,
the announcement) is a resumable step after it: :meth:`TournamentService.unstarted` lists the
tables still without a game, and a table gets its game in the transaction that creates it,
once. A game's end writes its table's points once; the round advances when the last table is
decided, or at the round's deadline (the games still on are decided as by their clocks).

Pairings and standings are pure (:mod:`bot.service.tournament_pairing`); a game enters them
only as its number of seats.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot import games
from bot import storage as store
from bot.clock import SYSTEM_CLOCK
from bot.games.spec import Asked
from bot.service import tournament_pairing as pairing
from bot.service.games import GameService
from bot.service.lookup import Viewer, may_see
from bot.service.models import Game, SeatInfo
from bot.service.ratings import RatingService
from bot.storage import tournaments as tstore
from bot.vocabulary.bounds import (
    EXTEND_HOURS,
    MATCH_POINTS,
    ROUND_HOURS,
    TOURNAMENT_ROUNDS,
    check_choice,
)
from bot.vocabulary.errors import TabulaError
from bot.vocabulary.options import LOCALE

log = logging.getLogger(__name__)

FORMATS = ("swiss", "round_robin", "knockout")
DEFAULT_ROUND_HOURS = 24.0
AI_LEVEL = "medium"  # the AI filling short Ludo tables
MAX_ENTRANTS = 64
# A /tournament create answers within Discord's 3 s, and its edit of that answer follows at
# once; a tournament still unannounced after this long was left so by a crash.
ANNOUNCE_GRACE_SECONDS = 10.0


class TournamentRefused(TabulaError):
    key = "tournament.refused"


@dataclass(frozen=True, slots=True)
class TournamentPlan:
    """What ``/tournament create`` asks for."""

    game: str
    format: str
    rounds: int | None  # Swiss only; None: enough rounds for a winner
    points: int  # the match length of each pairing (Backgammon)
    round_hours: float | None  # None: DEFAULT_ROUND_HOURS
    rated: bool
    options: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Tournament(tstore.TournamentFields):
    options: dict[str, Any]
    created_at: float

    @property
    def seats(self) -> int:
        return len(games.get(self.game).seats)

    @property
    def locale(self) -> str | None:
        value = self.options.get(LOCALE)
        return str(value) if value else None


@dataclass(frozen=True, slots=True)
class Entrant:
    user_id: int
    name: str
    rating: float
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class Table:
    round: int
    board: int
    seats: tuple[int | None, ...]
    channel_id: int | None
    game_id: str | None
    points: dict[int, float] | None
    decided_by: str | None

    @property
    def decided(self) -> bool:
        return self.points is not None

    @property
    def is_bye(self) -> bool:
        return self.decided_by == "bye"

    def people(self) -> list[int]:
        return [s for s in self.seats if s is not None]


@dataclass(frozen=True, slots=True)
class AuditEntry:
    at: float
    actor_id: int | None
    action: str
    detail: str


def _tournament(row: tstore.TournamentRow) -> Tournament:
    return store.from_record(Tournament, row, options=json.loads(row.options_json))


def _table(row: tstore.TableRow) -> Table:
    return Table(
        row.round, row.board, row.seats, row.channel_id, row.game_id, row.points, row.decided_by
    )


def played(tables: list[Table]) -> list[pairing.Played]:
    """The decided tables as the pairing and standings functions read them."""
    return [pairing.Played(t.seats, t.points) for t in tables if t.points is not None]


class TournamentService:
    def __init__(
        self,
        db: store.Database,
        games_service: GameService,
        ratings: RatingService,
        *,
        clock: Callable[[], float] = SYSTEM_CLOCK.now,
    ) -> None:
        self.db = db
        self.games = games_service
        self.ratings = ratings
        self.clock = clock

    # ------------------------------------------------------------------------- reading

    async def load(self, tournament_id: int, viewer: Viewer | None = None) -> Tournament:
        """The tournament; with ``viewer``, only from the channel of its announcement (its
        server's, under the rule of :mod:`bot.service.lookup`): a forged click from elsewhere
        is refused as an unknown tournament."""
        row = await tstore.load_tournament(self.db, tournament_id)
        if row is None or (
            viewer is not None
            and not (
                may_see(viewer, guild_id=row.guild_id, channel_id=row.channel_id, people=())
                and viewer.channel_id == row.channel_id
            )
        ):
            raise TournamentRefused("tournament.unknown")
        return _tournament(row)

    async def live(self) -> list[Tournament]:
        return [_tournament(r) for r in await tstore.live_tournaments(self.db)]

    async def in_channel(self, channel_id: int) -> Tournament:
        """The newest tournament announced in ``channel_id`` (the one the commands mean)."""
        rows = await tstore.tournaments_in_channel(self.db, channel_id)
        if not rows:
            raise TournamentRefused("tournament.none_here")
        live = [r for r in rows if r.status in ("open", "running")]
        return _tournament(live[0] if live else rows[0])

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        return [
            Entrant(e.user_id, e.name, e.rating, e.withdrawn)
            for e in await tstore.entrants(self.db, tournament_id)
        ]

    async def tables(self, tournament_id: int, round: int | None = None) -> list[Table]:
        return [_table(r) for r in await tstore.tournament_tables(self.db, tournament_id, round)]

    async def standings(self, tournament_id: int) -> list[pairing.Standing]:
        seeded = self._seeded(await self.entrants(tournament_id), active_only=False)
        return pairing.standings(seeded, played(await self.tables(tournament_id)))

    async def audit(self, tournament_id: int) -> list[AuditEntry]:
        return [
            AuditEntry(r.at, r.actor_id, r.action, r.detail)
            for r in await tstore.tournament_log(self.db, tournament_id)
        ]

    # ------------------------------------------------------------------------- entering

    async def create(
        self,
        plan: TournamentPlan,
        *,
        guild_id: int | None,
        channel_id: int,
        creator_id: int,
        interaction_id: int | None = None,
    ) -> Tournament:
        self.check_plan(plan)
        try:
            row = await tstore.create_tournament(
                self.db,
                guild_id=guild_id,
                channel_id=channel_id,
                creator_id=creator_id,
                game=plan.game,
                format=plan.format,
                rounds=plan.rounds or 0,
                points=plan.points,
                round_seconds=(plan.round_hours or DEFAULT_ROUND_HOURS) * 3600,
                rated=plan.rated,
                options_json=json.dumps(plan.options, sort_keys=True),
                now=self.clock(),
                interaction_id=interaction_id,
            )
        except tstore.TournamentConflict:
            raise TournamentRefused("tournament.duplicate") from None
        return _tournament(row)

    def check_plan(self, plan: TournamentPlan) -> None:
        """Everything ``/tournament create`` asked for, within the bounds its options give
        Discord (checked again here: a value Discord would refuse can still arrive), before
        anything is stored or announced."""
        check_choice("game", plan.game, games.kinds())
        if plan.rounds is not None:
            TOURNAMENT_ROUNDS.check(plan.rounds)
        MATCH_POINTS.check(plan.points)
        if plan.round_hours is not None:
            ROUND_HOURS.check(plan.round_hours)
        self.check_format(plan.game, plan.format)

    def check_format(self, game: str, format: str) -> None:
        if format not in FORMATS:
            raise TournamentRefused("tournament.bad_format")
        if format == "knockout" and len(games.get(game).seats) != 2:
            raise TournamentRefused("tournament.knockout_two_seats")

    async def set_message(
        self, tournament_id: int, message_id: int | None, event_id: int | None = None
    ) -> None:
        await tstore.set_tournament_message(self.db, tournament_id, message_id, event_id)

    async def claim_message(self, tournament_id: int, message_id: int) -> bool:
        """Record ``message_id`` as the announcement if none is recorded yet (see
        :func:`tstore.claim_tournament_message`)."""
        return await tstore.claim_tournament_message(self.db, tournament_id, message_id)

    async def replace_message(self, tournament_id: int, message_id: int) -> int | None:
        """Record ``message_id`` as the announcement; the one recorded before, if any."""
        return await tstore.replace_tournament_message(self.db, tournament_id, message_id)

    def announce_due_in(self, tournament: Tournament) -> float:
        """Seconds until an unannounced ``tournament`` is past its grace (0: it is)."""
        return max(0.0, tournament.created_at + ANNOUNCE_GRACE_SECONDS - self.clock())

    def unannounced(self, tournament: Tournament) -> bool:
        """A tournament stored without its announcement for longer than its create command
        takes (a crash in between): the sweep posts one. A younger one is left to the command
        still answering, in this process or another."""
        return (
            tournament.message_id is None
            and self.clock() - tournament.created_at >= ANNOUNCE_GRACE_SECONDS
        )

    async def join(self, tournament_id: int, user_id: int, name: str) -> Tournament:
        tournament = await self.load(tournament_id)
        if tournament.status != "open":
            raise TournamentRefused("tournament.not_open")
        if len(await self.entrants(tournament_id)) >= MAX_ENTRANTS:
            raise TournamentRefused("tournament.full", limit=MAX_ENTRANTS)
        rating = await self._rating(user_id, tournament)
        try:
            joined = await tstore.join_tournament(
                self.db, tournament_id, user_id, name, rating, self.clock()
            )
        except tstore.TournamentConflict:
            raise TournamentRefused("tournament.not_open") from None
        if not joined:
            raise TournamentRefused("tournament.already_in")
        return await self.load(tournament_id)

    async def _rating(self, user_id: int, tournament: Tournament) -> float:
        stats = await self.ratings.stats(user_id, tournament.guild_id)
        found = stats.get(tournament.game)
        return float(found.rating) if found is not None else 0.0

    async def leave(
        self,
        tournament_id: int,
        user_id: int,
        *,
        actor: int | None = None,
        action: str = "remove",
    ) -> tuple[str, Game | None]:
        """Leave an open tournament, or withdraw from a running one: the game of the round in
        play is then forfeited (resigned; at a Ludo table the others play on). Returns what
        happened and the game forfeited, if any (the UI shows it)."""
        try:
            outcome = await tstore.leave_tournament(
                self.db, tournament_id, user_id, self.clock(), actor=actor, action=action
            )
        except tstore.TournamentConflict:
            raise TournamentRefused("tournament.over") from None
        if outcome is None:
            raise TournamentRefused("tournament.not_in")
        forfeited = None
        if outcome == "withdrawn":
            forfeited = await self._forfeit_current(tournament_id, user_id)
        return outcome, forfeited

    async def _forfeit_current(self, tournament_id: int, user_id: int) -> Game | None:
        tournament = await self.load(tournament_id)
        for table in await self.tables(tournament_id, tournament.round):
            if user_id not in table.seats or table.decided:
                continue
            if table.game_id is not None:
                game = await self.games.load(table.game_id)
                if not game.finished and game.seat_of(user_id) is not None:
                    result = await self.games.resign(game.channel_id, user_id)
                    return result.after
            elif len(table.seats) == 2:  # no game yet: the other player wins the table
                other = next(p for p in table.people() if p != user_id)
                await tstore.decide_table(
                    self.db,
                    tournament_id,
                    table.round,
                    table.board,
                    {other: 1.0, user_id: 0.0},
                    "forfeit",
                    self.clock(),
                )
        return None

    # ------------------------------------------------------------------------- rounds

    async def start(self, tournament_id: int, user_id: int, *, can_manage: bool) -> Tournament:
        tournament = await self.load(tournament_id)
        self.check_organiser(tournament, user_id, can_manage)
        if tournament.status != "open":
            raise TournamentRefused("tournament.not_open")
        if len(await self.entrants(tournament_id)) < 2:
            raise TournamentRefused("tournament.too_few")
        advanced = await self.advance(tournament_id, expected=tournament.version)
        if advanced is None:  # someone else started it meanwhile
            raise TournamentRefused("tournament.not_open")
        return advanced

    def check_organiser(self, tournament: Tournament, user_id: int, can_manage: bool) -> None:
        if user_id != tournament.creator_id and not can_manage:
            raise TournamentRefused("tournament.not_organiser")

    def _seeded(self, entrants: list[Entrant], *, active_only: bool = True) -> list[int]:
        """Entrants in seed order: best rating first, then who joined first."""
        order = sorted(
            enumerate(entrants), key=lambda pair: (-pair[1].rating, pair[0])
        )  # enumerate keeps the join order as the second key
        return [e.user_id for _, e in order if not (active_only and e.withdrawn)]

    async def advance(
        self, tournament_id: int, *, expected: int | None = None
    ) -> Tournament | None:
        """Start the next round, or finish, if the round in play is decided; None when there
        is nothing to do or another process (or call) did it first."""
        tournament = await self.load(tournament_id)
        if expected is not None and tournament.version != expected:
            return None
        if tournament.status not in ("open", "running"):
            return None
        all_tables = await self.tables(tournament_id)
        current = [t for t in all_tables if t.round == tournament.round]
        if tournament.round and any(not t.decided for t in current):
            return None
        entrants = await self.entrants(tournament_id)
        seeded = self._seeded(entrants)
        everyone = self._seeded(entrants, active_only=False)
        new_tables, rounds, finish = self._next_round(tournament, seeded, everyone, all_tables)
        now = self.clock()
        try:
            row = await tstore.advance_tournament(
                self.db,
                tournament_id,
                tournament.version,
                tables=new_tables,
                deadline=None if finish else now + tournament.round_seconds,
                now=now,
                rounds=rounds,
                finish=finish,
            )
        except tstore.TournamentConflict:
            return None
        log.info(
            "tournament %s: %s",
            tournament_id,
            "finished" if finish else f"round {row.round} with {len(new_tables)} tables",
        )
        return _tournament(row)

    def _next_round(
        self,
        tournament: Tournament,
        seeded: list[int],
        everyone: list[int],
        all_tables: list[Table],
    ) -> tuple[list[tstore.NewTable], int | None, bool]:
        """The tables of the next round, the round count (set at the start), and whether the
        tournament is over instead."""
        seats = tournament.seats
        first = tournament.round == 0
        rounds: int | None = None
        if first:
            rounds = self._round_count(tournament, len(seeded))
        total = rounds or tournament.rounds
        history = pairing.History(tuple(played(all_tables)))
        if tournament.format == "knockout":
            if first:
                pairs = pairing.knockout_first_round(seeded)
            else:
                last = [t for t in all_tables if t.round == tournament.round]
                if len(last) <= 1:
                    return [], None, True
                pairs = pairing.knockout_round([_winner(t) for t in last])
            return self._two_seat_tables(pairs, set(seeded)), rounds, False
        if not first and (tournament.round >= total or len(seeded) < 2):
            return [], None, True
        number = tournament.round + 1
        if tournament.format == "round_robin":
            if seats == 2:
                # Fixed at the start from the seed order of everyone who entered: a player
                # who withdrew forfeits the rest.
                schedule = pairing.berger_rounds(everyone)
                return self._two_seat_tables(schedule[number - 1], set(seeded)), rounds, False
            groups = pairing.group_rounds(everyone, seats)
            return self._group_tables(groups[number - 1], set(seeded)), rounds, False
        if seats == 2:
            swiss = pairing.swiss_pairs(seeded, history)
            pairs_list: list[tuple[int | None, int | None]] = list(swiss.tables)  # type: ignore[arg-type]
            if swiss.bye is not None:
                pairs_list.append((swiss.bye, None))
            return self._two_seat_tables(pairs_list, set(seeded)), rounds, False
        tables = pairing.swiss_tables(seeded, history, seats, tournament.round)
        return self._group_tables(list(tables.tables), set(seeded)), rounds, False

    def _round_count(self, tournament: Tournament, entrants: int) -> int:
        seats = tournament.seats
        if tournament.format == "knockout":
            return pairing.knockout_rounds(entrants)
        if tournament.format == "round_robin":
            return (entrants - 1 + entrants % 2) if seats == 2 else seats
        return tournament.rounds or pairing.swiss_rounds(entrants)

    def _two_seat_tables(
        self, pairs: list[tuple[int | None, int | None]], active: set[int]
    ) -> list[tstore.NewTable]:
        """Tables of pairs; a pair with one person (a bye, or an opponent who withdrew) is
        decided at once as a win, and one without people is left out."""
        tables = []
        for board, (a, b) in enumerate(pairs):
            people = [p for p in (a, b) if p is not None and p in active]
            if not people:
                continue
            if len(people) == 1:
                (person,) = people
                tables.append(
                    tstore.NewTable(board, (person, None), {person: pairing.BYE_POINTS}, "bye")
                )
            else:
                tables.append(tstore.NewTable(board, (a, b)))
        return tables

    def _group_tables(
        self, groups: list[tuple[int | None, ...]], active: set[int]
    ) -> list[tstore.NewTable]:
        tables = []
        for board, group in enumerate(groups):
            seats = tuple(p if p is not None and p in active else None for p in group)
            if any(p is not None for p in seats):
                tables.append(tstore.NewTable(board, seats))
        return tables

    async def unstarted(self, tournament_id: int) -> list[Table]:
        """Tables of the round in play still without their game (the Discord step to do)."""
        tournament = await self.load(tournament_id)
        if tournament.status != "running":
            return []
        return [
            t
            for t in await self.tables(tournament_id, tournament.round)
            if t.game_id is None and not t.decided
        ]

    async def unshown(self, tournament_id: int) -> list[tuple[Table, Game]]:
        """Games of the round in play that were made but never shown (a crash between the
        game's transaction and its first board)."""
        tournament = await self.load(tournament_id)
        if tournament.status != "running":
            return []
        found = []
        for table in await self.tables(tournament_id, tournament.round):
            if table.game_id is not None and not table.decided:
                game = await self.games.load(table.game_id)
                if game.message_id is None and not game.finished:
                    found.append((table, game))
        return found

    def opening(self, tournament_id: int) -> contextlib.AbstractAsyncContextManager[bool]:
        """The cluster-wide lock of opening a round's games in Discord (``Database.exclusive``:
        True for the one holder; nothing waits)."""
        return self.db.exclusive(f"tournament-open-{tournament_id}")

    def announcing(self, tournament_id: int) -> contextlib.AbstractAsyncContextManager[bool]:
        """The cluster-wide lock of editing a tournament's announcement (True for the one
        holder; nothing waits)."""
        return self.db.exclusive(f"tournament-announce-{tournament_id}")

    async def table_in_channel(self, channel_id: int) -> tuple[Tournament, Table] | None:
        row = await tstore.table_in_channel(self.db, channel_id)
        if row is None:
            return None
        return await self.load(row.tournament_id), _table(row)

    async def move_game(
        self,
        tournament: Tournament,
        table: Table,
        game_id: str,
        *,
        channel_id: int,
        parent_channel_id: int | None,
    ) -> Game | None:
        """Move a table's game still on to a new thread (its old one was deleted); None when
        it is over meanwhile."""
        moved = await tstore.move_table_game(
            self.db,
            (tournament.id, table.round, table.board),
            game_id,
            channel_id,
            parent_channel_id,
        )
        self.games.forget(game_id)
        return await self.games.load(game_id) if moved else None

    async def claim_channel(self, tournament_id: int, table: Table, channel_id: int) -> int:
        return await tstore.claim_table_channel(
            self.db, tournament_id, table.round, table.board, channel_id
        )

    async def forget_channel(self, tournament_id: int, table: Table, channel_id: int) -> None:
        await tstore.reset_table_channel(
            self.db, tournament_id, table.round, table.board, channel_id
        )

    async def start_game(
        self,
        tournament: Tournament,
        table: Table,
        *,
        channel_id: int,
        parent_channel_id: int | None,
        names: dict[int, str],
        game_id: str | None = None,
    ) -> Game | None:
        """The table's game (as ``game_id``, if given), created with the claim of the table
        (None: it has one already, made by an earlier try or another process)."""
        options = game_options(tournament)
        seats = [
            SeatInfo(i, uid, names.get(uid, str(uid)))
            if uid is not None
            else SeatInfo(i, None, "AI", AI_LEVEL)
            for i, uid in enumerate(table.seats)
        ]
        try:
            return await self.games.start(
                game=tournament.game,
                guild_id=tournament.guild_id,
                channel_id=channel_id,
                parent_channel_id=parent_channel_id,
                seats=seats,
                options=options,
                rated=tournament.rated,
                tournament_table=(tournament.id, table.round, table.board),
                game_id=game_id,
            )
        except tstore.TournamentConflict:
            return None

    # ------------------------------------------------------------------------- results

    async def record_game(self, game_id: str) -> Tournament | None:
        """Score a finished game for its table (once); returns its tournament, None when the
        game belongs to none or was scored already."""
        row = await tstore.table_of_game(self.db, game_id)
        if row is None or row.points is not None:
            return None
        results = await store.results_of_game(self.db, game_id)
        if not results:  # abandoned: everyone at the table scores nothing
            points = {p: 0.0 for p in row.seats if p is not None}
        else:
            points = game_points(len(row.seats), [(r.user_id, r.place) for r in results])
        decided = await tstore.decide_table(
            self.db, row.tournament_id, row.round, row.board, points, "game", self.clock()
        )
        return await self.load(row.tournament_id) if decided else None

    async def record_unscored(self) -> list[int]:
        """Score the finished games a crash left unscored; returns their tournaments."""
        touched = []
        for row in await tstore.undecided_finished_tables(self.db):
            if row.game_id is not None and await self.record_game(row.game_id) is not None:
                touched.append(row.tournament_id)
        return touched

    async def overdue(self) -> list[Tournament]:
        now = self.clock()
        return [
            t
            for t in await self.live()
            if t.status == "running" and t.round_deadline is not None and t.round_deadline <= now
        ]

    # ------------------------------------------------------------------------- admin

    async def record_result(
        self, tournament_id: int, actor: int, winner: int, *, can_manage: bool
    ) -> tuple[Table, Game | None]:
        """An organiser records that ``winner`` won their table of the round in play (its
        game, if still on, is left to finish unscored: the table is decided)."""
        tournament = await self.load(tournament_id)
        self.check_organiser(tournament, actor, can_manage)
        for table in await self.tables(tournament_id, tournament.round):
            if winner in table.seats and not table.decided:
                scale = pairing.place_points(len(table.seats))
                points = {p: (scale[0] if p == winner else scale[-1]) for p in table.people()}
                await tstore.decide_table(
                    self.db,
                    tournament_id,
                    table.round,
                    table.board,
                    points,
                    "admin",
                    self.clock(),
                    actor=actor,
                    detail=f"result {table.round}.{table.board + 1}: {winner}",
                )
                game = await self.games.load(table.game_id) if table.game_id else None
                return table, game
        raise TournamentRefused("tournament.no_open_table")

    async def remove(
        self, tournament_id: int, actor: int, user_id: int, *, can_manage: bool, forfeit: bool
    ) -> Game | None:
        """An organiser removes an entrant (``forfeit``: logged as a forfeit of the current
        game); running, the entrant's game of the round in play is forfeited."""
        tournament = await self.load(tournament_id)
        self.check_organiser(tournament, actor, can_manage)
        _, game = await self.leave(
            tournament_id, user_id, actor=actor, action="forfeit" if forfeit else "remove"
        )
        return game

    async def extend(
        self, tournament_id: int, actor: int, hours: float, *, can_manage: bool
    ) -> Tournament:
        EXTEND_HOURS.check(hours)
        tournament = await self.load(tournament_id)
        self.check_organiser(tournament, actor, can_manage)
        try:
            row = await tstore.extend_round(
                self.db, tournament_id, hours * 3600, self.clock(), actor=actor
            )
        except tstore.TournamentConflict:
            raise TournamentRefused("tournament.not_running") from None
        return _tournament(row)

    async def cancel(self, tournament_id: int, actor: int, *, can_manage: bool) -> Tournament:
        tournament = await self.load(tournament_id)
        self.check_organiser(tournament, actor, can_manage)
        try:
            row = await tstore.set_tournament_status(
                self.db, tournament_id, "cancelled", self.clock(), actor=actor
            )
        except tstore.TournamentConflict:
            raise TournamentRefused("tournament.over") from None
        return _tournament(row)


def game_options(tournament: Tournament) -> dict[str, Any]:
    """The options each game of the tournament is stored with (backgammon: a match to the
    tournament's points, with the cube; never hints)."""
    spec = games.get(tournament.game)
    options = spec.options.parse(Asked(points=tournament.points, cube=True, hints=False))
    if tournament.locale:
        options[LOCALE] = tournament.locale
    return options


def game_points(seats: int, places: list[tuple[int | None, int]]) -> dict[int, float]:
    """Tournament points of a finished game's people from their places (two seats: 1 for
    the winner; more: :func:`~bot.service.tournament_pairing.place_points`)."""
    scale = pairing.place_points(seats)
    return {uid: scale[min(place, len(scale)) - 1] for uid, place in places if uid is not None}


def _winner(table: Table) -> int | None:
    if table.points is None:
        return None
    people = table.people()
    if not people:
        return None
    return max(people, key=lambda p: (table.points or {}).get(p, 0.0))
