"""Tutor mode's questions (table ``tutor_warnings``, migration 0016): asked before a costly
move is stored, answered Keep or Take back, read back by the game's review.

Asking writes the question and, for a timed game, the stopped clock (the snapshot holding it)
in one transaction guarded by the game's version: a question about a board that moved on is
never stored. An answer is a compare-and-set on the open question (``answer IS NULL``), so a
double click answers it once.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.database import Database, Transaction, from_row
from bot.storage.errors import VersionConflict

__all__ = ["NewWarning", "WarningRow", "answer_warning", "ask", "load_warning", "warnings_of"]


@dataclass(frozen=True, slots=True)
class NewWarning:
    """A question about to be asked: the game at ``version``, the move that would be action
    ``action_index`` of its log, by ``seat`` (``user_id``), its cost and the best move."""

    game_id: str
    version: int
    action_index: int
    seat: int
    user_id: int
    move: str
    best: str
    cost: float
    asked_at: float


@dataclass(frozen=True, slots=True)
class WarningRow(NewWarning):
    id: int
    answer: str | None  # None while open, then 'keep' or 'back'
    answered_at: float | None


_COLUMNS = (
    "id, game_id, version, action_index, seat, user_id, move, best, cost, asked_at, answer, "
    "answered_at"
)


async def ask(
    db: Database,
    warning: NewWarning,
    *,
    state_json: str | None = None,
    turn_deadline: float | None = None,
) -> int:
    """Store the question (and, with ``state_json``, the game's snapshot and deadline: its
    stopped clock) while the game is still active at ``warning.version``; returns its id.
    Raises :class:`VersionConflict` when the game moved on (nothing is written)."""

    def work(tx: Transaction) -> int:
        if state_json is None:
            found = tx.fetchval(
                "SELECT 1 FROM games WHERE id = ? AND version = ? AND status = 'active'",
                (warning.game_id, warning.version),
            )
        else:
            found = tx.execute(
                "UPDATE games SET state_json = ?, turn_deadline = ? "
                "WHERE id = ? AND version = ? AND status = 'active'",
                (state_json, turn_deadline, warning.game_id, warning.version),
            )
        if not found:
            raise VersionConflict(warning.game_id, warning.version, -1)
        return int(
            tx.fetchval(
                "INSERT INTO tutor_warnings (game_id, version, action_index, seat, user_id, "
                "move, best, cost, asked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    warning.game_id,
                    warning.version,
                    warning.action_index,
                    warning.seat,
                    warning.user_id,
                    warning.move,
                    warning.best,
                    warning.cost,
                    warning.asked_at,
                ),
            )
        )

    return await db.write(work)


async def load_warning(db: Database, warning_id: int) -> WarningRow | None:
    row = await db.read(
        lambda tx: tx.fetchone(f"SELECT {_COLUMNS} FROM tutor_warnings WHERE id = ?", (warning_id,))
    )
    return None if row is None else from_row(WarningRow, row)


async def answer_warning(db: Database, warning_id: int, answer: str, now: float) -> bool:
    """Record the answer to an open question; False when it was answered already."""
    changed = await db.write(
        lambda tx: tx.execute(
            "UPDATE tutor_warnings SET answer = ?, answered_at = ? WHERE id = ? AND answer IS NULL",
            (answer, now, warning_id),
        ),
        compare_and_set=True,
    )
    return bool(changed)


async def warnings_of(db: Database, game_id: str) -> list[WarningRow]:
    """Every question asked in ``game_id``, in the order asked."""
    rows = await db.read(
        lambda tx: tx.fetchall(
            f"SELECT {_COLUMNS} FROM tutor_warnings WHERE game_id = ? ORDER BY id", (game_id,)
        )
    )
    return [from_row(WarningRow, row) for row in rows]
