"""Guild settings with defaults; the result rows of finished games."""

from __future__ import annotations

import pytest

from bot.storage import (
    DailyPuzzle,
    Database,
    GameStatus,
    GuildSettings,
    SeatResult,
    get_guild_settings,
    get_preferences,
    results_of_game,
    set_guild_settings,
    set_preferences,
)
from bot.storage.puzzles import DailySetting, get_daily

from .conftest import T0, bot_seat, human, new_game
from .helpers import append_action


async def test_guild_settings_default_until_set(db: Database) -> None:
    assert await get_guild_settings(db, 5) == GuildSettings(5)
    custom = GuildSettings(0, thread_mode=True, turn_timeout_seconds=600, enabled_games=("ur",))
    assert await get_guild_settings(db, 5, defaults=custom) == GuildSettings(
        5, thread_mode=True, turn_timeout_seconds=600, enabled_games=("ur",)
    )

    chosen = GuildSettings(5, thread_mode=True, turn_timeout_seconds=120, enabled_games=())
    await set_guild_settings(db, chosen)
    assert await get_guild_settings(db, 5, defaults=custom) == chosen
    changed = GuildSettings(5, thread_mode=False, turn_timeout_seconds=30)
    await set_guild_settings(db, changed)
    assert await get_guild_settings(db, 5) == changed
    assert await get_guild_settings(db, 6) == GuildSettings(6)  # other guilds untouched


async def test_settings_and_the_daily_puzzle_in_one_transaction(db: Database) -> None:
    chosen = GuildSettings(7, thread_mode=True, turn_timeout_seconds=7200, enabled_games=("ur",))
    await set_guild_settings(db, chosen, daily=DailyPuzzle(channel_id=70, hour=6))
    assert await get_guild_settings(db, 7) == chosen
    assert await get_daily(db, 7) == DailySetting(7, 70, 6)
    await set_guild_settings(db, chosen, daily=DailyPuzzle(channel_id=None, hour=6))
    assert await get_daily(db, 7) is None  # off
    await set_guild_settings(db, GuildSettings(7, turn_timeout_seconds=60))
    assert (await get_guild_settings(db, 7)).turn_timeout_seconds == 60


async def test_preferences_set_together(db: Database) -> None:
    await set_preferences(db, 8, {"theme": "dark", "auto_roll": "off"})
    await set_preferences(db, 8, {"theme": "contrast"})
    await set_preferences(db, 8, {})
    assert await get_preferences(db, 8) == {"theme": "contrast", "auto_roll": "off"}


def test_guild_settings_reject_a_non_positive_timeout() -> None:
    with pytest.raises(ValueError, match="positive"):
        GuildSettings(1, turn_timeout_seconds=0)


async def finished(
    db: Database,
    game_id: str,
    *,
    guild_id: int,
    game: str,
    at: float,
    winner: int,
    loser: int | None,
    rated: bool = True,
) -> None:
    seats = (human(0, winner), human(1, loser) if loser is not None else bot_seat(1))
    await new_game(
        db, game_id, guild_id=guild_id, game=game, channel_id=hash(game_id), seats=seats,
        rated=rated,
    )  # fmt: skip
    results = (
        SeatResult(0, winner, 1, 1, "single", "normal"),
        SeatResult(1, loser, 2, -1, "single", "resign"),
    )
    await append_action(
        db, game_id, 0, 1, loser, "resign", "resign 1", "{}", at,
        status=GameStatus.FINISHED, results=results,
    )  # fmt: skip


async def test_results_of_a_game_in_place_order(db: Database) -> None:
    await finished(db, "a", guild_id=1, game="ur", at=T0 + 1, winner=20, loser=10)
    await finished(db, "b", guild_id=2, game="ludo", at=T0 + 2, winner=10, loser=None, rated=False)

    ur = await results_of_game(db, "a")
    assert [(r.game_id, r.user_id, r.place, r.points, r.reason) for r in ur] == [
        ("a", 20, 1, 1, "normal"),
        ("a", 10, 2, -1, "resign"),
    ]
    ludo = await results_of_game(db, "b")
    assert [(r.user_id, r.reason, r.guild_id, r.game, r.finished_at, r.rated) for r in ludo] == [
        (10, "normal", 2, "ludo", T0 + 2, False),
        (None, "resign", 2, "ludo", T0 + 2, False),
    ]
    assert await results_of_game(db, "nope") == []
