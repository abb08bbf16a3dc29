"""Puzzle answers, streaks, the server leaderboard and the daily claim, on both backends."""

from __future__ import annotations

import asyncio

from bot.storage import Database
from bot.storage import puzzles as store

from .conftest import T0


async def answer(
    db: Database, user: int, key: str, solved: bool, guild: int | None = 1
) -> store.Answered:
    return await store.record_answer(
        db, user_id=user, puzzle_id=key, guild_id=guild, game="ur", choice=0, solved=solved, now=T0
    )


async def test_first_answers_count_and_move_the_streak(db: Database) -> None:
    assert (await answer(db, 7, "a" * 12, True)).streak == 1
    assert (await answer(db, 7, "b" * 12, True)).streak == 2
    again = await answer(db, 7, "b" * 12, False)  # a second answer changes nothing
    assert (again.first, again.solved, again.streak) == (False, True, 2)
    missed = await answer(db, 7, "c" * 12, False)
    assert (missed.first, missed.streak, missed.best) == (True, 0, 2)
    assert await store.streak_of(db, 7) == (0, 2)
    assert await store.answered_keys(db, 7, "ur") == {"a" * 12, "b" * 12, "c" * 12}


async def test_the_server_leaderboard(db: Database) -> None:
    for key in ("a", "b", "c"):
        await answer(db, 1, key * 12, True)
    await answer(db, 2, "a" * 12, True)
    await answer(db, 2, "b" * 12, False)
    await answer(db, 3, "a" * 12, True)
    await answer(db, 4, "a" * 12, True, guild=2)  # another server
    board = await store.leaderboard(db, 1)
    assert [(r.user_id, r.solved, r.answered) for r in board] == [(1, 3, 3), (3, 1, 1), (2, 1, 2)]


async def test_server_puzzles_are_kept_once(db: Database) -> None:
    rows = [("k" * 12, "ur", '{"x": 1}'), ("m" * 12, "ur", '{"x": 2}')]
    assert await store.add_server_puzzles(db, 5, rows, T0) == 2
    assert await store.add_server_puzzles(db, 5, rows, T0) == 0
    assert [k for k, _ in await store.server_puzzles(db, 5, "ur")] == ["k" * 12, "m" * 12]
    assert await store.load_puzzle(db, "m" * 12) == '{"x": 2}'


async def test_a_daily_post_is_claimed_once(db: Database, db_url: str) -> None:
    await store.set_daily(db, 9, 900, 0)
    due = await store.due_dailies(db, "2026-11-26", 12)
    assert [(d.guild_id, d.channel_id) for d in due] == [(9, 900)]
    other = await Database.open(db_url) if db_url.startswith("postgresql") else db
    try:
        claims = await asyncio.gather(
            *(
                store.claim_daily(
                    d,
                    guild_id=9,
                    day="2026-11-26",
                    puzzle_id="p" * 12,
                    channel_id=900,
                    now=T0,
                    lease=120.0,
                )
                for d in (db, other, db, other)
            )
        )
    finally:
        if other is not db:
            await other.close()
    assert sorted(claims) == [False, False, False, True]
    # not posted yet and still under its lease: nobody else takes it
    assert not await store.claim_daily(
        db, guild_id=9, day="2026-11-26", puzzle_id="p" * 12, channel_id=900, now=T0 + 60,
        lease=120.0,
    )  # fmt: skip
    # its process died before posting: after the lease one other process takes it over
    assert await store.claim_daily(
        db, guild_id=9, day="2026-11-26", puzzle_id="p" * 12, channel_id=900, now=T0 + 200,
        lease=120.0,
    )  # fmt: skip
    await store.daily_posted(db, 9, "2026-11-26", 12345)
    assert await store.due_dailies(db, "2026-11-26", 12) == []
    assert not await store.claim_daily(
        db, guild_id=9, day="2026-11-26", puzzle_id="p" * 12, channel_id=900, now=T0 + 900,
        lease=120.0,
    )  # fmt: skip
    assert await store.daily_puzzle_id(db, 9, "2026-11-26") == "p" * 12
    # the hour not yet reached: not due
    await store.set_daily(db, 10, 1000, 20)
    assert [d.guild_id for d in await store.due_dailies(db, "2026-11-27", 19)] == [9]
