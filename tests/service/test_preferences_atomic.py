"""/prefs changes several settings at once: every value is checked before any is stored, and
they are stored in one transaction (a real SQLite file)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import storage as store
from bot.service.preferences import PreferencesService
from bot.vocabulary.errors import TabulaError

USER = 77


async def test_a_refused_value_stores_none_of_the_others(tmp_path: Path) -> None:
    db = await store.Database.open(tmp_path / "prefs.db")
    try:
        prefs = PreferencesService(db, cache_seconds=0)
        before = await prefs.get(USER)
        with pytest.raises(TabulaError) as refused:
            await prefs.update(USER, auto_roll="off", theme="neon", home="left")
        assert refused.value.key == "prefs.unknown"
        assert await store.get_preferences(db, USER) == {}
        assert await prefs.get(USER) == before
        saved = await prefs.update(USER, auto_roll="off", theme="dark", home="left")
        assert (saved.auto_roll, saved.theme, saved.home) == (False, "dark", "left")
        assert await store.get_preferences(db, USER) == {
            "auto_roll": "off",
            "theme": "dark",
            "home": "left",
        }
    finally:
        await db.close()
