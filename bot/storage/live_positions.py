"""The index of live rated positions: which active rated game has which position on its
board, by the key its game gives a position (``PositionTools.key``; storage keeps the text).

A game's row is written by the transaction that commits its move (:func:`put`, called from
:func:`bot.storage.actions.append_actions` and :func:`bot.storage.games.create_game`) and
deleted by the one that ends it (:func:`drop`), so the index is exact in every process
sharing the database and survives a restart. :func:`holders` reads only active games, so a
row a fault left behind (there is none by construction) could never refuse a finished
game's position.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.database import Database, Transaction


def put(tx: Transaction, game_id: str, key: str) -> None:
    """``key`` stands on ``game_id``'s board now (its kind is copied from the game row)."""
    tx.execute(
        "INSERT INTO live_positions (game_id, game, position_key) "
        "SELECT id, game, ? FROM games WHERE id = ? "
        "ON CONFLICT (game_id) DO UPDATE SET position_key = excluded.position_key",
        (key, game_id),
    )


def drop(tx: Transaction, game_id: str) -> None:
    """``game_id`` has no live position any more (it ended)."""
    tx.execute("DELETE FROM live_positions WHERE game_id = ?", (game_id,))


async def holders(db: Database, kinds: Sequence[str], key: str) -> list[str]:
    """The active games of the ``kinds`` whose board shows ``key`` now (usually none)."""
    if isinstance(kinds, str):  # a str is a sequence of str too: one kind, read letter by letter
        raise TypeError("holders takes a sequence of kinds, not one kind")
    if not kinds:
        return []
    marks = ", ".join("?" for _ in kinds)
    rows = await db.read(
        lambda tx: tx.fetchall(
            "SELECT l.game_id FROM live_positions l JOIN games g ON g.id = l.game_id "
            f"WHERE l.game IN ({marks}) AND l.position_key = ? AND g.status = 'active' "
            "ORDER BY l.game_id",
            (*kinds, key),
        )
    )
    return [str(row["game_id"]) for row in rows]


# Keys asked in one statement at most (SQLite's default limit of bound values is 32,766).
_KEYS_AT_ONCE = 500


async def standing(db: Database, kinds: Sequence[str], keys: Sequence[str]) -> set[str]:
    """Which of ``keys`` stand on the board of an active game of the ``kinds`` now: one read
    for many positions (a training deck's due cards)."""
    if isinstance(kinds, str):  # a str is a sequence of str too: one kind, read letter by letter
        raise TypeError("standing takes a sequence of kinds, not one kind")
    wanted = sorted(set(keys))
    if not wanted or not kinds:
        return set()
    games = ", ".join("?" for _ in kinds)

    def work(tx: Transaction) -> set[str]:
        found: set[str] = set()
        for start in range(0, len(wanted), _KEYS_AT_ONCE):
            part = wanted[start : start + _KEYS_AT_ONCE]
            marks = ", ".join("?" for _ in part)
            rows = tx.fetchall(
                "SELECT DISTINCT l.position_key FROM live_positions l "
                "JOIN games g ON g.id = l.game_id "
                f"WHERE l.game IN ({games}) AND l.position_key IN ({marks}) "
                "AND g.status = 'active'",
                (*kinds, *part),
            )
            found.update(str(row["position_key"]) for row in rows)
        return found

    return await db.read(work)


async def index_games(db: Database, entries: Sequence[tuple[str, int, str]]) -> int:
    """Index active games that have no row yet (games started before the index existed):
    ``(game_id, version, key)``, each written only while the game is still active at that
    version, so a move or an ending committed meanwhile by another process wins. Returns
    how many were written."""

    def work(tx: Transaction) -> int:
        written = 0
        for game_id, version, key in entries:
            row = tx.fetchval(
                "INSERT INTO live_positions (game_id, game, position_key) "
                "SELECT id, game, ? FROM games WHERE id = ? AND version = ? "
                "AND status = 'active' ON CONFLICT (game_id) DO NOTHING RETURNING game_id",
                (key, game_id, version),
            )
            written += row is not None
        return written

    return await db.write(work) if entries else 0
