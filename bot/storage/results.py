"""Finished games' results per seat: history and leaderboard reads.

Rows are written by :mod:`bot.storage.actions` together with the end of the game. ``rated``
comes from the game row, so a leaderboard can skip casual games.
"""

from __future__ import annotations

from typing import Any

from bot.storage.database import Database, Row
from bot.storage.records import ResultRow

_SELECT = (
    "SELECT r.game_id, r.seat, r.user_id, r.place, r.points, r.outcome_kind, r.reason, "
    "r.guild_id, r.game, r.finished_at, g.rated FROM results r JOIN games g ON g.id = r.game_id"
)


def result_from_row(row: Row) -> ResultRow:
    return ResultRow(
        game_id=row["game_id"],
        seat=row["seat"],
        user_id=row["user_id"],
        place=row["place"],
        points=row["points"],
        outcome_kind=row["outcome_kind"],
        reason=row["reason"],
        guild_id=row["guild_id"],
        game=row["game"],
        finished_at=row["finished_at"],
        rated=bool(row["rated"]),
    )


async def results_for_user(
    db: Database,
    user_id: int,
    *,
    guild_id: int | None = None,
    game: str | None = None,
    limit: int | None = None,
) -> list[ResultRow]:
    """The user's own result rows, newest first (a history page)."""
    where = ["r.user_id = ?"]
    params: list[Any] = [user_id]
    if guild_id is not None:
        where.append("r.guild_id = ?")
        params.append(guild_id)
    if game is not None:
        where.append("r.game = ?")
        params.append(game)
    sql = f"{_SELECT} WHERE {' AND '.join(where)} ORDER BY r.finished_at DESC, r.game_id, r.seat"
    if limit is not None:
        sql += " LIMIT ?"
        params.append(limit)
    return [result_from_row(row) for row in await db.fetchall(sql, params)]


async def results_for_guild(
    db: Database,
    guild_id: int,
    game: str,
    *,
    rated_only: bool = False,
    since: float | None = None,
) -> list[ResultRow]:
    """Every seat's result of the guild's finished games of one kind, oldest game first and
    seats in place order: the order a rating system replays them in."""
    sql = f"{_SELECT} WHERE r.guild_id = ? AND r.game = ?"
    params: list[Any] = [guild_id, game]
    if rated_only:
        sql += " AND g.rated = 1"
    if since is not None:
        sql += " AND r.finished_at >= ?"
        params.append(since)
    sql += " ORDER BY r.finished_at, r.game_id, r.place, r.seat"
    return [result_from_row(row) for row in await db.fetchall(sql, params)]
