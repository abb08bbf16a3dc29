"""Fixtures for the storage tests: each test runs on both backends, on a database of its own
(a real SQLite file, or a real PostgreSQL database made for it and dropped after), and small
builders."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.storage import Database, GameRow, SeatRow, create_game

from .pg import fresh_database
from .templates import migrated_postgres, migrated_sqlite

T0 = 1_700_000_000.0  # a fixed "now": storage never reads the clock itself
BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where the SQLite tests' file goes (SQLite-only tests use it directly)."""
    return tmp_path / "data" / "tabula.db"


@pytest.fixture
async def db_url(backend: str, db_path: Path) -> AsyncIterator[str]:
    """A fresh database of the test's backend with its schema made (a copy of the test
    process's migrated template: ``tests.storage.templates``)."""
    if backend == "sqlite":
        await migrated_sqlite(db_path)
        yield f"sqlite:///{db_path}"
        return
    async with migrated_postgres() as url:
        yield url


@pytest.fixture
async def empty_db_url(backend: str, db_path: Path) -> AsyncIterator[str]:
    """A fresh, empty database of the test's backend (opening it creates the schema)."""
    if backend == "sqlite":
        yield f"sqlite:///{db_path}"
        return
    async with fresh_database() as url:
        yield url


@pytest.fixture
async def db(db_url: str) -> AsyncIterator[Database]:
    database = await Database.open(db_url)
    yield database
    await database.close()


def human(seat: int, user_id: int, name: str | None = None) -> SeatRow:
    return SeatRow(seat, user_id, None, name or f"user{user_id}")


def bot_seat(seat: int, level: str = "medium") -> SeatRow:
    return SeatRow(seat, None, level, f"AI ({level})")


async def new_game(
    db: Database,
    game_id: str = "g1",
    *,
    channel_id: int = 100,
    seats: Sequence[SeatRow] = (human(0, 11), human(1, 22)),
    game: str = "ur",
    guild_id: int | None = 1,
    now: float = T0,
    turn_deadline: float | None = None,
    rated: bool = True,
    challenge_id: int | None = None,
) -> GameRow:
    return await create_game(
        db,
        game_id=game_id,
        game=game,
        guild_id=guild_id,
        channel_id=channel_id,
        parent_channel_id=None,
        options_json='{"variant": "standard"}',
        state_json='{"turn": 0}',
        seats=seats,
        dice_seed="s3cret-seed",
        dice_seed_hash="hash-of-seed",
        rated=rated,
        turn_deadline=turn_deadline,
        now=now,
        challenge_id=challenge_id,
    )
