"""Per-guild settings, with defaults for guilds that never changed anything."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

from bot.storage.database import Database, Transaction

DEFAULT_TURN_TIMEOUT_SECONDS = 24 * 60 * 60


@dataclass(frozen=True, slots=True)
class GuildSettings:
    guild_id: int
    thread_mode: bool = False  # True: each game gets its own thread
    turn_timeout_seconds: int = DEFAULT_TURN_TIMEOUT_SECONDS
    # The games on offer. Storage does not know which games exist: the service passes its
    # defaults (every registered game) for a guild that never chose.
    enabled_games: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.turn_timeout_seconds <= 0:
            raise ValueError("turn_timeout_seconds must be positive")


async def get_guild_settings(
    db: Database, guild_id: int, *, defaults: GuildSettings | None = None
) -> GuildSettings:
    """The guild's stored settings, or ``defaults`` (the module defaults if None) for it."""
    row = await db.read(
        lambda tx: tx.fetchone(
            "SELECT thread_mode, turn_timeout_seconds, enabled_games_json FROM guild_settings "
            "WHERE guild_id = ?",
            (guild_id,),
        )
    )
    if row is None:
        base = defaults if defaults is not None else GuildSettings(guild_id)
        return dataclasses.replace(base, guild_id=guild_id)
    return GuildSettings(
        guild_id=guild_id,
        thread_mode=bool(row["thread_mode"]),
        turn_timeout_seconds=row["turn_timeout_seconds"],
        enabled_games=tuple(json.loads(row["enabled_games_json"])),
    )


@dataclass(frozen=True, slots=True)
class DailyPuzzle:
    """A server's daily puzzle as /settings sets it: its channel (None: off) and hour."""

    channel_id: int | None
    hour: int


async def set_guild_settings(
    db: Database, settings: GuildSettings, *, daily: DailyPuzzle | None = None
) -> None:
    """Store all of the guild's settings (insert or replace), and with ``daily`` its daily
    puzzle too: in one transaction, so a command that changes both never stores half."""

    def work(tx: Transaction) -> None:
        tx.execute(
            "INSERT INTO guild_settings (guild_id, thread_mode, turn_timeout_seconds, "
            "enabled_games_json) VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "thread_mode = excluded.thread_mode, "
            "turn_timeout_seconds = excluded.turn_timeout_seconds, "
            "enabled_games_json = excluded.enabled_games_json",
            (
                settings.guild_id,
                int(settings.thread_mode),
                settings.turn_timeout_seconds,
                json.dumps(list(settings.enabled_games)),
            ),
        )
        if daily is not None:
            tx.execute(
                "INSERT INTO puzzle_settings (guild_id, channel_id, hour) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, "
                "hour = excluded.hour",
                (settings.guild_id, daily.channel_id, daily.hour),
            )

    # Blind upserts: the last writer's settings win, as on SQLite.
    await db.write(work, compare_and_set=True)
