"""Fixtures shared by the service tests: a real database file per test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import storage


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[storage.Database]:
    database = await storage.Database.open(tmp_path / "tabula.db")
    yield database
    await database.close()
