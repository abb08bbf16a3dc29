"""/stats and leaderboard records from a real SQLite file: places for Ludo (a second place
is no loss), wins and losses for two-seat games, and counts with the right plural."""

from __future__ import annotations

from bot import storage
from bot.service.ratings import RatingService
from bot.ui.standings import leaderboard_line, stats_text
from tests.service.test_ratings import AI, GUILD, OTHER_GUILD, finished


async def rate(db: storage.Database, *games: str) -> RatingService:
    ratings = RatingService(db)
    for game_id in games:
        assert await ratings.record_game(game_id)
    return ratings


async def test_ludo_stats_count_places_not_losses(db: storage.Database) -> None:
    ratings = await rate(
        db,
        await finished(db, [11, 22, 33, AI], [2, 1, 3, 4], game="ludo"),
        await finished(db, [11, 22, 33, AI], [1, 2, 4, 3], game="ludo"),
        await finished(db, [22, 11, AI, 33], [1, 2, 3, 4], game="ludo"),
        await finished(db, [22, 11, 33, AI], [1, 4, 2, 3], game="ludo", guild=OTHER_GUILD),
    )
    everywhere = (await ratings.stats(11, None))["ludo"]
    assert everywhere.places == ((1, 1), (2, 2), (4, 1))
    text = stats_text(everywhere)
    assert "4 games" in text and "1st: 1 · 2nd: 2 · 4th: 1" in text, text
    assert " W " not in text and " L" not in text and "streak" not in text
    here = (await ratings.stats(11, GUILD))["ludo"]
    assert here.places == ((1, 1), (2, 2))
    assert "3 Partien" in stats_text(here, "de") and "2. Platz: 2" in stats_text(here, "de")

    board = await ratings.leaderboard("ludo", GUILD)
    rows = {row.user_id: row for row in board.rows}
    assert rows[33].places == ((3, 1), (4, 2))
    line = leaderboard_line("ludo", rows[33])
    assert line.endswith("· 3rd: 1 · 4th: 2 in 3 games"), line


async def test_a_person_in_several_seats_counts_once_at_the_best_place(
    db: storage.Database,
) -> None:
    ratings = await rate(db, await finished(db, [11, 22, 11, AI], [3, 2, 1, 4], game="ludo"))
    assert (await ratings.stats(11, None))["ludo"].places == ((1, 1),)


async def test_two_seat_records_and_plurals(db: storage.Database) -> None:
    ratings = await rate(db, await finished(db, [11, 22], [1, 2]))
    one = (await ratings.stats(11, None))["ur"]
    assert one.places == ()
    text = stats_text(one)
    assert "· 1 game ·" in text and "1 W / 0 L" in text and "streak +1" in text, text
    assert "· 1 Partie ·" in stats_text(one, "de") and "1 S / 0 N" in stats_text(one, "de")
    await rate(db, await finished(db, [11, 22], [2, 1]))
    two = (await ratings.stats(22, None))["ur"]
    assert "· 2 games ·" in stats_text(two) and "· 2 Partien ·" in stats_text(two, "de")
    board = await ratings.leaderboard("ur", None)
    assert [leaderboard_line("ur", row).split(" · ")[-1] for row in board.rows] == [
        "1 W / 1 L in 2 games",
        "1 W / 1 L in 2 games",
    ]


async def test_backgammon_stats_keep_their_gammon_line(db: storage.Database) -> None:
    ratings = await rate(db, await finished(db, [11, 22], [1, 2], game="backgammon", kind="gammon"))
    text = stats_text((await ratings.stats(11, None))["backgammon"])
    assert text.splitlines()[1] == "Gammons won/lost: 1/0 · backgammons won/lost: 0/0"
