"""Ratings rows, the rated-games ledger, the result rows they are computed from, and the
reads that leaderboards and stats need.

Storage does not know the rating model: the service passes in a pure function that turns the
current rows into the new ones, and storage runs it inside the write transaction that also
claims the game in ``rated_games``. So a game is rated at most once, and two games finishing
at the same moment cannot both read the same old rating and overwrite each other.

A scope is ``"global"`` or a guild id as decimal text (see :func:`scope_key`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from bot.storage.database import Database, Row, Transaction, from_row
from bot.storage.records import ResultRow

GLOBAL_SCOPE = "global"

RatingKey: TypeAlias = tuple[str, str, int]
"""(scope, game, user_id): the primary key of a ratings row."""


def scope_key(guild_id: int | None) -> str:
    """The scope of a guild's board; ``None`` means the global one."""
    return GLOBAL_SCOPE if guild_id is None else str(guild_id)


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One person's rating in one game and scope."""

    scope: str
    game: str
    user_id: int
    mu: float
    sigma: float
    ordinal: float  # the conservative skill boards sort by
    games: int = 0
    wins: int = 0
    losses: int = 0
    streak: int = 0  # +N: N wins in a row; -N: N losses in a row; 0 after a draw
    updated: float = 0.0

    @property
    def key(self) -> RatingKey:
        return (self.scope, self.game, self.user_id)


RatingUpdate: TypeAlias = Callable[[Mapping[RatingKey, RatingRow]], Sequence[RatingRow]]
"""Given the existing rows (only those that exist) for the keys asked for, the rows to write."""

RatingRebuild: TypeAlias = Callable[
    [list[ResultRow]], tuple[Sequence[RatingRow], Sequence[tuple[str, float]]]
]
"""Given every result row of rated finished games, oldest first: all rating rows, and the
(game id, finish time) of each game that was rated."""

_RATING_COLUMNS = "scope, game, user_id, mu, sigma, ordinal, games, wins, losses, streak, updated"
_UPSERT = (
    f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (scope, game, user_id) DO UPDATE SET mu = excluded.mu, "
    "sigma = excluded.sigma, ordinal = excluded.ordinal, games = excluded.games, "
    "wins = excluded.wins, losses = excluded.losses, streak = excluded.streak, "
    "updated = excluded.updated"
)
_RESULTS = (
    "SELECT r.game_id, r.seat, r.user_id, r.place, r.points, r.outcome_kind, r.reason, "
    "r.guild_id, r.game, r.finished_at, g.rated FROM results r JOIN games g ON g.id = r.game_id"
)


def _result(row: Row) -> ResultRow:
    return from_row(ResultRow, row, rated=bool(row["rated"]))


def _rating(row: Row) -> RatingRow:
    return from_row(RatingRow, row)


def _params(row: RatingRow) -> tuple[Any, ...]:
    return (
        row.scope,
        row.game,
        row.user_id,
        row.mu,
        row.sigma,
        row.ordinal,
        row.games,
        row.wins,
        row.losses,
        row.streak,
        row.updated,
    )


# ---------------------------------------------------------------------------------------------
# Writes


async def rate_game(
    db: Database,
    game_id: str,
    rated_at: float,
    keys: Iterable[RatingKey],
    update: RatingUpdate,
) -> bool:
    """Claim ``game_id`` as rated and write ``update(current rows)``, in one transaction.

    Returns False, writing nothing, when the game was rated before. ``update`` runs in a
    worker thread inside the write transaction (on PostgreSQL again if the transaction is
    retried), so it must be quick, pure, and touch nothing but the rows it is given.
    """
    wanted = sorted(set(keys))

    def work(tx: Transaction) -> bool:
        claimed = tx.execute(
            "INSERT INTO rated_games (game_id, rated_at) VALUES (?, ?) "
            "ON CONFLICT (game_id) DO NOTHING",
            (game_id, rated_at),
        )
        if claimed != 1:
            return False
        current = _read_keys(tx, wanted)
        tx.executemany(_UPSERT, [_params(row) for row in update(current)])
        return True

    return await db.write(work)


def _read_keys(tx: Transaction, keys: Sequence[RatingKey]) -> dict[RatingKey, RatingRow]:
    found: dict[RatingKey, RatingRow] = {}
    for scope, game, user_id in keys:  # a handful of keys per game: one indexed lookup each
        row = tx.fetchone(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE scope = ? AND game = ? AND user_id = ?",
            (scope, game, user_id),
        )
        if row is not None:
            rating = _rating(row)
            found[rating.key] = rating
    return found


async def rebuild_ratings(db: Database, rebuild: RatingRebuild) -> int:
    """Replace every rating and the rated-games ledger by ``rebuild(all rated results)``.

    One transaction: the old numbers stay until the new ones are complete, and no game can be
    rated in between (one that finishes meanwhile is rated after it); ``rebuild`` runs in a
    worker thread (on PostgreSQL again if the transaction is retried, so it must be pure).
    Returns the number of rating rows written.
    """

    def work(tx: Transaction) -> int:
        results = [
            _result(row)
            for row in tx.fetchall(
                f"{_RESULTS} WHERE g.rated = 1 AND g.status = 'finished' "
                "ORDER BY r.finished_at, r.game_id, r.place, r.seat"
            )
        ]
        rows, games = rebuild(results)
        tx.execute("DELETE FROM ratings")
        tx.execute("DELETE FROM rated_games")
        tx.executemany(_UPSERT, [_params(row) for row in rows])
        tx.executemany("INSERT INTO rated_games (game_id, rated_at) VALUES (?, ?)", list(games))
        return len(rows)

    return await db.write(work)


# ---------------------------------------------------------------------------------------------
# Reads


async def results_of_game(db: Database, game_id: str) -> list[ResultRow]:
    """The result rows of one game in place order (empty while it is running)."""
    rows = await db.read(
        lambda tx: tx.fetchall(
            f"{_RESULTS} WHERE r.game_id = ? ORDER BY r.place, r.seat", (game_id,)
        )
    )
    return [_result(row) for row in rows]


async def leaderboard_rows(
    db: Database, scope: str, game: str, *, offset: int, limit: int
) -> tuple[list[RatingRow], int]:
    """One page of a board, best first, and the number of people on the whole board."""

    def work(tx: Transaction) -> tuple[list[RatingRow], int]:
        total = int(
            tx.fetchval("SELECT COUNT(*) FROM ratings WHERE scope = ? AND game = ?", (scope, game))
        )
        rows = tx.fetchall(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE scope = ? AND game = ? "
            "ORDER BY ordinal DESC, games DESC, user_id LIMIT ? OFFSET ?",
            (scope, game, limit, offset),
        )
        return [_rating(row) for row in rows], total

    return await db.read(work)


async def ratings_of_user(db: Database, user_id: int, scope: str) -> list[RatingRow]:
    """The user's rows in one scope, one per game played there."""
    rows = await db.read(
        lambda tx: tx.fetchall(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE user_id = ? AND scope = ? ORDER BY game",
            (user_id, scope),
        )
    )
    return [_rating(row) for row in rows]


async def rated_outcome_kinds(
    db: Database, user_id: int, game: str, guild_id: int | None
) -> dict[tuple[bool, str], int]:
    """How the user's rated games of ``game`` ended: {(won, outcome_kind): games}.

    ``guild_id`` None counts games everywhere; otherwise only the guild's. Won means first
    place. A game counts once even if the user held several of its seats.
    """
    sql = (
        "SELECT r.place = 1 AS won, r.outcome_kind, COUNT(DISTINCT r.game_id) AS n "
        "FROM results r JOIN rated_games rg ON rg.game_id = r.game_id "
        "WHERE r.user_id = ? AND r.game = ?"
    )
    params: list[Any] = [user_id, game]
    if guild_id is not None:
        sql += " AND r.guild_id = ?"
        params.append(guild_id)
    sql += " GROUP BY won, r.outcome_kind"
    rows = await db.read(lambda tx: tx.fetchall(sql, params))
    return {(bool(row["won"]), str(row["outcome_kind"])): int(row["n"]) for row in rows}


async def rated_places(
    db: Database, user_ids: Sequence[int], game: str, guild_id: int | None
) -> dict[int, dict[int, int]]:
    """How often each user finished in each place in rated games of ``game``:
    ``{user_id: {place: games}}`` (users without rated games are left out).

    ``guild_id`` None counts games everywhere; otherwise only the guild's. A user holding
    several seats of one game counts once, at their best place (as the ratings do).
    """
    if not user_ids:
        return {}
    marks = ", ".join("?" for _ in user_ids)
    where = f"r.game = ? AND r.user_id IN ({marks})"
    params: list[Any] = [game, *user_ids]
    if guild_id is not None:
        where += " AND r.guild_id = ?"
        params.append(guild_id)
    sql = (
        "SELECT user_id, place, COUNT(*) AS n FROM ("
        "SELECT r.user_id, MIN(r.place) AS place FROM results r "
        f"JOIN rated_games rg ON rg.game_id = r.game_id WHERE {where} "
        "GROUP BY r.user_id, r.game_id) AS per_game GROUP BY user_id, place"
    )
    places: dict[int, dict[int, int]] = {}
    for row in await db.read(lambda tx: tx.fetchall(sql, params)):
        places.setdefault(int(row["user_id"]), {})[int(row["place"])] = int(row["n"])
    return places
