"""The tournament service on both backends: entering, rounds advanced exactly once, games
scored once, standings equal to a recomputation from the stored results, admin tools."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Awaitable
from typing import Any

import pytest

from bot import storage
from bot.service import tournament_pairing as pairing
from bot.service.games import GameService
from bot.service.ratings import RatingService
from bot.service.tournaments import (
    ANNOUNCE_GRACE_SECONDS,
    Entrant,
    Tournament,
    TournamentPlan,
    TournamentRefused,
    TournamentService,
    game_points,
)
from tests.service.playing import Clock, click_to_end

GUILD, CHANNEL, BOSS = 9, 500, 1
_threads = itertools.count(10_000)


@pytest.fixture
def clock() -> Clock:
    return Clock(1_700_000_000.0)


def make_service(db: storage.Database, clock: Clock) -> TournamentService:
    ratings = RatingService(db)
    return TournamentService(
        db, GameService(db, clock=clock, ratings=ratings), ratings, clock=clock
    )


@pytest.fixture
def service(db: storage.Database, clock: Clock) -> TournamentService:
    return make_service(db, clock)


async def refusal(awaitable: Awaitable[Any]) -> str:
    with pytest.raises(TournamentRefused) as caught:
        await awaitable
    return caught.value.key


async def open_with(
    service: TournamentService, people: int, game: str = "ur", format: str = "swiss", **kw: Any
) -> Tournament:
    tournament = await service.create(
        TournamentPlan(game, format, kw.get("rounds"), 1, 1.0, True, {}),
        guild_id=GUILD,
        channel_id=CHANNEL,
        creator_id=BOSS,
    )
    for user in range(100, 100 + people):
        await service.join(tournament.id, user, f"p{user}")
    return tournament


async def start_games(service: TournamentService, tournament_id: int) -> list[Any]:
    tournament = await service.load(tournament_id)
    made = []
    for table in await service.unstarted(tournament_id):
        thread = next(_threads)
        channel = await service.claim_channel(tournament_id, table, thread)
        names = {p: f"p{p}" for p in table.people()}
        game = await service.start_game(
            tournament, table, channel_id=channel, parent_channel_id=CHANNEL, names=names
        )
        assert game is not None
        made.append(game)
    return made


async def play_round(
    service: TournamentService, tournament_id: int, seed: int, *, clicks: bool = False
) -> None:
    """End every game of the round: played out by clicks, or (cheaper, as most tests need
    only results) by a resignation of a seat the seed picks."""
    rng = random.Random(seed)
    for game in await start_games(service, tournament_id):
        if clicks:
            end = await click_to_end(service.games, game, seed, channel_id=game.channel_id)
        elif len(game.seats) == 2:
            people = [s.user_id for s in game.seats if s.user_id is not None]
            end = (await service.games.resign(game.channel_id, rng.choice(people))).after
        else:  # a Ludo table: the AI plays every seat out
            result = await service.games.end_by_deadline(game.id)
            assert result is not None
            end = result.after
            while not end.finished:
                step = await service.games.ai_step(end.id)
                assert step is not None
                end = step.after
        assert end.finished
        await service.record_game(end.id)
    await service.advance(tournament_id)


async def recomputed(db: storage.Database, service: TournamentService, tid: int) -> list[Any]:
    """Standings from the stored results table alone (and the byes)."""
    tables = await service.tables(tid)
    played = []
    for table in tables:
        if table.game_id is None:
            assert table.is_bye
            played.append(pairing.Played(table.seats, table.points or {}))
            continue
        results = await storage.results_of_game(db, table.game_id)
        points = game_points(len(table.seats), [(r.user_id, r.place) for r in results])
        played.append(pairing.Played(table.seats, points))
    seeded = service._seeded(await service.entrants(tid), active_only=False)
    return pairing.standings(seeded, played)


@pytest.mark.parametrize("people", [6, 7])
async def test_swiss_played_to_the_end(
    service: TournamentService, db: storage.Database, people: int
) -> None:
    tournament = await open_with(service, people)
    assert await refusal(service.start(tournament.id, 100, can_manage=False)) == (
        "tournament.not_organiser"
    )
    started = await service.start(tournament.id, BOSS, can_manage=False)
    assert started.round == 1 and started.rounds == 3
    assert await refusal(service.join(tournament.id, 999, "late")) == "tournament.not_open"
    for seed in range(3):
        await play_round(service, tournament.id, seed)
    final = await service.load(tournament.id)
    assert final.status == "finished"
    tables = await service.tables(tournament.id)
    pairs = [frozenset(t.people()) for t in tables if not t.is_bye]
    assert len(pairs) == len(set(pairs)), "nobody meets twice"
    byes = [t.people()[0] for t in tables if t.is_bye]
    assert len(byes) == (3 if people % 2 else 0) and len(set(byes)) == len(byes)
    assert await service.standings(tournament.id) == await recomputed(db, service, tournament.id)


async def test_round_robin_and_knockout(service: TournamentService, db: storage.Database) -> None:
    robin = await open_with(service, 4, format="round_robin")
    await service.start(robin.id, BOSS, can_manage=True)
    for seed in range(3):
        await play_round(service, robin.id, seed)
    assert (await service.load(robin.id)).status == "finished"
    met = {frozenset(t.people()) for t in await service.tables(robin.id)}
    assert len(met) == 6
    ko = await open_with(service, 5, format="knockout")
    await service.start(ko.id, BOSS, can_manage=True)
    first = await service.tables(ko.id, 1)
    assert sum(t.is_bye for t in first) == 3  # 8-bracket: seeds 1-3 have byes
    for seed in range(3):
        await play_round(service, ko.id, seed)
    final = await service.load(ko.id)
    assert final.status == "finished" and final.round == 3
    assert len(await service.tables(ko.id, 3)) == 1
    assert await service.standings(ko.id) == await recomputed(db, service, ko.id)


async def test_ludo_swiss_fills_tables_with_the_ai(service: TournamentService) -> None:
    tournament = await open_with(service, 6, game="ludo", rounds=1)
    await service.start(tournament.id, BOSS, can_manage=True)
    tables = await service.unstarted(tournament.id)
    assert [sum(p is not None for p in t.seats) for t in tables] == [3, 3]
    await play_round(service, tournament.id, 0, clicks=True)
    assert (await service.load(tournament.id)).status == "finished"
    scores = sorted((s.score for s in await service.standings(tournament.id)), reverse=True)
    # Places 1-4 earn 3, 2, 1, 0; the AI seat takes one place at each table.
    assert sum(scores) in range(2 * (3 + 2 + 1) - 2 * 3, 2 * 6 + 1)


async def test_advance_and_game_creation_happen_once(
    service: TournamentService, db: storage.Database, clock: Clock
) -> None:
    tournament = await open_with(service, 6)
    other = make_service(db, clock)  # another process's service on the same database
    started = await asyncio.gather(
        *(s.start(tournament.id, BOSS, can_manage=True) for s in (service, other)),
        return_exceptions=True,
    )
    assert sum(isinstance(s, Tournament) for s in started) == 1
    assert len(await service.tables(tournament.id)) == 3
    table = (await service.unstarted(tournament.id))[0]
    loaded = await service.load(tournament.id)
    games = await asyncio.gather(
        *(
            s.start_game(loaded, table, channel_id=next(_threads), parent_channel_id=1, names={})
            for s in (service, other)
        )
    )
    assert sum(g is not None for g in games) == 1
    assert len(await service.unstarted(tournament.id)) == 2
    # Scoring twice writes once; advancing before the round is decided does nothing.
    assert await service.advance(tournament.id) is None
    await start_games(service, tournament.id)
    for t in await service.tables(tournament.id, 1):
        assert t.game_id is not None
        game = await service.games.load(t.game_id)
        await service.games.resign(game.channel_id, game.seats[0].user_id or 0)
    scored = [
        await service.record_game(t.game_id or "") for t in await service.tables(tournament.id, 1)
    ]
    assert all(s is not None for s in scored)
    assert (
        await service.record_game((await service.tables(tournament.id, 1))[0].game_id or "") is None
    )
    advanced = await asyncio.gather(service.advance(tournament.id), other.advance(tournament.id))
    assert sum(a is not None for a in advanced) == 1
    assert len(await service.tables(tournament.id, 2)) == 3


async def test_withdrawal_forfeits_and_admin_tools_are_logged(
    service: TournamentService, clock: Clock
) -> None:
    tournament = await open_with(service, 4)
    await service.start(tournament.id, BOSS, can_manage=True)
    await start_games(service, tournament.id)
    first = (await service.tables(tournament.id, 1))[0]
    quitter, stayer = first.seats
    assert quitter is not None and stayer is not None
    outcome, game = await service.leave(tournament.id, quitter)
    assert outcome == "withdrawn" and game is not None and game.finished
    scored = await service.record_game(game.id)
    assert scored is not None
    table = (await service.tables(tournament.id, 1))[0]
    assert table.points == {stayer: 1.0, quitter: 0.0}
    second = (await service.tables(tournament.id, 1))[1]
    winner = second.seats[1]
    assert winner is not None
    assert (
        await refusal(service.record_result(tournament.id, 555, winner, can_manage=False))
        == "tournament.not_organiser"
    )
    await service.record_result(tournament.id, BOSS, winner, can_manage=False)
    extended = await service.extend(tournament.id, BOSS, 2.0, can_manage=True)
    assert extended.round_deadline == clock() + 3600 + 7200
    advanced = await service.advance(tournament.id)
    assert advanced is not None and advanced.round == 2
    people = {p for t in await service.tables(tournament.id, 2) for p in t.people()}
    assert quitter not in people and len(people) == 3  # three left: one has the bye
    actions = [(e.action, e.actor_id) for e in await service.audit(tournament.id)]
    assert ("admin", BOSS) in actions and ("extend", BOSS) in actions
    await service.cancel(tournament.id, BOSS, can_manage=False)
    assert (await service.load(tournament.id)).status == "cancelled"


async def test_a_round_past_its_deadline_is_decided_by_the_clocks(
    service: TournamentService, clock: Clock
) -> None:
    tournament = await open_with(service, 4, rounds=1)
    await service.start(tournament.id, BOSS, can_manage=True)
    games = await start_games(service, tournament.id)
    assert await service.overdue() == []
    clock.now += 3601
    assert [t.id for t in await service.overdue()] == [tournament.id]
    for game in games:
        on_turn = (await service.games.load(game.id)).seat_on_turn.user_id
        result = await service.games.end_by_deadline(game.id)
        assert result is not None and result.after.finished
        await service.record_game(game.id)
        table = next(t for t in await service.tables(tournament.id) if t.game_id == game.id)
        assert table.points is not None and table.points[on_turn or 0] == 0.0
    assert await service.games.end_by_deadline(games[0].id) is None
    assert (await service.advance(tournament.id)) is not None
    assert (await service.load(tournament.id)).status == "finished"


async def test_a_backgammon_pairing_is_a_match_to_the_points(
    service: TournamentService,
) -> None:
    tournament = await service.create(
        TournamentPlan("backgammon", "knockout", None, 5, 24.0, False, {}),
        guild_id=GUILD,
        channel_id=CHANNEL,
        creator_id=BOSS,
    )
    for user in (100, 101, 102):
        await service.join(tournament.id, user, f"p{user}")
    await service.start(tournament.id, BOSS, can_manage=True)
    (game,) = await start_games(service, tournament.id)
    assert game.options["match_length"] == 5 and not game.rated
    assert (
        await refusal(
            service.create(
                TournamentPlan("ludo", "knockout", None, 1, 1.0, True, {}),
                guild_id=GUILD,
                channel_id=CHANNEL,
                creator_id=BOSS,
            )
        )
        == "tournament.knockout_two_seats"
    )


async def test_ludo_round_robin_by_groups_and_its_deadline(
    service: TournamentService, clock: Clock
) -> None:
    tournament = await open_with(service, 5, game="ludo", format="round_robin")
    started = await service.start(tournament.id, BOSS, can_manage=True)
    assert started.rounds == 4
    tables = await service.unstarted(tournament.id)
    assert sorted(len(t.people()) for t in tables) == [2, 3]
    # Round one runs out of time: the AI plays every person's seat out.
    clock.now += 3601
    for game in await start_games(service, tournament.id):
        result = await service.games.end_by_deadline(game.id)
        assert result is not None and all(s.is_ai for s in result.after.seats)
        assert await service.games.end_by_deadline(game.id) is None  # once
        end = result.after
        while not end.finished:
            step = await service.games.ai_step(end.id)
            assert step is not None
            end = step.after
        await service.record_game(end.id)
    await service.advance(tournament.id)
    for seed in range(3):
        await play_round(service, tournament.id, seed)
    assert (await service.load(tournament.id)).status == "finished"
    for person in range(100, 105):
        tables = await service.tables(tournament.id)
        seats = [t.seats.index(person) for t in tables if person in t.seats]
        assert sorted(seats) == [0, 1, 2, 3], "everyone sits in each seat once"


def test_seeds_are_by_rating_then_by_joining(service: TournamentService) -> None:
    joined = [
        Entrant(1, "new", 0.0, False),
        Entrant(2, "strong", 1620.0, False),
        Entrant(3, "gone", 1700.0, True),
        Entrant(4, "fair", 1540.0, False),
        Entrant(5, "newer", 0.0, False),
    ]
    assert service._seeded(joined) == [2, 4, 1, 5]
    assert service._seeded(joined, active_only=False) == [3, 2, 4, 1, 5]


async def test_the_announcement_is_claimed_once_and_the_commands_answer_wins(
    service: TournamentService, clock: Clock
) -> None:
    """A crash between storing a tournament and its announcement is repaired by the sweep,
    but only once the create command had its time to answer (in this process or a twin),
    and never twice: the recovery's post is kept only where none is recorded, and the
    command's own answer replaces one the recovery made meanwhile."""
    tournament = await open_with(service, 0)
    assert tournament.message_id is None
    assert not service.unannounced(tournament)  # the command may still be answering
    clock.now += ANNOUNCE_GRACE_SECONDS + 1
    assert service.unannounced(await service.load(tournament.id))
    assert await service.claim_message(tournament.id, 7001)
    assert not await service.claim_message(tournament.id, 7002)  # a twin's recovery
    assert not service.unannounced(await service.load(tournament.id))
    assert await service.replace_message(tournament.id, 7003) == 7001  # the command's answer
    assert (await service.load(tournament.id)).message_id == 7003
