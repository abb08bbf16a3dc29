"""Per-person preferences (/prefs): a setting's name and its value as text, per person.

Storage does not know which settings exist or their defaults: a person who never chose has no
rows, and the service fills in its defaults.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.storage.database import Database, Transaction


async def get_preferences(db: Database, user_id: int) -> dict[str, str]:
    """The settings ``user_id`` chose, by name (none: the person never chose)."""
    rows = await db.read(
        lambda tx: tx.fetchall("SELECT name, value FROM preferences WHERE user_id = ?", (user_id,))
    )
    return {str(row["name"]): str(row["value"]) for row in rows}


async def set_preference(db: Database, user_id: int, name: str, value: str) -> None:
    """Store one setting of ``user_id`` (insert or replace)."""
    await db.write(
        lambda tx: tx.execute(
            "INSERT INTO preferences (user_id, name, value) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id, name) DO UPDATE SET value = excluded.value",
            (user_id, name, value),
        ),
        compare_and_set=True,  # one upsert: the last writer's choice wins, as on SQLite
    )


async def set_preferences(db: Database, user_id: int, chosen: Mapping[str, str]) -> None:
    """Store several settings of ``user_id`` at once (insert or replace), in one transaction:
    a command that changes several never stores half of them."""

    def work(tx: Transaction) -> None:
        for name, value in chosen.items():
            tx.execute(
                "INSERT INTO preferences (user_id, name, value) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id, name) DO UPDATE SET value = excluded.value",
                (user_id, name, value),
            )

    if chosen:
        await db.write(work, compare_and_set=True)  # blind upserts, as set_preference


async def preferences_named(db: Database, name: str) -> dict[int, str]:
    """Every person's choice of the setting ``name`` (those who chose), by user id."""
    rows = await db.read(
        lambda tx: tx.fetchall("SELECT user_id, value FROM preferences WHERE name = ?", (name,))
    )
    return {int(row["user_id"]): str(row["value"]) for row in rows}
