"""A person's recent games, for the autocomplete of ``game`` id options (/review, /export,
/verify): each game's id, kind, the other players' names and when it last changed."""

from __future__ import annotations

from dataclasses import dataclass

from bot import storage as store
from bot.storage import Database


@dataclass(frozen=True, slots=True)
class RecentGame:
    id: str
    game: str  # the stored kind
    opponents: tuple[str, ...]
    updated_at: float  # seconds since the epoch
    imported: bool = False  # played elsewhere (/review import)


async def recent_games(db: Database, user_id: int, limit: int = 25) -> list[RecentGame]:
    """The games ``user_id`` sat in, the most recently changed first."""
    rows = await store.recent_games_for_user(db, user_id, limit=limit)
    return [
        RecentGame(
            row.id,
            row.game,
            tuple(s.display_name for s in row.seats if s.user_id != user_id),
            row.updated_at,
            row.imported,
        )
        for row in rows
    ]


__all__ = ["RecentGame", "recent_games"]
