"""Cached post-game reviews: one row per game, written once, replaced when the format moves on."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.database import Database, from_row


@dataclass(frozen=True, slots=True)
class ReviewRow:
    game_id: str
    version: int  # the review format the service wrote
    level: str  # the engine level of the analysis
    actions: int  # length of the action log analysed
    review_json: str
    created_at: float


async def load_review(db: Database, game_id: str) -> ReviewRow | None:
    """The stored review of ``game_id``, if any (whatever its version: the caller checks)."""
    row = await db.read(
        lambda tx: tx.fetchone(
            "SELECT game_id, version, level, actions, review_json, created_at FROM reviews "
            "WHERE game_id = ?",
            (game_id,),
        )
    )
    if row is None:
        return None
    return from_row(ReviewRow, row)


async def save_review(
    db: Database,
    game_id: str,
    *,
    version: int,
    level: str,
    actions: int,
    review_json: str,
    now: float,
) -> None:
    """Store (or replace) the review of ``game_id``.

    Raises :class:`ConstraintViolation` when there is no such game.
    """
    await db.write(
        lambda tx: tx.execute(
            "INSERT INTO reviews (game_id, version, level, actions, review_json, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
            "version = excluded.version, level = excluded.level, actions = excluded.actions, "
            "review_json = excluded.review_json, created_at = excluded.created_at",
            (game_id, version, level, actions, review_json, now),
        ),
        compare_and_set=True,
    )
