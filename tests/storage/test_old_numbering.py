"""One numbered history for both dialects, and the databases migrated before it: a step has
one number and name on both backends, and a database recorded in its dialect's old numbering
is upgraded to the shared head without running a step twice, its rows kept. The old databases
are built by hand, as the code before the shared history left them
(:mod:`tests.storage.old_databases`).
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.storage import (
    Database,
    GuildSettings,
    Migration,
    SchemaError,
    followers,
    get_guild_settings,
    get_preferences,
    load_actions,
    load_challenge,
    load_game,
    load_migrations,
)
from bot.storage.old_numbering import Applied, renumbered
from bot.storage.schema_history import read_migrations

from .helpers import another_database, rows, schema
from .old_databases import (
    OLD_HISTORY,
    applied_at,
    build_old,
    build_old_postgresql,
    recorded_steps,
    step_named,
)

# -- the one history ------------------------------------------------------------------------


def test_both_dialects_have_every_step_under_one_number_and_name() -> None:
    sqlite, postgresql = load_migrations("sqlite"), load_migrations("postgresql")
    assert [(m.version, m.name) for m in sqlite] == [(m.version, m.name) for m in postgresql]
    assert [m.name for m in sqlite[: len(OLD_HISTORY["sqlite"])]] == list(OLD_HISTORY["sqlite"])
    # PostgreSQL's first schema already made what SQLite's 0002-0006 add: only comments
    # there. Every other step changes the schema in both.
    assert [m.version for m in postgresql if m.changes_nothing] == [2, 3, 4, 5, 6]
    assert not [m.version for m in sqlite if m.changes_nothing]


def test_a_folder_that_is_not_one_history_is_refused(tmp_path: Path) -> None:
    def write(*names: str) -> Path:
        folder = tmp_path / f"case{len(list(tmp_path.iterdir()))}"
        folder.mkdir()
        for name in names:
            (folder / name).write_text(f"-- {name}\nSELECT 1;\n", encoding="utf-8")
        return folder

    whole = write(
        "0001_a.sqlite.sql",
        "0001_a.postgresql.sql",
        "0002_b.sqlite.sql",
        "0002_b.postgresql.sql",
        "README.txt",
    )
    assert [(m.version, m.name) for m in read_migrations(whole, "postgresql")] == [
        (1, "a"),
        (2, "b"),
    ]
    assert read_migrations(whole, "sqlite")[1].sql == "-- 0002_b.sqlite.sql\nSELECT 1;\n"
    refused = {
        "has no postgresql file": write("0001_a.sqlite.sql"),
        "has more than one name: a, b": write("0001_a.sqlite.sql", "0001_b.postgresql.sql"),
        "has 2 sqlite files": write(
            "0001_a.sqlite.sql", "0001_b.sqlite.sql", "0001_a.postgresql.sql"
        ),
        "0001_a.sql is not named": write("0001_a.sql"),
        "0001_a.mysql.sql is not named": write("0001_a.mysql.sql"),
        "without gaps": write(
            "0001_a.sqlite.sql",
            "0001_a.postgresql.sql",
            "0003_c.sqlite.sql",
            "0003_c.postgresql.sql",
        ),
    }
    for problem, folder in refused.items():
        with pytest.raises(SchemaError, match=problem):
            read_migrations(folder, "sqlite")


# -- the translation ------------------------------------------------------------------------


def applied(*names: str) -> list[Applied]:
    return [Applied(n, name, applied_at(n)) for n, name in enumerate(names, start=1)]


def test_postgresql_old_numbers_are_translated_by_their_names() -> None:
    steps = load_migrations("postgresql")
    old = applied("initial", "puzzles", "preferences")
    assert renumbered(old, steps) == [
        Applied(1, "initial", applied_at(1)),
        # The steps PostgreSQL's old 0001 had folded in take its time of application.
        *(Applied(n, steps[n - 1].name, applied_at(1)) for n in range(2, 7)),
        Applied(7, "puzzles", applied_at(2)),
        Applied(8, "preferences", applied_at(3)),
    ]
    # Nothing to translate: empty, only the first step (it reads the same in both), already
    # shared, or a history that is not PostgreSQL's old one.
    assert renumbered([], steps) is None
    assert renumbered(applied("initial"), steps) is None
    assert renumbered(applied(*(m.name for m in steps)), steps) is None
    assert renumbered(applied("initial", "seat_stand_in"), steps) is None
    assert renumbered(applied("step1", "step2"), steps) is None
    # Old records this code's steps do not continue are refused, not guessed at.
    with pytest.raises(SchemaError, match="do not continue"):
        renumbered(old, steps[:7])
    renamed = [*steps[:6], Migration(7, "riddles", steps[6].sql), *steps[7:]]
    with pytest.raises(SchemaError, match="do not continue"):
        renumbered(old, renamed)


LAST_AND_EARLIER = [
    ("sqlite", 14),
    ("sqlite", 9),
    ("postgresql", 9),
    ("postgresql", 4),
    ("postgresql", 1),
]


@pytest.mark.parametrize(
    ("backend", "old_version"), LAST_AND_EARLIER, ids=[f"{b}-old{v}" for b, v in LAST_AND_EARLIER]
)
async def test_a_database_in_its_dialects_old_numbering_reaches_the_shared_head(
    backend: str, old_version: int, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Each dialect's old last version, and earlier ones, with rows in their tables: the
    shared head's schema (as a fresh database's, by the dialect's catalogue), the rows kept."""
    steps = load_migrations(backend)  # type: ignore[arg-type]
    old_names = OLD_HISTORY[backend][:old_version]
    shared_head = step_named(backend, old_names[-1]).version  # the old head's step, by name
    async with (
        another_database(backend, tmp_path, "old.db") as old_url,
        another_database(backend, tmp_path, "new.db") as new_url,
    ):
        await build_old(backend, old_url, old_version)
        with caplog.at_level(logging.INFO, logger="bot.storage"):
            upgraded = await Database.open(old_url)
        async with upgraded, await Database.open(new_url) as new:
            assert upgraded.schema_version == new.schema_version == len(steps)
            assert await schema(upgraded) == await schema(new)
            # Only the steps after the old head ran (a step run again would have failed).
            ran = [r.getMessage() for r in caplog.records if "applied migration" in r.getMessage()]
            assert ran == [
                f"applied migration {m.version:04d}_{m.name}" for m in steps[shared_head:]
            ]
            await _check_rows(upgraded, old_names)
            if backend == "postgresql":
                await _check_recorded(upgraded, steps, old_names)
        # Translated once: opening again changes nothing.
        before = await recorded_steps(old_url) if backend == "postgresql" else None
        async with await Database.open(old_url) as again:
            assert again.schema_version == len(steps)
            if before is not None:
                assert await recorded_steps(old_url) == before


async def _check_rows(db: Database, old_names: tuple[str, ...]) -> None:
    game = await load_game(db, "old-game")
    assert game is not None and [s.user_id for s in game.seats] == [11, 22]
    assert (game.version, game.shown_version, game.message_seq) == (1, None, 0)
    assert [a.notation for a in await load_actions(db, "old-game")] == ["roll 2"]
    challenge = await load_challenge(db, 1)
    assert challenge is not None and challenge.invitee_ids == (22,)
    assert await get_guild_settings(db, 5) == GuildSettings(5, True, 60, ("ur",))
    has = set(old_names)
    assert await get_preferences(db, 11) == ({"theme": "dark"} if "preferences" in has else {})
    assert await followers(db, "old-game") == ({22: True} if "follows" in has else {})


async def _check_recorded(db: Database, steps: tuple[Migration, ...], old: tuple[str, ...]) -> None:
    """``schema_version`` lists the shared history, and a step that ran under its old
    number keeps when it ran (the steps folded into the old 0001, that step's time)."""
    recorded = await rows(db, "SELECT version, name, applied_at FROM schema_version ORDER BY 1")
    assert [(r[0], r[1]) for r in recorded] == [(m.version, m.name) for m in steps]
    when = {r[1]: r[2] for r in recorded}
    for number, name in enumerate(old, start=1):
        assert when[name] == applied_at(number), name
    if len(old) > 1:  # translated: the folded-in steps were not applied now
        assert {when[m.name] for m in steps[1:6]} == {applied_at(1)}


async def test_processes_opening_an_old_postgresql_database_at_once_translate_it_once(
    tmp_path: Path,
) -> None:
    """Three openers at the same moment (each with its own pool, as three processes): the
    migration lock lets one translate; the others find the shared numbering."""
    steps = load_migrations("postgresql")
    async with another_database("postgresql", tmp_path, "old.db") as url:
        await build_old_postgresql(url, 4)
        opened = await asyncio.gather(*(Database.open(url) for _ in range(3)))
        try:
            assert [db.schema_version for db in opened] == [len(steps)] * 3
            recorded = await rows(opened[0], "SELECT version, name FROM schema_version ORDER BY 1")
            assert [tuple(r) for r in recorded] == [(m.version, m.name) for m in steps]
        finally:
            for db in opened:
                await db.close()
