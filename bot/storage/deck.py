"""The training deck in the database: each person's cards (their own costly moves), when each
is due, the run of right answers, and the daily reminder's claim.

Storage knows no schedule: the service says when a card is next due and what an answer
does to it (:mod:`bot.service.deck`); these functions store it, each in one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.storage.database import Database, Transaction
from bot.storage.engine import Row

__all__ = [
    "CardRow",
    "NewCard",
    "Recorded",
    "add_cards",
    "card",
    "claim_reminder",
    "closed_at",
    "count_due",
    "dm_closed",
    "mark_shown",
    "next_due",
    "next_free",
    "record_answer",
    "reminder_candidates",
    "reopen_reminders",
    "reset",
    "shown_today",
    "streak_of",
]


@dataclass(frozen=True, slots=True)
class NewCard:
    """A card to add: whose, which move of which game, and what it shows."""

    user_id: int
    game_id: str
    index: int
    game: str
    seat: int
    card_json: str
    played: int


@dataclass(frozen=True, slots=True)
class CardRow:
    user_id: int
    game_id: str
    index: int
    game: str
    seat: int
    card_json: str
    played: int
    due_at: float
    box: int  # right answers in a row
    answers: int
    misses: int
    shown_on: str | None
    asked: bool


@dataclass(frozen=True, slots=True)
class Recorded:
    """An answer recorded: ``counted`` False when the card was not awaiting one (answered
    already since it was shown: judged, not counted); the card and the person's run after it."""

    counted: bool
    card: CardRow
    streak: int
    best: int


_COLUMNS = (
    "user_id, game_id, action_index, game, seat, card_json, played, due_at, box, answers, "
    "misses, shown_on, asked"
)


def _card(row: Row) -> CardRow:
    return CardRow(
        user_id=int(row["user_id"]),
        game_id=str(row["game_id"]),
        index=int(row["action_index"]),
        game=str(row["game"]),
        seat=int(row["seat"]),
        card_json=str(row["card_json"]),
        played=int(row["played"]),
        due_at=float(row["due_at"]),
        box=int(row["box"]),
        answers=int(row["answers"]),
        misses=int(row["misses"]),
        shown_on=None if row["shown_on"] is None else str(row["shown_on"]),
        asked=bool(row["asked"]),
    )


def _kinds(games: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    """An ``AND game IN (...)`` clause for ``games`` (none: every game)."""
    if not games:
        return "", ()
    return f" AND game IN ({', '.join('?' for _ in games)})", tuple(games)


async def add_cards(db: Database, cards: Sequence[NewCard], now: float) -> int:
    """Add ``cards``, due at once; a card already in its person's deck (the same game and
    move) is kept as it is. Returns how many were new."""

    def work(tx: Transaction) -> int:
        added = 0
        for c in cards:
            added += tx.execute(
                "INSERT INTO deck_cards (user_id, game_id, action_index, game, seat, card_json, "
                "played, added_at, due_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (user_id, game_id, action_index) DO NOTHING",
                (c.user_id, c.game_id, c.index, c.game, c.seat, c.card_json, c.played, now, now),
            )
        return added

    return await db.write(work) if cards else 0


async def next_due(
    db: Database, user_id: int, now: float, today: str, games: Sequence[str] = ()
) -> list[CardRow]:
    """The person's cards due at ``now`` and not shown on ``today`` (a missed card may be),
    the longest due first."""
    clause, kinds = _kinds(games)
    rows = await db.read(
        lambda tx: tx.fetchall(
            f"SELECT {_COLUMNS} FROM deck_cards WHERE user_id = ? AND due_at <= ? "
            f"AND (shown_on IS NULL OR shown_on <> ?){clause} "
            "ORDER BY due_at, game_id, action_index",
            (user_id, now, today, *kinds),
        )
    )
    return [_card(row) for row in rows]


async def count_due(
    db: Database, user_id: int, now: float, today: str, games: Sequence[str] = ()
) -> int:
    """How many of the person's cards :func:`next_due` would give."""
    clause, kinds = _kinds(games)
    return int(
        await db.read(
            lambda tx: tx.fetchval(
                "SELECT COUNT(*) FROM deck_cards WHERE user_id = ? AND due_at <= ? "
                f"AND (shown_on IS NULL OR shown_on <> ?){clause}",
                (user_id, now, today, *kinds),
            )
        )
    )


async def next_free(
    db: Database, user_id: int, today: str, games: Sequence[str] = ()
) -> tuple[float | None, int, int]:
    """(the earliest due time of a card not shown on ``today``, how many were shown on
    ``today``, how many cards the person has) of the person's deck."""
    clause, kinds = _kinds(games)

    def work(tx: Transaction) -> tuple[float | None, int, int]:
        row = tx.fetchone(
            "SELECT MIN(CASE WHEN shown_on IS NULL OR shown_on <> ? THEN due_at END) AS soonest, "
            "SUM(CASE WHEN shown_on = ? THEN 1 ELSE 0 END) AS today, COUNT(*) AS cards "
            f"FROM deck_cards WHERE user_id = ?{clause}",
            (today, today, user_id, *kinds),
        )
        assert row is not None
        soonest = None if row["soonest"] is None else float(row["soonest"])
        return soonest, int(row["today"] or 0), int(row["cards"])

    return await db.read(work)


async def shown_today(db: Database, user_id: int, today: str) -> int:
    """How many of the person's cards were shown on ``today``."""
    return int(
        await db.read(
            lambda tx: tx.fetchval(
                "SELECT COUNT(*) FROM deck_cards WHERE user_id = ? AND shown_on = ?",
                (user_id, today),
            )
        )
    )


async def card(db: Database, user_id: int, game_id: str, index: int) -> CardRow | None:
    row = await db.read(
        lambda tx: tx.fetchone(
            f"SELECT {_COLUMNS} FROM deck_cards "
            "WHERE user_id = ? AND game_id = ? AND action_index = ?",
            (user_id, game_id, index),
        )
    )
    return None if row is None else _card(row)


async def mark_shown(db: Database, user_id: int, game_id: str, index: int, today: str) -> None:
    """The card was shown on ``today``: it awaits an answer, and is not shown again that day
    unless it is missed."""
    await db.write(
        lambda tx: tx.execute(
            "UPDATE deck_cards SET shown_on = ?, asked = 1 "
            "WHERE user_id = ? AND game_id = ? AND action_index = ?",
            (today, user_id, game_id, index),
        ),
        compare_and_set=True,  # one row, changed blindly
    )


async def record_answer(
    db: Database,
    user_id: int,
    game_id: str,
    index: int,
    *,
    right: bool,
    due_at: float,
    box: int,
) -> Recorded | None:
    """An answer to the card: when it awaited one (shown, not answered since), the card gets
    ``box`` and ``due_at`` (a miss also clears its day, so it may come back the same day) and
    the person's run moves; otherwise nothing changes. None: no such card (reset since)."""

    flag = 1 if right else 0

    def work(tx: Transaction) -> Recorded | None:
        counted = tx.execute(
            "UPDATE deck_cards SET asked = 0, box = ?, due_at = ?, answers = answers + 1, "
            "misses = misses + ?, shown_on = CASE WHEN ? = 1 THEN shown_on END "
            "WHERE user_id = ? AND game_id = ? AND action_index = ? AND asked = 1",
            (box, due_at, 0 if right else 1, 1 if right else 0, user_id, game_id, index),
        )
        row = tx.fetchone(
            f"SELECT {_COLUMNS} FROM deck_cards "
            "WHERE user_id = ? AND game_id = ? AND action_index = ?",
            (user_id, game_id, index),
        )
        if row is None:
            return None
        if counted:
            tx.execute(
                "INSERT INTO deck_people (user_id, streak, best) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET "
                "streak = CASE WHEN ? = 1 THEN deck_people.streak + 1 ELSE 0 END, "
                "best = CASE WHEN ? = 1 AND deck_people.streak + 1 > deck_people.best "
                "THEN deck_people.streak + 1 ELSE deck_people.best END",
                (user_id, flag, flag, flag, flag),
            )
        streak, best = _streak(tx, user_id)
        return Recorded(bool(counted), _card(row), streak, best)

    return await db.write(work)


def _streak(tx: Transaction, user_id: int) -> tuple[int, int]:
    row = tx.fetchone("SELECT streak, best FROM deck_people WHERE user_id = ?", (user_id,))
    return (0, 0) if row is None else (int(row["streak"]), int(row["best"]))


async def streak_of(db: Database, user_id: int) -> tuple[int, int]:
    """(right answers in a row, the best run) of the person, over their whole deck."""
    return await db.read(lambda tx: _streak(tx, user_id))


async def reset(db: Database, user_id: int, game: str) -> int:
    """Remove the person's cards of ``game``; how many there were."""
    return await db.write(
        lambda tx: tx.execute(
            "DELETE FROM deck_cards WHERE user_id = ? AND game = ?", (user_id, game)
        ),
        compare_and_set=True,  # rows of one person, deleted blindly
    )


# ---------------------------------------------------------------------------------- reminders


async def reminder_candidates(
    db: Database, user_ids: Sequence[int], now: float, today: str
) -> list[int]:
    """Of ``user_ids`` (who asked for the reminder), those with a card due at ``now``, not yet
    reminded on ``today``, and whose DMs were not found closed."""
    if not user_ids:
        return []
    marks = ", ".join("?" for _ in user_ids)
    rows = await db.read(
        lambda tx: tx.fetchall(
            "SELECT DISTINCT c.user_id FROM deck_cards c "
            "LEFT JOIN deck_people p ON p.user_id = c.user_id "
            f"WHERE c.user_id IN ({marks}) AND c.due_at <= ? "
            "AND (c.shown_on IS NULL OR c.shown_on <> ?) "
            "AND p.dm_closed_at IS NULL AND (p.reminded_on IS NULL OR p.reminded_on <> ?) "
            "ORDER BY c.user_id",
            (*user_ids, now, today, today),
        )
    )
    return [int(row["user_id"]) for row in rows]


async def claim_reminder(db: Database, user_id: int, today: str) -> bool:
    """Claim the person's reminder for ``today``: True for exactly one caller (in any
    process), never for a person whose DMs were found closed."""

    def work(tx: Transaction) -> bool:
        tx.execute(
            "INSERT INTO deck_people (user_id) VALUES (?) ON CONFLICT (user_id) DO NOTHING",
            (user_id,),
        )
        return bool(
            tx.execute(
                "UPDATE deck_people SET reminded_on = ? WHERE user_id = ? "
                "AND dm_closed_at IS NULL AND (reminded_on IS NULL OR reminded_on <> ?)",
                (today, user_id, today),
            )
        )

    return await db.write(work, compare_and_set=True)  # guarded by its own WHERE


async def dm_closed(db: Database, user_id: int, now: float) -> None:
    """The person's DMs refused a reminder: no more until they ask again."""
    await db.write(
        lambda tx: tx.execute(
            "INSERT INTO deck_people (user_id, dm_closed_at) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET dm_closed_at = excluded.dm_closed_at",
            (user_id, now),
        ),
        compare_and_set=True,  # one upsert
    )


async def reopen_reminders(db: Database, user_id: int) -> bool:
    """The person asked for reminders again: a closed DM noted before is forgotten. Whether
    one was."""
    return bool(
        await db.write(
            lambda tx: tx.execute(
                "UPDATE deck_people SET dm_closed_at = NULL "
                "WHERE user_id = ? AND dm_closed_at IS NOT NULL",
                (user_id,),
            ),
            compare_and_set=True,
        )
    )


async def closed_at(db: Database, user_id: int) -> float | None:
    """When the person's DMs were found closed to the reminder (None: never, or asked again)."""
    value = await db.read(
        lambda tx: tx.fetchval("SELECT dm_closed_at FROM deck_people WHERE user_id = ?", (user_id,))
    )
    return None if value is None else float(value)
