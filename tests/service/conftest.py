"""Fixtures shared by the service tests: a real database of each backend per test (a SQLite
file, or a PostgreSQL database made for the test and dropped after)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import storage
from tests.storage.templates import migrated_postgres, migrated_sqlite


@pytest.fixture(params=("sqlite", "postgresql"))
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database's URL, its schema made (a copy of the test process's migrated
    template: ``tests.storage.templates``); tests that open a second connection (another
    process) use it."""
    if request.param == "sqlite":
        path = tmp_path / "tabula.db"
        await migrated_sqlite(path)
        yield f"sqlite:///{path}"
        return
    async with migrated_postgres() as url:
        yield url


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[storage.Database]:
    database = await storage.Database.open(database_url)
    yield database
    await database.close()
