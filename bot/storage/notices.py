"""Notices the bot posts on its own, each claimed once across restarts and processes.

A notice (a turn's time ran out, an idle Ludo seat handed to the AI) is claimed by inserting
its key (game, kind, version) before it is posted: the sweep that finds the claim taken
(after a restart, or in a second process on the same shards) skips it. A claim whose post
failed is released, so the next sweep tries again.
"""

from __future__ import annotations

from bot.storage.database import Database, Transaction


async def claim_notice(db: Database, game_id: str, kind: str, version: int, now: float) -> bool:
    """True when this caller may post the notice (nobody claimed it before)."""

    def work(tx: Transaction) -> int:
        return tx.execute(
            "INSERT INTO notices (game_id, kind, version, posted_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            (game_id, kind, version, now),
        )

    # A blind insert guarded by the key: safe at READ COMMITTED (a concurrent claim of the
    # same key waits for the other and then finds the row).
    return await db.write(work, compare_and_set=True) == 1


async def release_notice(db: Database, game_id: str, kind: str, version: int) -> None:
    """Give a claim back (its notice could not be posted)."""
    await db.write(
        lambda tx: tx.execute(
            "DELETE FROM notices WHERE game_id = ? AND kind = ? AND version = ?",
            (game_id, kind, version),
        ),
        compare_and_set=True,
    )
