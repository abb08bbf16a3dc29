"""``tabula db copy``: SQLite -> PostgreSQL -> SQLite gives the same data, row for row; a
destination that holds anything is refused and left alone; the verification catches a copy
that differs, and tells a log that does not replay in the source from a copy fault."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot import storage
from bot.db_copy_command import copy_command, replay_problem
from bot.service.games import GameService
from bot.service.models import SeatInfo
from bot.service.ratings import RatingService
from bot.storage import Database, GuildSettings, Transaction, tournaments
from bot.storage.copy import TABLES, SchemaMismatch, compare, copy_database, summarise
from tests.service.playing import click_to_end

from .conftest import T0
from .old_databases import build_old_postgresql, build_old_sqlite
from .pg import fresh_database

ROOT = Path(__file__).resolve().parents[2]
PAIR = [SeatInfo(0, 10, "ann"), SeatInfo(1, 11, "bob")]


# A challenge in server 1, made at T0 and pending for 15 minutes.
challenge = functools.partial(storage.create_challenge, guild_id=1, now=T0, expires_at=T0 + 900)


async def fill(db: Database) -> int:
    """Everything the bot stores, made the way the bot makes it; returns the challenge id
    that was handed out last (and then deleted, so the counter is ahead of the ids)."""
    service = GameService(db)
    ratings = RatingService(db)
    ur = await service.start(
        game="ur", guild_id=1, channel_id=100, parent_channel_id=None, seats=PAIR
    )
    finished = await click_to_end(service, ur, 1, channel_id=100)
    await ratings.record_game(finished.id)
    four = [SeatInfo(0, 10, "ann"), *(SeatInfo(i, None, "AI", "easy") for i in (1, 2, 3))]
    ludo = await service.start(
        game="ludo", guild_id=2, channel_id=200, parent_channel_id=199, seats=four
    )
    ludo = await click_to_end(service, ludo, 2, channel_id=200)
    await ratings.record_game(ludo.id)
    running = await service.start(
        game="backgammon", guild_id=None, channel_id=300, parent_channel_id=None, seats=PAIR
    )
    running = await click_to_end(service, running, 3, channel_id=300, clicks=7)
    await storage.set_message(db, running.id, 3001)
    await storage.mark_shown(db, [(running.id, storage.Shown(3001, running.version, 1.5e9))])
    await storage.mark_reminder_sent(db, running.id, running.version)
    await storage.save_review(
        db, finished.id, version=2, level="2ply", actions=9, review_json='{"r": 1.25}', now=T0
    )
    await storage.set_guild_settings(db, GuildSettings(1, True, 3600, ("ur", "ludo")))
    pending = await challenge(
        db,
        channel_id=400,
        challenger_id=10,
        invitee_ids=(11, 12),
        game="ludo",
        options_json='{"locale": "de"}',
    )
    await storage.accept_challenge(db, pending.id, 11, now=T0)  # one of two accepted
    rematch = await challenge(
        db, channel_id=100, challenger_id=11, invitee_ids=(10,), game="ur", rematch_of=finished.id
    )
    await storage.resolve_challenge(db, rematch.id, storage.ChallengeStatus.DECLINED)
    gone = await challenge(db, channel_id=500, challenger_id=12, invitee_ids=(), game="ur")

    def forget(tx: Transaction) -> None:
        tx.execute("DELETE FROM challenges WHERE id = ?", (gone.id,))

    await db.write(forget)
    await new_tournament(db)
    return gone.id


async def new_tournament(db: Database) -> int:
    """An open tournament with an entrant (and its log's first line); returns its id."""
    made = await tournaments.create_tournament(
        db,
        guild_id=1,
        channel_id=700,
        creator_id=10,
        game="ur",
        format="swiss",
        rounds=0,
        points=1,
        round_seconds=3600.0,
        rated=True,
        options_json="{}",
        now=T0,
    )
    await tournaments.join_tournament(db, made.id, 11, "bob", 0.0, T0)
    return made.id


def table_rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table of a SQLite file, in key order."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return {
            t.name: conn.execute(
                f"SELECT {', '.join(t.columns)} FROM {t.name} ORDER BY {', '.join(t.key)}"
            ).fetchall()
            for t in TABLES
        }


async def test_sqlite_to_postgresql_and_back_gives_identical_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, back = tmp_path / "source.db", tmp_path / "back.db"
    async with await Database.open(source) as db:
        last_challenge = await fill(db)
        before = await summarise(db)
    assert all(before.tables[t].rows > 0 for t in ("games", "actions", "results", "ratings"))

    async with fresh_database() as pg_url:
        assert await copy_command(f"sqlite:///{source}", pg_url) == 0
        out = capsys.readouterr().out
        assert "every table has the same rows" in out and "3 games replayed" in out
        assert out.rstrip().endswith("verified")
        async with await Database.open(pg_url) as pg:
            assert compare(before, await summarise(pg)).ok
        assert await copy_command(pg_url, f"sqlite:///{back}") == 0
        assert capsys.readouterr().out.rstrip().endswith("verified")
        async with await Database.open(pg_url) as pg:
            # PostgreSQL's identity sequences were carried past the copied ids.
            assert await new_tournament(pg) == 2

    assert table_rows(back) == table_rows(source)  # row for row, value for value
    async with await Database.open(back) as again:
        assert compare(before, await summarise(again)).ok
        # The id counter came along: a deleted challenge's id is not handed out again.
        later = await challenge(
            again, channel_id=600, challenger_id=20, invitee_ids=(11,), game="ur"
        )
        assert later.id == last_challenge + 1
        running = await storage.active_games(again)
        assert [g.message_id for g in running] == [3001] and running[0].reminder_sent


@pytest.mark.parametrize("destination", ["sqlite", "postgresql"])
async def test_a_destination_that_holds_anything_is_refused_and_left_alone(
    tmp_path: Path, destination: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "source.db"
    async with await Database.open(source) as db:
        await storage.set_guild_settings(db, GuildSettings(1, True, 60, ("ur",)))
    async with contextlib.AsyncExitStack() as stack:
        if destination == "sqlite":
            target = f"sqlite:///{tmp_path / 'target.db'}"
        else:
            target = await stack.enter_async_context(fresh_database())
        async with await Database.open(target) as db:
            await storage.set_guild_settings(db, GuildSettings(9, False, 99, ()))
            before = await summarise(db)
        assert await copy_command(f"sqlite:///{source}", target) == 2
        assert "is not empty (guild_settings: 1)" in capsys.readouterr().err
        async with await Database.open(target) as db:
            assert compare(before, await summarise(db)).ok  # untouched


async def test_databases_at_different_schema_versions_are_refused(tmp_path: Path) -> None:
    """One numbered history for both backends: the same version is the same schema, so a
    destination a step behind the source is refused for its version, and nothing is copied."""
    steps = storage.load_migrations("postgresql")
    async with fresh_database() as pg_url, await Database.open(tmp_path / "source.db") as source:
        await storage.set_guild_settings(source, GuildSettings(1, True, 60, ("ur",)))
        async with await Database.open(pg_url, migrations=steps[:-1]) as behind:
            assert behind.schema_version == len(steps) - 1
            with pytest.raises(
                SchemaMismatch, match=f"at schema version {len(steps)}, .* at {len(steps) - 1}:"
            ):
                await copy_database(source, behind)
            settings = await behind.read(
                lambda tx: tx.fetchval("SELECT count(*) FROM guild_settings")
            )
            assert settings == 0


async def test_databases_migrated_before_the_one_history_are_copied(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A SQLite file at its old last version (14) into an empty PostgreSQL database at its
    old last version (9): the command opens both, each reaches the shared head, and the copy
    is exact."""
    source = tmp_path / "old.db"
    build_old_sqlite(source, 14)
    async with fresh_database() as pg_url:
        await build_old_postgresql(pg_url, 9, with_rows=False)
        assert await copy_command(f"sqlite:///{source}", pg_url) == 0, capsys.readouterr()
        latest = len(storage.load_migrations("sqlite"))
        async with await Database.open(source) as old, await Database.open(pg_url) as pg:
            assert old.schema_version == pg.schema_version == latest
            assert compare(await summarise(old), await summarise(pg)).ok
            assert await storage.get_guild_settings(pg, 5) == GuildSettings(5, True, 60, ("ur",))


async def test_the_verification_catches_a_copy_that_differs(tmp_path: Path) -> None:
    source, target = tmp_path / "source.db", tmp_path / "target.db"
    async with await Database.open(source) as db:
        await fill(db)
    assert await copy_command(f"sqlite:///{source}", f"sqlite:///{target}") == 0
    async with await Database.open(target) as db:
        await db.write(lambda tx: tx.execute("UPDATE ratings SET mu = mu + 1e-9"))
        await db.write(lambda tx: tx.execute("DELETE FROM reviews"))
        async with await Database.open(source) as original:
            problems = compare(await summarise(original), await summarise(db)).problems
    assert problems == (
        "ratings: the same number of rows, but not the same rows",
        "reviews: 1 rows in the source, 0 in the destination",
    )


async def test_a_log_that_does_not_replay_is_reported_with_whose_fault_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = tmp_path / "source.db", tmp_path / "target.db"
    async with await Database.open(source) as db:
        await fill(db)
        game = (await storage.active_games(db))[0]
        actions = await storage.load_actions(db, game.id)
        assert replay_problem(game, actions) is None
        # Damage the source: the last action goes missing from its log.
        await db.write(
            lambda tx: tx.execute(
                "DELETE FROM actions WHERE game_id = ? AND seq = ?", (game.id, len(actions))
            )
        )
        damaged = await storage.load_actions(db, game.id)
        assert replay_problem(game, damaged) == f"its log is not actions 1..{len(actions)}"
    assert await copy_command(f"sqlite:///{source}", f"sqlite:///{target}") == 0
    out = capsys.readouterr().out
    assert f"game {game.id}: its log is not actions 1..{len(actions)}" in out
    assert "in the source too: not the copy's fault" in out


async def test_the_command_line(tmp_path: Path) -> None:
    source = tmp_path / "source.db"
    async with await Database.open(source) as db:
        await storage.set_guild_settings(db, GuildSettings(1, True, 60, ("ur",)))

    def tabula(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot", "db", *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )

    copied = await asyncio.to_thread(
        tabula, "copy", f"sqlite:///{source}", f"sqlite:///{tmp_path / 'copy.db'}"
    )
    assert copied.returncode == 0, copied.stderr
    assert "guild_settings" in copied.stdout and "verified" in copied.stdout
    again = await asyncio.to_thread(
        tabula, "copy", f"sqlite:///{source}", f"sqlite:///{tmp_path / 'copy.db'}"
    )
    assert again.returncode == 2 and "not empty" in again.stderr
    same = await asyncio.to_thread(tabula, "copy", str(source), f"sqlite:///{source}")
    assert same.returncode == 2 and "the same database" in same.stderr
    usage = await asyncio.to_thread(tabula, "copy", f"sqlite:///{source}")
    assert usage.returncode == 2 and "DST_URL" in usage.stderr
