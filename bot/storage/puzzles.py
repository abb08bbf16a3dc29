"""Puzzles in the database: the ones a server's games added, people's answers and streaks,
the daily-puzzle settings and the claims that make each daily post happen once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.storage.database import Database, Transaction


@dataclass(frozen=True, slots=True)
class Answered:
    """The outcome of recording an answer: ``first`` is False when the person had already
    answered this puzzle (nothing changed); the streak after it."""

    first: bool
    solved: bool
    choice: int
    streak: int
    best: int


@dataclass(frozen=True, slots=True)
class PuzzleStanding:
    user_id: int
    solved: int
    answered: int


@dataclass(frozen=True, slots=True)
class DailySetting:
    guild_id: int
    channel_id: int
    hour: int


async def add_server_puzzles(
    db: Database, guild_id: int, puzzles: Sequence[tuple[str, str, str]], now: float
) -> int:
    """Store ``(key, game, puzzle_json)`` found in one of the server's games; a puzzle already
    stored is kept. Returns how many were new."""

    def work(tx: Transaction) -> int:
        added = 0
        for key, game, text in puzzles:
            added += tx.execute(
                "INSERT INTO puzzles (id, game, guild_id, puzzle_json, created_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                (key, game, guild_id, text, now),
            )
        return added

    return await db.write(work)


async def server_puzzles(db: Database, guild_id: int, game: str) -> list[tuple[str, str]]:
    """``(key, puzzle_json)`` of the puzzles the server's games added for ``game``."""
    rows = await db.read(
        lambda tx: tx.fetchall(
            "SELECT id, puzzle_json FROM puzzles WHERE guild_id = ? AND game = ? ORDER BY id",
            (guild_id, game),
        )
    )
    return [(str(row["id"]), str(row["puzzle_json"])) for row in rows]


async def load_puzzle(db: Database, key: str) -> str | None:
    """The JSON of a stored (server) puzzle."""
    value = await db.read(
        lambda tx: tx.fetchval("SELECT puzzle_json FROM puzzles WHERE id = ?", (key,))
    )
    return None if value is None else str(value)


async def answered_keys(db: Database, user_id: int, game: str) -> set[str]:
    rows = await db.read(
        lambda tx: tx.fetchall(
            "SELECT puzzle_id FROM puzzle_answers WHERE user_id = ? AND game = ?",
            (user_id, game),
        )
    )
    return {str(row["puzzle_id"]) for row in rows}


async def record_answer(
    db: Database,
    *,
    user_id: int,
    puzzle_id: str,
    guild_id: int | None,
    game: str,
    choice: int,
    solved: bool,
    now: float,
) -> Answered:
    """Record a person's first answer to a puzzle and move their streak, in one transaction:
    a second answer (another click, another process) changes nothing and says so."""

    def work(tx: Transaction) -> Answered:
        added = tx.execute(
            "INSERT INTO puzzle_answers (user_id, puzzle_id, guild_id, game, choice, solved, "
            "answered_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, puzzle_id) "
            "DO NOTHING",
            (user_id, puzzle_id, guild_id, game, choice, int(solved), now),
        )
        row = tx.fetchone("SELECT streak, best FROM puzzle_streaks WHERE user_id = ?", (user_id,))
        streak, best = (int(row["streak"]), int(row["best"])) if row else (0, 0)
        if not added:
            first = tx.fetchone(
                "SELECT choice, solved FROM puzzle_answers WHERE user_id = ? AND puzzle_id = ?",
                (user_id, puzzle_id),
            )
            assert first is not None
            return Answered(False, bool(first["solved"]), int(first["choice"]), streak, best)
        streak = streak + 1 if solved else 0
        best = max(best, streak)
        tx.execute(
            "INSERT INTO puzzle_streaks (user_id, streak, best) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET streak = excluded.streak, best = excluded.best",
            (user_id, streak, best),
        )
        return Answered(True, solved, choice, streak, best)

    return await db.write(work)


async def streak_of(db: Database, user_id: int) -> tuple[int, int]:
    """(current, best) run of solved puzzles."""
    row = await db.read(
        lambda tx: tx.fetchone(
            "SELECT streak, best FROM puzzle_streaks WHERE user_id = ?", (user_id,)
        )
    )
    return (int(row["streak"]), int(row["best"])) if row else (0, 0)


async def leaderboard(db: Database, guild_id: int, limit: int = 10) -> list[PuzzleStanding]:
    """The server's best puzzle solvers: most solved, then fewest answered, then earliest."""
    rows = await db.read(
        lambda tx: tx.fetchall(
            "SELECT user_id, SUM(solved) AS solved, COUNT(*) AS answered, "
            "MIN(answered_at) AS first FROM puzzle_answers WHERE guild_id = ? "
            "GROUP BY user_id ORDER BY solved DESC, answered ASC, first ASC LIMIT ?",
            (guild_id, limit),
        )
    )
    return [
        PuzzleStanding(int(row["user_id"]), int(row["solved"]), int(row["answered"]))
        for row in rows
    ]


async def set_daily(db: Database, guild_id: int, channel_id: int | None, hour: int) -> None:
    await db.write(
        lambda tx: tx.execute(
            "INSERT INTO puzzle_settings (guild_id, channel_id, hour) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, "
            "hour = excluded.hour",
            (guild_id, channel_id, hour),
        ),
        compare_and_set=True,
    )


async def get_daily(db: Database, guild_id: int) -> DailySetting | None:
    row = await db.read(
        lambda tx: tx.fetchone(
            "SELECT guild_id, channel_id, hour FROM puzzle_settings WHERE guild_id = ?",
            (guild_id,),
        )
    )
    if row is None or row["channel_id"] is None:
        return None
    return DailySetting(int(row["guild_id"]), int(row["channel_id"]), int(row["hour"]))


async def due_dailies(db: Database, day: str, hour: int) -> list[DailySetting]:
    """Servers whose daily puzzle for ``day`` is due at ``hour`` (UTC) and not yet claimed."""
    rows = await db.read(
        lambda tx: tx.fetchall(
            "SELECT s.guild_id, s.channel_id, s.hour FROM puzzle_settings s "
            "WHERE s.channel_id IS NOT NULL AND s.hour <= ? AND NOT EXISTS ("
            "SELECT 1 FROM daily_puzzles d WHERE d.guild_id = s.guild_id AND d.day = ? "
            "AND d.message_id IS NOT NULL) ORDER BY s.guild_id",
            (hour, day),
        )
    )
    return [DailySetting(int(r["guild_id"]), int(r["channel_id"]), int(r["hour"])) for r in rows]


async def claim_daily(
    db: Database,
    *,
    guild_id: int,
    day: str,
    puzzle_id: str,
    channel_id: int,
    now: float,
    lease: float,
) -> bool:
    """Claim the server's post for ``day``: True for exactly one caller. A claim whose post
    was never recorded (its process died) may be taken over after ``lease`` seconds."""

    def work(tx: Transaction) -> bool:
        if tx.execute(
            "INSERT INTO daily_puzzles (guild_id, day, puzzle_id, channel_id, claimed_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, day) DO NOTHING",
            (guild_id, day, puzzle_id, channel_id, now),
        ):
            return True
        return bool(
            tx.execute(
                "UPDATE daily_puzzles SET claimed_at = ?, channel_id = ? WHERE guild_id = ? "
                "AND day = ? AND message_id IS NULL AND claimed_at < ?",
                (now, channel_id, guild_id, day, now - lease),
            )
        )

    return await db.write(work)


async def daily_posted(db: Database, guild_id: int, day: str, message_id: int) -> None:
    await db.write(
        lambda tx: tx.execute(
            "UPDATE daily_puzzles SET message_id = ? WHERE guild_id = ? AND day = ?",
            (message_id, guild_id, day),
        ),
        compare_and_set=True,
    )


async def daily_puzzle_id(db: Database, guild_id: int, day: str) -> str | None:
    value = await db.read(
        lambda tx: tx.fetchval(
            "SELECT puzzle_id FROM daily_puzzles WHERE guild_id = ? AND day = ?",
            (guild_id, day),
        )
    )
    return None if value is None else str(value)
