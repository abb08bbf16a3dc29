"""Followers of a game: who gets a direct message when it ends (and on each turn change)."""

from __future__ import annotations

from bot.storage.database import Database


async def set_follow(db: Database, game_id: str, user_id: int, every_turn: bool) -> None:
    """Follow ``game_id`` (again: the latest choice of ``every_turn`` wins)."""
    await db.write(
        lambda tx: tx.execute(
            "INSERT INTO follows (game_id, user_id, every_turn) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id, user_id) DO UPDATE SET every_turn = excluded.every_turn",
            (game_id, user_id, int(every_turn)),
        ),
        compare_and_set=True,
    )


async def unfollow(db: Database, game_id: str, user_id: int) -> bool:
    """Stop following; False when the user did not follow the game."""
    changed = await db.write(
        lambda tx: tx.execute(
            "DELETE FROM follows WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        ),
        compare_and_set=True,
    )
    return bool(changed)


async def followers(db: Database, game_id: str) -> dict[int, bool]:
    """The followers of ``game_id``: user id -> whether they want every turn change."""
    rows = await db.read(
        lambda tx: tx.fetchall(
            "SELECT user_id, every_turn FROM follows WHERE game_id = ? ORDER BY user_id",
            (game_id,),
        )
    )
    return {int(row["user_id"]): bool(row["every_turn"]) for row in rows}
