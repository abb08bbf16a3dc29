"""Server settings: read through a short-lived cache, written through, never stale on update."""

from __future__ import annotations

from pathlib import Path

from pydantic import SecretStr

from bot import storage
from bot.config import Settings
from bot.service.settings import GuildSettingsService
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
