"""Where a game (or an invitation, a tournament) may be seen and acted on, and finding a game
by the id a player typed (``/export``, ``/verify``, ``/review``) or a button carries.

The one rule, for every command and every button:

- a server's game, only from that server;
- a game outside any server (a DM or group DM), only by the people who sat in it, from any DM
  or group DM, and by the members of the chat it was played in, from that chat.

A forged click (a custom_id the bot never drew for that person) or a typed id that breaks the
rule is answered exactly as an id that names nothing: the same refusal, nothing about the game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from bot import storage as store
from bot.storage import ActionRow, GameRow
from bot.vocabulary.errors import GameNotFound

__all__ = [
    "NO_SUCH_GAME",
    "ActionRow",
    "GameRow",
    "Viewer",
    "action_log",
    "find_game",
    "may_see",
    "sees_game",
    "shown_id",
]

NO_SUCH_GAME = "error.no_such_game"
SHOWN_ID_LENGTH = 24


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who asks and from where, as the interaction says (a client cannot forge these): the
    person, the server (None: a DM or group DM) and the channel."""

    user_id: int
    guild_id: int | None
    channel_id: int | None


class _Seat(Protocol):
    @property
    def user_id(self) -> int | None: ...


class _Seated(Protocol):
    """A stored game (:class:`GameRow`) or the service's (:class:`bot.service.models.Game`)."""

    @property
    def guild_id(self) -> int | None: ...
    @property
    def channel_id(self) -> int: ...
    @property
    def seats(self) -> Iterable[_Seat]: ...


def may_see(
    viewer: Viewer, *, guild_id: int | None, channel_id: int, people: Iterable[int | None]
) -> bool:
    """The rule: whether ``viewer`` may see what was played (or asked) in ``channel_id`` of
    ``guild_id`` (None: outside any server) by ``people``."""
    if guild_id is not None:
        return viewer.guild_id == guild_id
    if viewer.guild_id is not None:
        return False
    # Only the members of a DM or group DM can click or type in it: its channel says so.
    return viewer.channel_id == channel_id or viewer.user_id in set(people)


def sees_game(viewer: Viewer, game: _Seated) -> bool:
    return may_see(
        viewer,
        guild_id=game.guild_id,
        channel_id=game.channel_id,
        people=(seat.user_id for seat in game.seats),
    )


def shown_id(typed: str) -> str:
    """``typed`` made safe to quote inside backticks in a reply (and kept short)."""
    cleaned = " ".join(typed.replace("`", "").split())
    if len(cleaned) > SHOWN_ID_LENGTH:
        return cleaned[: SHOWN_ID_LENGTH - 1] + "…"
    return cleaned


async def find_game(db: store.Database, typed: str, viewer: Viewer) -> store.GameRow:
    """The game ``typed`` names, as ``viewer`` may see it; raises :class:`GameNotFound` with
    :data:`NO_SUCH_GAME` otherwise (the same for an id that names nothing)."""
    row = await store.load_game(db, typed.strip().lower())
    if row is None or not sees_game(viewer, row):
        raise GameNotFound(NO_SUCH_GAME, game=shown_id(typed))
    return row


async def action_log(db: store.Database, game_id: str) -> list[ActionRow]:
    """Every action of the game, in order: what ``/export`` writes and ``/verify`` checks."""
    return await store.load_actions(db, game_id)
