"""Storage under faults, against the real servers: a request's transactions end by their
deadline whatever the database does (a server gone silent behind a stalling proxy, a lock
held by another connection, workers busy with slower work), say truthfully whether anything
may have been stored, and work again by themselves once the database answers; notices are
claimed once; a copy verifies against the snapshot it read while the source is written to;
concurrent challenges on a fresh PostgreSQL database queue instead of failing."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot import storage as store
from bot.storage import Database, Transaction
from bot.storage.copy import compare, copy_and_summarise, summarise
from bot.storage.database import deadline_in
from tests.faults import StallingProxy

from .conftest import T0, new_game
from .pg import fresh_database

DEADLINE = 0.5
SLACK = 1.0  # what the machine (2 busy cores) may add to a deadline


def via(url: str, port: int) -> str:
    """``url`` through a proxy on ``port`` of the loopback."""
    parts = urlsplit(url)
    netloc = f"{parts.username}@127.0.0.1:{port}" if parts.username else f"127.0.0.1:{port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


async def games_count(db: Database) -> int:
    return int(await db.read(lambda tx: tx.fetchval("SELECT COUNT(*) FROM games")))


async def test_a_silent_postgresql_fails_a_request_by_its_deadline_and_recovers() -> None:
    async with fresh_database() as url:
        parts = urlsplit(url)
        proxy = await StallingProxy(parts.hostname or "127.0.0.1", parts.port or 5432).start()
        db = await Database.open(via(url, proxy.port), pool_size=2)
        try:
            await new_game(db, "g1")
            proxy.stall()
            for attempt in range(3):  # more requests than connections: none waits for ever
                started = time.monotonic()
                with pytest.raises(store.DatabaseUnavailable), deadline_in(DEADLINE):
                    await new_game(db, f"x{attempt}", channel_id=200 + attempt)
                assert time.monotonic() - started < DEADLINE + SLACK
            proxy.flow()
            # The same pool, no reopening: connections closed for not answering are replaced.
            await new_game(db, "g2", channel_id=101)
            assert await games_count(db) == 2  # the requests that timed out stored nothing
        finally:
            proxy.flow()
            await db.close()
            await proxy.close()


async def test_a_commit_whose_answer_is_lost_is_reported_as_unknown_not_as_unchanged() -> None:
    async with fresh_database() as url:
        parts = urlsplit(url)
        proxy = await StallingProxy(parts.hostname or "127.0.0.1", parts.port or 5432).start()
        db = await Database.open(via(url, proxy.port), pool_size=2)
        try:
            proxy.stall_after(b"COMMIT")
            with pytest.raises(store.CommitUnknown), deadline_in(DEADLINE):
                await new_game(db, "g1")
            proxy.flow()
            # It was stored: "nothing was changed" would have been a lie.
            assert await games_count(db) == 1
        finally:
            proxy.flow()
            await db.close()
            await proxy.close()


async def test_sqlite_waits_for_another_connections_lock_only_until_the_deadline(
    db_path: Path,
) -> None:
    db = await Database.open(db_path)
    other = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
    try:
        other.execute("BEGIN IMMEDIATE")  # a maintenance script holding the write lock
        started = time.monotonic()
        with pytest.raises(store.DatabaseBusy), deadline_in(DEADLINE):
            await new_game(db, "g1")
        assert time.monotonic() - started < DEADLINE + SLACK  # not the 5 s busy timeout
        other.execute("ROLLBACK")
        await new_game(db, "g1")  # and the usual busy timeout is back for the next one
        other.execute("BEGIN IMMEDIATE")
        threading.Timer(0.8, lambda: other.execute("ROLLBACK")).start()
        await new_game(db, "g2", channel_id=101)  # waited 0.8 s, under the 5 s default
    finally:
        other.close()
        await db.close()


async def test_a_request_queued_behind_slow_work_gives_up_unstarted(
    db_url: str,
) -> None:
    db = await Database.open(db_url, pool_size=1)
    ran: list[str] = []

    def slow(tx: Transaction) -> None:
        tx.fetchval("SELECT 1")
        time.sleep(1.5)

    def quick(tx: Transaction) -> None:
        ran.append("quick")

    try:
        slow_job = asyncio.ensure_future(db.read(slow))
        await asyncio.sleep(0.1)
        started = time.monotonic()
        with pytest.raises(store.DatabaseUnavailable), deadline_in(0.3):
            await db.read(quick)
        assert time.monotonic() - started < 0.3 + SLACK
        await slow_job
        await asyncio.sleep(0.1)
        assert ran == []  # given up before it started: it never runs
    finally:
        await db.close()


async def test_a_request_deadline_ends_with_its_first_commit(db: Database) -> None:
    with deadline_in(0.3):
        await new_game(db, "g1")  # committed: the change is stored, the answer is due
        await asyncio.sleep(0.5)
        await store.set_message(db, "g1", 42)  # so what follows is not cut short
    assert (await store.load_game(db, "g1")).message_id == 42  # type: ignore[union-attr]


async def test_a_notice_is_claimed_once_and_can_be_given_back(db: Database) -> None:
    await new_game(db, "g1")
    assert await store.claim_notice(db, "g1", "timeout", 3, T0)
    assert not await store.claim_notice(db, "g1", "timeout", 3, T0 + 1)
    assert await store.claim_notice(db, "g1", "timeout", 4, T0)  # a later turn
    await store.release_notice(db, "g1", "timeout", 3)
    assert await store.claim_notice(db, "g1", "timeout", 3, T0 + 2)


async def test_the_copy_verifies_against_the_snapshot_it_read_while_the_source_changes(
    tmp_path: Path,
) -> None:
    async with fresh_database() as url:
        source = await Database.open(url)
        destination = await Database.open(tmp_path / "copy.db")
        loop = asyncio.get_running_loop()
        written = threading.Event()

        def progress(table: str, rows: int) -> None:
            # A bot writes to the source while the copy runs (after its snapshot was taken).
            if not written.is_set():
                written.set()
                future = asyncio.run_coroutine_threadsafe(
                    new_game(source, "late", channel_id=999), loop
                )
                future.result(timeout=30)

        try:
            await new_game(source, "g1")
            await store.create_challenge(
                source, guild_id=1, channel_id=5, challenger_id=1, invitee_ids=[2],
                game="ur", now=T0, expires_at=T0 + 900,
            )  # fmt: skip
            done = await copy_and_summarise(source, destination, progress=progress)
            assert written.is_set()
            copied = await summarise(destination)
            assert compare(done.source, copied).ok
            # Read again, the source holds the late game: a second reading would fail a copy
            # that is right.
            assert not compare(await summarise(source), copied).ok
            assert done.rows["games"] == 1
        finally:
            await source.close()
            await destination.close()


async def invite(db: Database, n: int, challenger: int) -> store.ChallengeRow:
    return await store.create_challenge(
        db,
        guild_id=1,
        channel_id=10 + n,
        challenger_id=challenger,
        invitee_ids=[200 + n],
        game="ur",
        now=T0,
        expires_at=T0 + 900,
    )


async def test_concurrent_challenges_on_a_fresh_postgresql_database_queue_without_retries() -> None:
    for _ in range(3):
        async with fresh_database() as url:
            db = await Database.open(url)
            try:
                # Three people, and one person three times at once (one of whose invitations
                # names the same invitee as another: refused, never doubled).
                made = await asyncio.gather(*(invite(db, n, 100 + n) for n in range(3)))
                again = await asyncio.gather(
                    invite(db, 7, 500),
                    invite(db, 8, 500),
                    invite(db, 7, 500),
                    return_exceptions=True,
                )
                assert len({c.id for c in made}) == 3
                refused = [r for r in again if isinstance(r, store.PendingChallengeExists)]
                assert len(refused) == 1, again
                assert not [r for r in again if isinstance(r, store.DatabaseBusy)]
                assert db.retries == 0  # queued on the challenger's lock, never aborted
            finally:
                await db.close()
