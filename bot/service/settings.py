"""Per-server settings with defaults from the bot's configuration."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from bot import games as registry
from bot import storage as store
from bot.config import Settings
from bot.service.expiring import ExpiringCache
from bot.storage import Database
from bot.vocabulary.bounds import TURN_LIMIT_HOURS, BadOption
from bot.vocabulary.errors import TabulaError


@dataclass(frozen=True, slots=True)
class GuildSettings:
    thread_mode: bool
    turn_timeout_seconds: int
    enabled_games: tuple[str, ...]


# Every move asks for its server's turn limit; reading it from the database each time put a
# second trip through the one database lock on every click. Settings change through /settings
# on this process (written through below); the short lifetime covers a second process (a CLI,
# a second service on the same file) changing them behind our back.
CACHE_SECONDS = 30.0


class GuildSettingsService:
    def __init__(
        self,
        db: Database,
        config: Settings,
        *,
        clock: Callable[[], float] = time.monotonic,
        cache_seconds: float = CACHE_SECONDS,
    ) -> None:
        self.db = db
        self.config = config
        self._cache: ExpiringCache[int, GuildSettings] = ExpiringCache(cache_seconds, clock)

    def defaults(self) -> GuildSettings:
        return GuildSettings(True, self.config.turn_timeout_seconds, registry.kinds())

    async def get(self, guild_id: int | None) -> GuildSettings:
        if guild_id is None:
            return self.defaults()
        cached = self._cache.get(guild_id)
        return cached if cached is not None else await self._read(guild_id)

    async def _read(self, guild_id: int) -> GuildSettings:
        read_at = self._cache.now()
        d = self.defaults()
        row = await store.get_guild_settings(
            self.db,
            guild_id,
            defaults=store.GuildSettings(
                guild_id, d.thread_mode, d.turn_timeout_seconds, d.enabled_games
            ),
        )
        settings = GuildSettings(
            row.thread_mode, row.turn_timeout_seconds, tuple(row.enabled_games)
        )
        self._cache.put(guild_id, settings, read_at)
        return settings

    async def turn_timeout(self, guild_id: int | None) -> int:
        return (await self.get(guild_id)).turn_timeout_seconds

    async def update(
        self,
        guild_id: int,
        *,
        thread_mode: bool | None = None,
        turn_timeout_seconds: int | None = None,
        enabled_games: tuple[str, ...] | None = None,
        daily: store.DailyPuzzle | None = None,
    ) -> GuildSettings:
        """Change what is given (with ``daily``, the daily puzzle too, checked by
        :meth:`PuzzleService.plan_daily`), all in one transaction; a value out of its
        bounds refuses the whole change, before anything is stored."""
        # /settings gives whole hours; the service takes seconds (tests, tools), but never
        # more than the command's bound nor nothing at all.
        longest = TURN_LIMIT_HOURS.high * 3600
        if turn_timeout_seconds is not None and not 0 < turn_timeout_seconds <= longest:
            raise BadOption(
                option=TURN_LIMIT_HOURS.option, low=TURN_LIMIT_HOURS.low, high=TURN_LIMIT_HOURS.high
            )
        unknown = set(enabled_games or ()) - set(registry.kinds())
        if unknown:
            raise BadOption(
                "option.not_a_choice", option="game", choices=", ".join(registry.kinds())
            )
        if enabled_games is not None and not enabled_games:
            raise TabulaError("settings.no_games")
        current = await self._read(guild_id)  # not the cache: another process may have written
        offered = current.enabled_games if enabled_games is None else enabled_games
        new = GuildSettings(
            current.thread_mode if thread_mode is None else thread_mode,
            current.turn_timeout_seconds if turn_timeout_seconds is None else turn_timeout_seconds,
            tuple(kind for kind in registry.kinds() if kind in offered),
        )
        await store.set_guild_settings(
            self.db,
            store.GuildSettings(
                guild_id, new.thread_mode, new.turn_timeout_seconds, new.enabled_games
            ),
            daily=daily,
        )
        self._cache.put(guild_id, new)
        return new
