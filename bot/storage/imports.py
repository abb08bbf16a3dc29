"""Games played elsewhere, stored for a review (``/review import``).

An imported game is stored whole in one transaction: a finished, unrated ``games`` row marked
``imported``, its seats (the importer in the seat they chose, the other player as a seat
played elsewhere), its action log, and an ``imports`` row saying who brought it from which
file. No results, rating, tournament table, live position or skill-record row is written, so
nothing that counts games played here sees it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.storage.database import Database, Transaction, from_row
from bot.storage.errors import AlreadyExists
from bot.storage.games import _select_games
from bot.storage.records import GameRow, SeatRow


@dataclass(frozen=True, slots=True)
class ImportRow:
    """What was imported: by whom, the reader's format and the file (name, size, SHA-256)."""

    game_id: str
    user_id: int
    format: str
    filename: str
    size: int
    sha256: str
    created_at: float


@dataclass(frozen=True, slots=True)
class ImportedLog:
    """One action of an imported game: its seat (``None``: nobody's, the opening roll), its
    kind and its notation."""

    seat: int | None
    kind: str
    notation: str


async def store_import(
    db: Database,
    *,
    game_id: str,
    game: str,
    channel_id: int,
    options_json: str,
    state_json: str,
    seats: Sequence[SeatRow],
    actions: Sequence[ImportedLog],
    imported: ImportRow,
) -> GameRow:
    """Store an imported game, finished, with its seats, log and origin (all or nothing).
    Raises :class:`AlreadyExists` if the id is taken."""
    if not seats:
        raise ValueError("a game needs at least one seat")
    now = imported.created_at
    count = len(actions)

    def work(tx: Transaction) -> GameRow:
        if tx.fetchval("SELECT 1 FROM games WHERE id = ?", (game_id,)) is not None:
            raise AlreadyExists("game", game_id)
        tx.execute(
            "INSERT INTO games (id, game, guild_id, channel_id, options_json, state_json, "
            "version, action_count, status, dice_seed_hash, dice_seed, rated, created_at, "
            "updated_at, finished_at, ai_turn, imported) "
            "VALUES (?, ?, NULL, ?, ?, ?, ?, ?, 'finished', '', '', 0, ?, ?, ?, 0, 1)",
            (game_id, game, channel_id, options_json, state_json, count + 1, count, now, now, now),
        )
        tx.executemany(
            "INSERT INTO seats (game_id, seat, user_id, ai_level, display_name, resigned) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [
                (game_id, s.seat, s.user_id, s.ai_level, s.display_name, int(s.resigned))
                for s in seats
            ],
        )
        tx.executemany(
            "INSERT INTO actions (game_id, seq, seat, user_id, kind, notation, created_at) "
            "VALUES (?, ?, ?, NULL, ?, ?, ?)",
            [
                (game_id, seq, a.seat, a.kind, a.notation, now)
                for seq, a in enumerate(actions, start=1)
            ],
        )
        tx.execute(
            "INSERT INTO imports (game_id, user_id, format, filename, size, sha256, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                imported.user_id,
                imported.format,
                imported.filename,
                imported.size,
                imported.sha256,
                now,
            ),
        )
        (created,) = _select_games(tx, "id = ?", (game_id,))
        return created

    return await db.write(work)


async def load_import(db: Database, game_id: str) -> ImportRow | None:
    """Where the imported game ``game_id`` came from (``None``: not an imported game)."""
    row = await db.read(
        lambda tx: tx.fetchone(
            "SELECT game_id, user_id, format, filename, size, sha256, created_at FROM imports "
            "WHERE game_id = ?",
            (game_id,),
        )
    )
    return None if row is None else from_row(ImportRow, row)


async def count_imports(db: Database, user_id: int, since: float) -> int:
    """How many games ``user_id`` imported from ``since`` on (the import limit's count)."""
    found = await db.read(
        lambda tx: tx.fetchval(
            "SELECT COUNT(*) FROM imports WHERE user_id = ? AND created_at >= ?",
            (user_id, since),
        )
    )
    return int(found or 0)
