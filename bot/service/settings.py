"""Per-server settings with defaults from the bot's configuration."""

from __future__ import annotations

from dataclasses import dataclass

from bot import storage as store
from bot.config import Settings
from bot.engines import GAMES
from bot.storage import Database


@dataclass(frozen=True, slots=True)
class GuildSettings:
    thread_mode: bool
    turn_timeout_seconds: int
    enabled_games: tuple[str, ...]


class GuildSettingsService:
    def __init__(self, db: Database, config: Settings) -> None:
        self.db = db
        self.config = config

    def defaults(self) -> GuildSettings:
        return GuildSettings(True, self.config.turn_timeout_seconds, GAMES)

    async def get(self, guild_id: int | None) -> GuildSettings:
        if guild_id is None:
            return self.defaults()
        d = self.defaults()
        row = await store.get_guild_settings(
            self.db,
            guild_id,
            defaults=store.GuildSettings(
                guild_id, d.thread_mode, d.turn_timeout_seconds, d.enabled_games
            ),
        )
        return GuildSettings(row.thread_mode, row.turn_timeout_seconds, tuple(row.enabled_games))

    async def turn_timeout(self, guild_id: int | None) -> int:
        return (await self.get(guild_id)).turn_timeout_seconds

    async def update(
        self,
        guild_id: int,
        *,
        thread_mode: bool | None = None,
        turn_timeout_seconds: int | None = None,
        enabled_games: tuple[str, ...] | None = None,
    ) -> GuildSettings:
        current = await self.get(guild_id)
        games = current.enabled_games if enabled_games is None else enabled_games
        new = GuildSettings(
            current.thread_mode if thread_mode is None else thread_mode,
            current.turn_timeout_seconds if turn_timeout_seconds is None else turn_timeout_seconds,
            tuple(g for g in GAMES if g in games),
        )
        await store.set_guild_settings(
            self.db,
            store.GuildSettings(
                guild_id, new.thread_mode, new.turn_timeout_seconds, new.enabled_games
            ),
        )
        return new
