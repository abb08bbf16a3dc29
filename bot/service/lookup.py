"""Finding a game by the id a player typed (``/export``, ``/verify``, ``/review``), and its log.

A game is found only where it was played: in a server, the games of that server; in a direct
message, the games the player sat in. Anything else (a typo, another server's game) is one
refusal, "no game with id X here", that also says where ids are shown.
"""

from __future__ import annotations

from bot import storage as store
from bot.storage import ActionRow, GameRow
from bot.vocabulary.errors import GameNotFound

__all__ = ["NO_SUCH_GAME", "ActionRow", "GameRow", "action_log", "find_game", "shown_id"]

NO_SUCH_GAME = "error.no_such_game"
SHOWN_ID_LENGTH = 24


def shown_id(typed: str) -> str:
    """``typed`` made safe to quote inside backticks in a reply (and kept short)."""
    cleaned = " ".join(typed.replace("`", "").split())
    if len(cleaned) > SHOWN_ID_LENGTH:
        return cleaned[: SHOWN_ID_LENGTH - 1] + "…"
    return cleaned


def _visible(row: store.GameRow, guild_id: int | None, user_id: int) -> bool:
    if guild_id is not None:
        return row.guild_id == guild_id
    return row.guild_id is None or any(seat.user_id == user_id for seat in row.seats)


async def find_game(
    db: store.Database, typed: str, *, guild_id: int | None, user_id: int
) -> store.GameRow:
    """The game ``typed`` names, as seen from ``guild_id`` (None: a direct message with
    ``user_id``); raises :class:`GameNotFound` with :data:`NO_SUCH_GAME` otherwise."""
    row = await store.load_game(db, typed.strip().lower())
    if row is None or not _visible(row, guild_id, user_id):
        raise GameNotFound(NO_SUCH_GAME, game=shown_id(typed))
    return row


async def action_log(db: store.Database, game_id: str) -> list[ActionRow]:
    """Every action of the game, in order: what ``/export`` writes and ``/verify`` checks."""
    return await store.load_actions(db, game_id)
