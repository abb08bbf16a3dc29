"""The skill record: the queue of finished rated games to review, each judged seat's figures,
and the fair-play review's cases and audit log.

The queue is stored (``review_queue``), so a restart or a second process loses nothing: a game
is queued once (its row stays when done), claimed by one process at a time with a guarded
UPDATE (:func:`claim_review`), and a claim older than its lease is taken over (the process
holding it died mid-review).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.storage.database import Database, Transaction, from_row

__all__ = [
    "AuditRow",
    "CaseRow",
    "QueueCounts",
    "SkillRow",
    "SkillTotals",
    "audit_log",
    "claim_review",
    "fairplay_cases",
    "finish_review",
    "game_skill_rows",
    "give_back_review",
    "mark_case_reviewed",
    "note_audit",
    "queue_counts",
    "queue_review",
    "queue_unreviewed",
    "review_attempts",
    "skill_rows",
    "skill_totals",
]


@dataclass(frozen=True, slots=True)
class SkillRow:
    """One judged seat of one reviewed game (the columns: migration 0013_skill)."""

    game_id: str
    seat: int
    user_id: int | None
    guild_id: int | None
    game: str
    finished_at: float
    rating: int | None
    decisions: int
    loss: float
    loss_sq: float
    agreed: int
    luck: float | None
    luck_games_json: str
    result: float
    adjusted: float | None
    accuracy: float | None

    @property
    def luck_games(self) -> tuple[float, ...]:
        return tuple(float(x) for x in json.loads(self.luck_games_json))


_SKILL_COLUMNS = (
    "game_id, seat, user_id, guild_id, game, finished_at, rating, decisions, loss, loss_sq, "
    "agreed, luck, luck_games_json, result, adjusted, accuracy"
)


@dataclass(frozen=True, slots=True)
class SkillTotals:
    """A player's sums over their records of one game (the fair-play test's input)."""

    user_id: int
    games: int
    decisions: int
    loss: float
    loss_sq: float
    agreed: int
    rating: int | None  # their displayed global rating now (None: not rated)


@dataclass(frozen=True, slots=True)
class QueueCounts:
    queued: int
    claimed: int
    done: int
    failed: int


@dataclass(frozen=True, slots=True)
class CaseRow:
    guild_id: int
    game: str
    user_id: int
    decisions: int
    moderator_id: int
    reviewed_at: float


@dataclass(frozen=True, slots=True)
class AuditRow:
    id: int
    guild_id: int
    moderator_id: int
    action: str
    user_id: int | None
    game: str | None
    at: float
    detail: str


# ---------------------------------------------------------------------------------------------
# The queue


async def queue_review(db: Database, game_id: str, now: float) -> bool:
    """Mark ``game_id`` to be reviewed; False when it was queued before (whatever became of
    it)."""

    def work(tx: Transaction) -> int:
        return tx.execute(
            "INSERT INTO review_queue (game_id, queued_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
            (game_id, now),
        )

    return await db.write(work, compare_and_set=True) == 1


async def queue_unreviewed(db: Database, now: float) -> int:
    """Queue every finished rated game never queued (a crash between a game's finish and its
    queueing, or games finished before the skill record existed); returns how many."""

    def work(tx: Transaction) -> int:
        return tx.execute(
            "INSERT INTO review_queue (game_id, queued_at) "
            "SELECT g.id, COALESCE(g.finished_at, ?) FROM games g "
            "WHERE g.rated = 1 AND g.status = 'finished' "
            "AND NOT EXISTS (SELECT 1 FROM review_queue q WHERE q.game_id = g.id) "
            "ON CONFLICT DO NOTHING",
            (now,),
        )

    return await db.write(work, compare_and_set=True)


async def claim_review(db: Database, worker: str, now: float, lease: float) -> str | None:
    """The oldest game waiting for review, now claimed by ``worker``; None when none waits.

    A row is waiting when queued, or claimed more than ``lease`` seconds ago. The UPDATE
    repeats the test in its own WHERE, so of two processes claiming at once one gets the row
    and the other nothing (PostgreSQL re-checks the WHERE on the row the first one changed).
    """
    stale = now - lease

    def work(tx: Transaction) -> str | None:
        for _ in range(3):  # lost races: try the next row
            row = tx.fetchone(
                "SELECT game_id FROM review_queue "
                "WHERE status = 'queued' OR (status = 'claimed' AND claimed_at < ?) "
                "ORDER BY queued_at, game_id LIMIT 1",
                (stale,),
            )
            if row is None:
                return None
            game_id = str(row[0])
            won = tx.execute(
                "UPDATE review_queue SET status = 'claimed', claimed_by = ?, claimed_at = ?, "
                "attempts = attempts + 1 WHERE game_id = ? "
                "AND (status = 'queued' OR (status = 'claimed' AND claimed_at < ?))",
                (worker, now, game_id, stale),
            )
            if won == 1:
                return game_id
        return None

    return await db.write(work, compare_and_set=True)


async def finish_review(
    db: Database,
    game_id: str,
    worker: str,
    records: Sequence[SkillRow],
    *,
    failed: str | None = None,
) -> bool:
    """Store a claimed game's records and mark it done (or ``failed``, with the reason);
    False when the claim was lost meanwhile (another process took over a stale claim), in
    which case nothing is written."""

    def work(tx: Transaction) -> bool:
        done = tx.execute(
            "UPDATE review_queue SET status = ?, note = ? "
            "WHERE game_id = ? AND status = 'claimed' AND claimed_by = ?",
            ("failed" if failed else "done", failed or "", game_id, worker),
        )
        if done != 1:
            return False
        tx.execute("DELETE FROM skill_records WHERE game_id = ?", (game_id,))
        for r in records:
            tx.execute(
                f"INSERT INTO skill_records ({_SKILL_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    r.game_id,
                    r.seat,
                    r.user_id,
                    r.guild_id,
                    r.game,
                    r.finished_at,
                    r.rating,
                    r.decisions,
                    r.loss,
                    r.loss_sq,
                    r.agreed,
                    r.luck,
                    r.luck_games_json,
                    r.result,
                    r.adjusted,
                    r.accuracy,
                ),
            )
        return True

    return await db.write(work, compare_and_set=True)


async def give_back_review(db: Database, game_id: str, worker: str, *, note: str) -> None:
    """Put a claimed game back in the queue (the review failed for a passing reason)."""
    await db.write(
        lambda tx: tx.execute(
            "UPDATE review_queue SET status = 'queued', claimed_by = NULL, claimed_at = NULL, "
            "note = ? WHERE game_id = ? AND status = 'claimed' AND claimed_by = ?",
            (note, game_id, worker),
        ),
        compare_and_set=True,
    )


async def review_attempts(db: Database, game_id: str) -> int:
    """How often the game was claimed for review."""
    found = await db.read(
        lambda tx: tx.fetchval("SELECT attempts FROM review_queue WHERE game_id = ?", (game_id,))
    )
    return int(found or 0)


async def queue_counts(db: Database) -> QueueCounts:
    def work(tx: Transaction) -> QueueCounts:
        counts = dict.fromkeys(("queued", "claimed", "done", "failed"), 0)
        for status, n in tx.fetchall("SELECT status, COUNT(*) FROM review_queue GROUP BY status"):
            counts[str(status)] = int(n)
        return QueueCounts(**counts)

    return await db.read(work)


# ---------------------------------------------------------------------------------------------
# The records


async def skill_rows(
    db: Database, user_id: int, *, game: str | None = None, guild_id: int | None = None
) -> list[SkillRow]:
    """``user_id``'s records, newest first (of one game, of one server's games, or all)."""
    sql = f"SELECT {_SKILL_COLUMNS} FROM skill_records WHERE user_id = ?"
    params: list[object] = [user_id]
    if game is not None:
        sql += " AND game = ?"
        params.append(game)
    if guild_id is not None:
        sql += " AND guild_id = ?"
        params.append(guild_id)
    sql += " ORDER BY finished_at DESC, game_id DESC, seat"
    rows = await db.read(lambda tx: tx.fetchall(sql, tuple(params)))
    return [from_row(SkillRow, row) for row in rows]


async def game_skill_rows(db: Database, game_id: str) -> list[SkillRow]:
    """The records of one game, by seat."""
    rows = await db.read(
        lambda tx: tx.fetchall(
            f"SELECT {_SKILL_COLUMNS} FROM skill_records WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
    )
    return [from_row(SkillRow, row) for row in rows]


async def skill_totals(
    db: Database, game: str, *, guild_id: int | None = None, min_decisions: int = 0
) -> list[SkillTotals]:
    """Every player's sums over their records of ``game`` (in one server's games, or all),
    with their displayed global rating now, for those with at least ``min_decisions``."""

    def work(tx: Transaction) -> list[SkillTotals]:
        where = "s.game = ? AND s.user_id IS NOT NULL"
        params: list[object] = [game]
        if guild_id is not None:
            where += " AND s.guild_id = ?"
            params.append(guild_id)
        params.append(min_decisions)
        rows = tx.fetchall(
            "SELECT s.user_id, COUNT(*), SUM(s.decisions), SUM(s.loss), SUM(s.loss_sq), "
            "SUM(s.agreed), r.mu, r.sigma FROM skill_records s "
            "LEFT JOIN ratings r ON r.scope = 'global' AND r.game = s.game "
            "AND r.user_id = s.user_id "
            f"WHERE {where} GROUP BY s.user_id, r.mu, r.sigma "
            "HAVING SUM(s.decisions) >= ? ORDER BY s.user_id",
            tuple(params),
        )
        return [
            SkillTotals(
                user_id=int(user),
                games=int(games),
                decisions=int(decisions or 0),
                loss=float(loss or 0.0),
                loss_sq=float(loss_sq or 0.0),
                agreed=int(agreed or 0),
                rating=None if mu is None else _display(float(mu), float(sigma)),
            )
            for user, games, decisions, loss, loss_sq, agreed, mu, sigma in rows
        ]

    return await db.read(work)


def _display(mu: float, sigma: float) -> int:
    # The ratings' display scale (bot.service.ratings.display_rating), which storage cannot
    # import: 1500 + 40 x (mu - 3 sigma).
    return round(1500 + 40 * (mu - 3.0 * sigma))


# ---------------------------------------------------------------------------------------------
# Fair-play cases and their audit log


async def fairplay_cases(db: Database, guild_id: int) -> list[CaseRow]:
    rows = await db.read(
        lambda tx: tx.fetchall(
            "SELECT guild_id, game, user_id, decisions, moderator_id, reviewed_at "
            "FROM fairplay_cases WHERE guild_id = ?",
            (guild_id,),
        )
    )
    return [from_row(CaseRow, row) for row in rows]


async def mark_case_reviewed(
    db: Database,
    guild_id: int,
    game: str,
    user_id: int,
    *,
    decisions: int,
    moderator_id: int,
    now: float,
    detail: str,
) -> None:
    """Record that a moderator reviewed the case (and log it), in one transaction."""

    def work(tx: Transaction) -> None:
        tx.execute(
            "INSERT INTO fairplay_cases (guild_id, game, user_id, decisions, moderator_id, "
            "reviewed_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id) "
            "DO UPDATE SET decisions = excluded.decisions, "
            "moderator_id = excluded.moderator_id, reviewed_at = excluded.reviewed_at",
            (guild_id, game, user_id, decisions, moderator_id, now),
        )
        _audit(tx, guild_id, moderator_id, "reviewed", user_id, game, now, detail)

    await db.write(work, compare_and_set=True)


async def note_audit(
    db: Database,
    guild_id: int,
    moderator_id: int,
    action: str,
    *,
    now: float,
    user_id: int | None = None,
    game: str | None = None,
    detail: str = "",
) -> None:
    await db.write(
        lambda tx: _audit(tx, guild_id, moderator_id, action, user_id, game, now, detail),
        compare_and_set=True,
    )


def _audit(
    tx: Transaction,
    guild_id: int,
    moderator_id: int,
    action: str,
    user_id: int | None,
    game: str | None,
    now: float,
    detail: str,
) -> None:
    tx.execute(
        "INSERT INTO fairplay_audit (guild_id, moderator_id, action, user_id, game, at, detail) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (guild_id, moderator_id, action, user_id, game, now, detail),
    )


async def audit_log(db: Database, guild_id: int, limit: int = 20) -> list[AuditRow]:
    """The newest ``limit`` entries of a server's fair-play audit log, newest first."""
    rows = await db.read(
        lambda tx: tx.fetchall(
            "SELECT id, guild_id, moderator_id, action, user_id, game, at, detail "
            "FROM fairplay_audit WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        )
    )
    return [from_row(AuditRow, row) for row in rows]
