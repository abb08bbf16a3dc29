"""Server settings: read through a short-lived cache, written through, never stale on update."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import SecretStr

from bot import storage
from bot import storage as store
from bot.config import Settings
from bot.service.settings import GuildSettingsService
from bot.storage import puzzles as pstore
from bot.vocabulary.bounds import BadOption
from bot.vocabulary.errors import TabulaError
from tests.service.playing import Clock

GUILD = 5


def config(tmp_path: Path) -> Settings:
    return Settings(  # type: ignore[call-arg]
        discord_token=SecretStr("unused"), database_path=tmp_path / "t.db"
    )


async def test_a_change_by_another_process_shows_once_the_cache_expires(tmp_path: Path) -> None:
    clock = Clock(100.0)
    ours = await storage.Database.open(tmp_path / "t.db")
    theirs = await storage.Database.open(tmp_path / "t.db")
    service = GuildSettingsService(ours, config(tmp_path), clock=clock, cache_seconds=30)
    # the other keeps nothing: after its own write, it reads what is stored
    other = GuildSettingsService(theirs, config(tmp_path), cache_seconds=0)
    default = (await service.get(GUILD)).turn_timeout_seconds

    await other.update(GUILD, turn_timeout_seconds=600)
    clock.now += 29
    assert await service.turn_timeout(GUILD) == default  # served from the cache
    clock.now += 2
    assert await service.turn_timeout(GUILD) == 600  # expired: read again
    await ours.close()
    await theirs.close()


async def test_update_is_visible_at_once_and_merges_with_what_is_stored(tmp_path: Path) -> None:
    clock = Clock(100.0)
    ours = await storage.Database.open(tmp_path / "t.db")
    theirs = await storage.Database.open(tmp_path / "t.db")
    service = GuildSettingsService(ours, config(tmp_path), clock=clock)
    # the other keeps nothing: after its own write, it reads what is stored
    other = GuildSettingsService(theirs, config(tmp_path), cache_seconds=0)
    await service.get(GUILD)  # cache the defaults

    await other.update(GUILD, enabled_games=("ur",))
    updated = await service.update(GUILD, turn_timeout_seconds=900)
    # the other process's change is kept although our cache had not seen it
    assert updated.enabled_games == ("ur",)
    assert (await service.get(GUILD)).turn_timeout_seconds == 900
    assert (await other.get(GUILD)).turn_timeout_seconds == 900
    await ours.close()
    await theirs.close()


@pytest.mark.parametrize("seconds", [0, -3600, 721 * 3600, 10**12])
async def test_a_turn_limit_outside_the_commands_bounds_stores_nothing(
    tmp_path: Path, seconds: int
) -> None:
    db = await store.Database.open(tmp_path / "bounds.db")
    try:
        service = GuildSettingsService(db, config(tmp_path))
        before = await service.update(GUILD, turn_timeout_seconds=7200)
        with pytest.raises(BadOption):
            await service.update(GUILD, turn_timeout_seconds=seconds, thread_mode=False)
        assert await service.update(GUILD) == before
    finally:
        await db.close()


async def test_the_daily_puzzle_is_stored_with_the_settings_or_not_at_all(tmp_path: Path) -> None:
    db = await store.Database.open(tmp_path / "together.db")
    try:
        service = GuildSettingsService(db, config(tmp_path))
        daily = store.DailyPuzzle(channel_id=555, hour=7)
        with pytest.raises(TabulaError):
            await service.update(GUILD, turn_timeout_seconds=7200, enabled_games=(), daily=daily)
        assert await pstore.get_daily(db, GUILD) is None
        assert (await service.update(GUILD)).turn_timeout_seconds != 7200
        await service.update(GUILD, turn_timeout_seconds=7200, daily=daily)
        assert await pstore.get_daily(db, GUILD) == pstore.DailySetting(GUILD, 555, 7)
        assert (await service.update(GUILD)).turn_timeout_seconds == 7200
    finally:
        await db.close()
