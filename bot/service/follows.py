"""Following a game: who is told (by direct message) when it ends, or on every turn change."""

from __future__ import annotations

from bot import storage as store
from bot.storage import Database

END = "end"  # tell me when the game ends
TURNS = "turns"  # ... and on every turn change
OFF = "off"  # unfollow
MODES = (END, TURNS, OFF)


class FollowService:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def choose(self, game_id: str, user_id: int, mode: str) -> bool:
        """Follow in ``mode`` (or stop with ``off``); False for an Unfollow of a game the
        user did not follow."""
        if mode == OFF:
            return await store.unfollow(self.db, game_id, user_id)
        await store.set_follow(self.db, game_id, user_id, every_turn=mode == TURNS)
        return True

    async def followers(self, game_id: str, *, turn_change: bool = False) -> list[int]:
        """Who to tell: everyone at the end; only those who asked for turns on a turn change."""
        found = await store.followers(self.db, game_id)
        return [user for user, every_turn in found.items() if every_turn or not turn_change]
