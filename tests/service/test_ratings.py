"""Ratings against a real SQLite file: who is rated, scopes, idempotency, boards and stats."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from itertools import count

import pytest

from bot import storage
from bot.service.games import GameService
from bot.service.models import SeatInfo
from bot.service.ratings import (
    MODEL,
    PROVISIONAL_GAMES,
    RatingService,
    display_rating,
    ordinal,
    recompute,
)
from bot.storage import NewAction, SeatResult, SeatRow
from tests.storage.conftest import new_game
from tests.storage.helpers import all_ratings, is_rated

T0 = 1_700_000_000.0
GUILD = 1
OTHER_GUILD = 2
AI = None  # an AI seat in the ``people`` lists below

_ids = count(1)


async def finished(
    db: storage.Database,
    people: Sequence[int | None],
    places: Sequence[int],
    *,
    game: str = "ur",
    guild: int | None = GUILD,
    at: float | None = None,
    kind: str = "win",
    rated: bool = True,
) -> str:
    """Store a finished game whose seat ``i`` is held by ``people[i]`` and placed ``places[i]``."""
    number = next(_ids)
    game_id = f"g{number:05d}"
    when = T0 + number if at is None else at
    seats = [
        SeatRow(i, user, None if user is not None else "medium", f"seat{i}")
        for i, user in enumerate(people)
    ]
    await new_game(
        db,
        game_id,
        channel_id=500 + number,
        seats=seats,
        game=game,
        guild_id=guild,
        now=when,
        rated=rated,
    )
    results = [
        SeatResult(i, user, place, 1 if place == 1 else -1, kind, "normal")
        for i, (user, place) in enumerate(zip(people, places, strict=True))
    ]
    await storage.append_actions(
        db,
        game_id,
        0,
        [NewAction(None, None, "move", "(test)")],
        "{}",
        when,
        status=storage.GameStatus.FINISHED,
        results=results,
    )
    return game_id


async def rows_by_key(db: storage.Database) -> dict[storage.RatingKey, storage.RatingRow]:
    return {row.key: row for row in await all_ratings(db)}


async def test_a_two_player_game_moves_both_players_in_both_scopes(db: storage.Database) -> None:
    ratings = RatingService(db)
    game_id = await finished(db, [11, 22], [1, 2])
    assert await ratings.record_game(game_id)
    rows = await rows_by_key(db)
    assert set(rows) == {
        (scope, "ur", user) for scope in ("global", str(GUILD)) for user in (11, 22)
    }
    winner, loser = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 2])
    for scope in ("global", str(GUILD)):
        won, lost = rows[(scope, "ur", 11)], rows[(scope, "ur", 22)]
        assert (won.mu, won.sigma) == (winner[0].mu, winner[0].sigma)
        assert (lost.mu, lost.sigma) == (loser[0].mu, loser[0].sigma)
        assert (won.games, won.wins, won.losses, won.streak) == (1, 1, 0, 1)
        assert (lost.games, lost.wins, lost.losses, lost.streak) == (1, 0, 1, -1)


async def test_a_direct_message_game_counts_only_globally(db: storage.Database) -> None:
    ratings = RatingService(db)
    assert await ratings.record_game(await finished(db, [11, 22], [2, 1], guild=None))
    assert {key[0] for key in await rows_by_key(db)} == {"global"}


async def test_four_seat_ludo_rates_everyone_by_place_with_ties(db: storage.Database) -> None:
    ratings = RatingService(db)
    game_id = await finished(db, [11, 22, 33, 44], [4, 2, 1, 2], game="ludo")
    assert await ratings.record_game(game_id)
    rows = await rows_by_key(db)
    fresh = [[MODEL.rating()] for _ in range(4)]
    expected = MODEL.rate(fresh, ranks=[1, 2, 2, 4])  # 33 first, 22 and 44 tied, 11 last
    for user, (after,) in zip((33, 22, 44, 11), expected, strict=True):
        row = rows[("global", "ludo", user)]
        assert (row.mu, row.sigma) == (after.mu, after.sigma)
    tied = rows[("global", "ludo", 22)], rows[("global", "ludo", 44)]
    assert tied[0].mu == tied[1].mu and tied[0].sigma == tied[1].sigma
    mus = [rows[("global", "ludo", user)].mu for user in (33, 22, 11)]
    assert mus == sorted(mus, reverse=True)
    records = {user: (r.wins, r.losses) for (_, _, user), r in rows.items()}
    assert records == {33: (1, 0), 22: (0, 1), 44: (0, 1), 11: (0, 1)}


async def test_ai_seats_are_left_out_of_the_match(db: storage.Database) -> None:
    ratings = RatingService(db)
    # An AI wins; of the people, 22 (second) beat 44 (fourth): a two-person match.
    game_id = await finished(db, [AI, 22, AI, 44], [1, 2, 3, 4], game="ludo")
    assert await ratings.record_game(game_id)
    rows = await rows_by_key(db)
    assert {user for (_, _, user) in rows} == {22, 44}
    ahead, behind = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 2])
    assert rows[("global", "ludo", 22)].mu == ahead[0].mu
    assert rows[("global", "ludo", 44)].mu == behind[0].mu
    # Both lost the game itself: the AI won it.
    assert rows[("global", "ludo", 22)].losses == rows[("global", "ludo", 44)].losses == 1


@pytest.mark.parametrize(
    ("people", "places", "rated"),
    [
        ([11, AI, AI, AI], [1, 2, 3, 4], True),  # one person: nobody to rate against
        ([11, 22], [1, 1], True),  # abandoned: both share first place, nothing decided
        ([11, 22], [1, 2], False),  # a casual game
    ],
    ids=["alone-with-ai", "nothing-decided", "unrated"],
)
async def test_games_that_change_nothing(
    db: storage.Database, people: list[int | None], places: list[int], rated: bool
) -> None:
    ratings = RatingService(db)
    game = "ludo" if len(people) == 4 else "ur"
    game_id = await finished(db, people, places, game=game, rated=rated)
    assert not await ratings.record_game(game_id)
    assert await all_ratings(db) == []
    assert not await is_rated(db, game_id)


async def test_running_and_unknown_games_are_not_rated(db: storage.Database) -> None:
    ratings = RatingService(db)
    await storage.create_game(
        db,
        game_id="live",
        game="ur",
        guild_id=GUILD,
        channel_id=1,
        state_json="{}",
        seats=[SeatRow(0, 11, None, "a"), SeatRow(1, 22, None, "b")],
        dice_seed="s",
        dice_seed_hash="h",
        rated=True,
        now=T0,
    )
    assert not await ratings.record_game("live")
    assert not await ratings.record_game("no-such-game")


async def test_rating_a_game_twice_applies_once(db: storage.Database) -> None:
    ratings = RatingService(db)
    game_id = await finished(db, [11, 22], [1, 2])
    assert await ratings.record_game(game_id)
    once = await rows_by_key(db)
    assert not await ratings.record_game(game_id)
    assert await rows_by_key(db) == once


async def test_concurrent_recording_of_one_game_applies_once(db: storage.Database) -> None:
    ratings = RatingService(db)
    game_id = await finished(db, [11, 22], [1, 2])
    outcomes = await asyncio.gather(*(ratings.record_game(game_id) for _ in range(4)))
    assert sorted(outcomes) == [False, False, False, True]
    assert (await rows_by_key(db))[("global", "ur", 11)].games == 1


async def test_provisional_until_enough_games(db: storage.Database) -> None:
    ratings = RatingService(db)
    for number in range(PROVISIONAL_GAMES):
        await ratings.record_game(await finished(db, [11, 22], [1, 2]))
        stats = await ratings.stats(11, None)
        assert stats["ur"].games == number + 1
        assert stats["ur"].provisional == (number + 1 < PROVISIONAL_GAMES)
    board = await ratings.leaderboard("ur", None)
    assert [row.provisional for row in board.rows] == [False, False]


@pytest.mark.parametrize(
    ("results", "streak"),
    [
        ("WWW", 3),
        ("LL", -2),
        ("WWL", -1),
        ("LLW", 1),
        ("WWD", 0),
        ("DW", 1),
    ],
)
async def test_streaks(db: storage.Database, results: str, streak: int) -> None:
    ratings = RatingService(db)
    for result in results:
        if result == "D":  # 11 and 22 share first place ahead of 33: a draw for 11
            game_id = await finished(db, [11, 22, 33, AI], [1, 1, 3, 4], game="ludo")
        else:
            places = [1, 2] if result == "W" else [2, 1]
            game_id = await finished(db, [11, 22, AI, AI], [*places, 3, 4], game="ludo")
        assert await ratings.record_game(game_id)
    stats = (await ratings.stats(11, GUILD))["ludo"]
    assert stats.streak == streak
    assert (stats.wins, stats.losses, stats.draws) == (
        results.count("W"),
        results.count("L"),
        results.count("D"),
    )
    assert stats.streak_text == (f"{streak:+d}" if streak else "0")


async def test_leaderboard_pages_are_ordered_and_complete(db: storage.Database) -> None:
    ratings = RatingService(db)
    rng = random.Random(5)
    players = list(range(100, 125))
    for _ in range(60):
        a, b = rng.sample(players, 2)
        await ratings.record_game(await finished(db, [a, b], [1, 2]))
    pages = [await ratings.leaderboard("ur", GUILD, page, page_size=10) for page in (1, 2, 3, 4)]
    assert [p.total for p in pages] == [25] * 4 and pages[0].pages == 3
    assert [len(p.rows) for p in pages] == [10, 10, 5, 0]
    listed = [row for p in pages for row in p.rows]
    assert [row.rank for row in listed] == list(range(1, 26))
    assert sorted(row.user_id for row in listed) == players
    assert [row.rating for row in listed] == sorted((row.rating for row in listed), reverse=True)
    assert (await ratings.leaderboard("ur", GUILD, 0)).page == 1  # clamped


async def test_leaderboard_scopes_are_separate(db: storage.Database) -> None:
    ratings = RatingService(db)
    await ratings.record_game(await finished(db, [11, 22], [1, 2], guild=GUILD))
    await ratings.record_game(await finished(db, [33, 44], [1, 2], guild=OTHER_GUILD))
    await ratings.record_game(await finished(db, [55, 66], [1, 2], guild=None))
    here = await ratings.leaderboard("ur", GUILD)
    there = await ratings.leaderboard("ur", OTHER_GUILD)
    everywhere = await ratings.leaderboard("ur", None)
    assert [r.user_id for r in here.rows] == [11, 22]
    assert [r.user_id for r in there.rows] == [33, 44]
    assert {r.user_id for r in everywhere.rows} == {11, 22, 33, 44, 55, 66}
    assert (await ratings.leaderboard("ludo", None)).rows == ()
    with pytest.raises(ValueError):
        await ratings.leaderboard("chess", None)


async def test_backgammon_stats_count_gammons_and_backgammons(db: storage.Database) -> None:
    ratings = RatingService(db)
    games = [
        ([1, 2], "gammon", GUILD),
        ([1, 2], "gammon", OTHER_GUILD),
        ([1, 2], "backgammon", GUILD),
        ([2, 1], "gammon", GUILD),
        ([2, 1], "single", GUILD),
        ([1, 2], "single", GUILD),
    ]
    for places, kind, guild in games:
        game_id = await finished(db, [11, 22], places, game="backgammon", kind=kind, guild=guild)
        await ratings.record_game(game_id)
    await finished(db, [11, 22], [2, 1], game="backgammon", kind="backgammon", rated=False)
    everywhere = (await ratings.stats(11, None))["backgammon"]
    assert everywhere.endings == {"gammon": (2, 1), "backgammon": (1, 0)}
    assert (everywhere.games, everywhere.wins, everywhere.losses) == (6, 4, 2)
    here = (await ratings.stats(11, GUILD))["backgammon"]
    assert (here.endings["gammon"], here.games) == ((1, 1), 5)
    loser = (await ratings.stats(22, None))["backgammon"]
    assert loser.endings == {"gammon": (1, 2), "backgammon": (0, 1)}
    assert (await ratings.stats(11, None)).keys() == {"backgammon"}
    assert await ratings.stats(999, None) == {}


def test_display_rating_starts_at_1500_and_follows_the_ordinal() -> None:
    fresh = MODEL.rating()
    assert ordinal(fresh.mu, fresh.sigma) == 0
    assert display_rating(fresh.mu, fresh.sigma) == 1500
    assert display_rating(30.0, 2.0) == 1500 + 40 * 24
    assert display_rating(25.0, 3.0) > display_rating(25.0, 5.0)  # more certain, higher


async def random_history(db: storage.Database, seed: int, games: int) -> list[str]:
    """Games of every kind: guilds and DMs, ties, AI seats, unrated, several game types."""
    rng = random.Random(seed)
    people = list(range(1, 9))
    ids = []
    for _ in range(games):
        game = rng.choice(["ur", "backgammon", "ludo"])
        guild = rng.choice([GUILD, OTHER_GUILD, None])
        if game == "ludo":
            seats: list[int | None] = [*rng.sample(people, rng.randint(1, 4))]
            seats += [AI] * (4 - len(seats))
            rng.shuffle(seats)
            places = [rng.randint(1, 4) for _ in seats]
        else:
            seats = [*rng.sample(people, 2)]
            places = rng.choice([[1, 2], [2, 1], [1, 1]])
        kind = rng.choice(["single", "gammon", "backgammon"]) if game == "backgammon" else "win"
        rated = rng.random() < 0.85
        ids.append(
            await finished(db, seats, places, game=game, guild=guild, kind=kind, rated=rated)
        )
    return ids


async def test_incremental_ratings_equal_a_rebuild_from_history(db: storage.Database) -> None:
    ratings = RatingService(db)
    game_ids = await random_history(db, seed=11, games=80)
    for game_id in game_ids:
        await ratings.record_game(game_id)
    incremental = await rows_by_key(db)
    assert len(incremental) > 20
    rated_before = [gid for gid in game_ids if await is_rated(db, gid)]
    assert 30 < len(rated_before) < len(game_ids)
    assert await ratings.rebuild() == len(incremental)
    assert await rows_by_key(db) == incremental  # exactly: same floats, same counts
    assert [gid for gid in game_ids if await is_rated(db, gid)] == rated_before


async def test_pure_recompute_matches_the_table(db: storage.Database) -> None:
    ratings = RatingService(db)
    game_ids = await random_history(db, seed=3, games=40)
    for game_id in game_ids:
        await ratings.record_game(game_id)
    results = [row for gid in game_ids for row in await storage.results_of_game(db, gid)]
    random.Random(1).shuffle(results)  # recompute orders by finish time itself
    table, matches = recompute(results)
    assert table == await rows_by_key(db)
    assert [m.game_id for m in matches] == sorted(
        [gid for gid in game_ids if await is_rated(db, gid)]
    )


async def test_rebuild_repairs_a_damaged_table(db: storage.Database) -> None:
    ratings = RatingService(db)
    for game_id in await random_history(db, seed=7, games=30):
        await ratings.record_game(game_id)
    good = await rows_by_key(db)

    def damage(tx: storage.Transaction) -> None:  # a rating bug wrote nonsense
        tx.execute("UPDATE ratings SET mu = 99, games = 0, wins = 0, losses = 0")
        tx.execute("DELETE FROM rated_games")

    await db.write(damage)
    await ratings.rebuild()
    assert await rows_by_key(db) == good
    await ratings.rebuild()  # rebuilding again changes nothing
    assert await rows_by_key(db) == good


async def test_a_game_played_through_the_service_is_rated(db: storage.Database) -> None:
    service = GameService(db)
    ratings = RatingService(db)
    game = await service.start(
        game="ur",
        guild_id=GUILD,
        channel_id=77,
        parent_channel_id=None,
        seats=[SeatInfo(0, 11, "light"), SeatInfo(1, 22, "dark")],
    )
    result = await service.resign(77, 22)
    assert result.after.finished
    assert await ratings.record_game(game.id)
    stats11, stats22 = (
        (await ratings.stats(11, GUILD))["ur"],
        (await ratings.stats(22, GUILD))["ur"],
    )
    assert (stats11.wins, stats22.losses) == (1, 1)
    assert stats11.rating > stats22.rating


async def test_a_person_holding_several_seats_is_rated_once_at_their_best_place(
    db: storage.Database,
) -> None:
    ratings = RatingService(db)
    game_id = await finished(db, [11, 11, 22, AI], [3, 1, 2, 4], game="ludo")
    assert await ratings.record_game(game_id)
    rows = await rows_by_key(db)
    won, lost = rows[("global", "ludo", 11)], rows[("global", "ludo", 22)]
    assert (won.games, won.wins, lost.losses) == (1, 1, 1)
    assert won.mu > lost.mu
