"""Guild settings with defaults; results for histories and leaderboards."""

from __future__ import annotations

import pytest

from bot.storage import (
    Database,
    GameStatus,
    GuildSettings,
    SeatResult,
    append_action,
    get_guild_settings,
    results_for_guild,
    results_for_user,
    set_guild_settings,
)

from .conftest import T0, bot_seat, human, new_game


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


async def test_results_for_user_and_guild(db: Database) -> None:
    await finished(db, "a", guild_id=1, game="ur", at=T0 + 1, winner=10, loser=20)
    await finished(db, "b", guild_id=1, game="ur", at=T0 + 3, winner=20, loser=10, rated=False)
    await finished(db, "c", guild_id=1, game="ludo", at=T0 + 2, winner=10, loser=None)
    await finished(db, "d", guild_id=2, game="ur", at=T0 + 4, winner=10, loser=30)

    mine = await results_for_user(db, 10)
    assert [(r.game_id, r.place) for r in mine] == [("d", 1), ("b", 2), ("c", 1), ("a", 1)]
    assert [r.game_id for r in await results_for_user(db, 10, limit=2)] == ["d", "b"]
    assert [r.game_id for r in await results_for_user(db, 10, guild_id=1)] == ["b", "c", "a"]
    assert [r.game_id for r in await results_for_user(db, 10, game="ludo")] == ["c"]
    assert await results_for_user(db, 99) == []

    board = await results_for_guild(db, 1, "ur")
    assert [(r.game_id, r.user_id, r.place, r.rated) for r in board] == [
        ("a", 10, 1, True),
        ("a", 20, 2, True),
        ("b", 20, 1, False),
        ("b", 10, 2, False),
    ]
    assert {r.game_id for r in await results_for_guild(db, 1, "ur", rated_only=True)} == {"a"}
    assert {r.game_id for r in await results_for_guild(db, 1, "ur", since=T0 + 2)} == {"b"}
    ludo = await results_for_guild(db, 1, "ludo")
    assert [(r.user_id, r.reason) for r in ludo] == [(10, "normal"), (None, "resign")]
