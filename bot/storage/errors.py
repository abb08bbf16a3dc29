"""Typed storage errors.

Messages are written for logs; the game service maps the classes to replies for players
(a :class:`Conflict` usually means "someone else was faster: the buttons you clicked are stale").
Every error raised out of :mod:`bot.storage` is a :class:`StorageError`, so a caller never has
to know about ``sqlite3`` or ``asyncpg``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar


class StorageError(Exception):
    """Base of every storage error. One that carries facts declares them as dataclass fields
    and ``message``, the format string its text is written from; the others take their text
    as their argument."""

    message: ClassVar[str] = ""

    def __str__(self) -> str:
        return self.message.format_map(vars(self)) if self.message else super().__str__()


class DatabaseOpenError(StorageError):
    """The database file could not be created, opened or migrated (permissions, a bad path)."""

    def __init__(self, path: str | Path, reason: str) -> None:
        super().__init__(f"cannot open database {str(path)!r}: {reason}")
        self.path = str(path)
        self.reason = reason


class DatabaseClosed(StorageError):
    """The database was used after :meth:`Database.close`."""

    message = "the database is closed"


class DatabaseBusy(StorageError):
    """Another connection held a lock for longer than the busy timeout, or (PostgreSQL) the
    transaction kept losing to concurrent ones; nothing was changed."""


class DatabaseUnavailable(DatabaseBusy):
    """The database could not be reached, or did not answer before the caller's deadline (a
    server restarting, a network gone silent); the transaction never reached COMMIT, so
    nothing was changed. Trying again later may work."""


class CommitUnknown(StorageError):
    """The connection was lost, or gave no answer, while COMMIT was under way: the
    transaction may or may not have been applied. Read the data again before acting on it,
    and never tell a person that nothing was changed."""


class SchemaError(StorageError):
    """The migration files are inconsistent, or the file was written by a newer schema."""


class ConstraintViolation(StorageError):
    """The database refused a write: the caller passed data that breaks a table constraint."""


@dataclass(eq=False)
class NotFound(StorageError):
    """No row with that key."""

    message = "{kind} {key!r} not found"
    kind: str
    key: object


@dataclass(eq=False)
class AlreadyExists(StorageError):
    """A row with that caller-chosen id exists already (a random id collided: draw another)."""

    message = "{kind} {key!r} already exists"
    kind: str
    key: object


@dataclass(eq=False)
class NotInvited(StorageError):
    """The user tried to accept a challenge that does not name them."""

    message = "user {user_id} is not invited to challenge {challenge_id}"
    challenge_id: int
    user_id: int


class Conflict(StorageError):
    """A write lost a race or was based on stale data; nothing was changed."""


@dataclass(eq=False)
class VersionConflict(Conflict):
    """The game moved on since the caller read it (a stale button, a lost race)."""

    message = "game {game_id!r}: expected version {expected}, found {actual}"
    game_id: str
    expected: int
    actual: int


@dataclass(eq=False)
class GameNotActive(Conflict):
    """The game is finished or abandoned; it takes no more actions."""

    message = "game {game_id!r} is {status}, not active"
    game_id: str
    status: str


@dataclass(eq=False)
class ChannelBusy(Conflict):
    """The channel already has an active game (at most one per channel)."""

    message = "channel {channel_id} already has the active game {game_id!r}"
    channel_id: int
    game_id: str


@dataclass(eq=False)
class ChallengeNotPending(Conflict):
    """The challenge was already accepted, declined, cancelled or it expired."""

    message = "challenge {challenge_id} is {status}, not pending"
    challenge_id: int
    status: str
