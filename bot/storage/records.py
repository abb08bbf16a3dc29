"""Typed records for games, seats, actions and results: what goes in and what comes out.

Plain frozen data, no SQL. The storage layer does not interpret engine data: states, options
and drafts travel as JSON text, actions as their one-line notation.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Literal, TypeAlias


class GameStatus(enum.StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"  # played to an outcome (a resignation or a timeout counts)
    ABANDONED = "abandoned"  # stopped without an outcome


class ActionKind(enum.StrEnum):
    """The shared values of ``actions.kind``; the column takes any short string, and a game
    logs its own actions under kinds of its own (``GameSpec.logged_kind``)."""

    ROLL = "roll"
    MOVE = "move"
    RESIGN = "resign"
    ABANDON = "abandon"
    TIMEOUT = "timeout"


class _Keep(enum.Enum):
    KEEP = "keep"


KEEP = _Keep.KEEP
"""Marker for "leave this column as it is" where None would mean "clear it"."""

Keep: TypeAlias = Literal[_Keep.KEEP]


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat of a game. ``user_id`` None means the AI plays it at ``ai_level``."""

    seat: int
    user_id: int | None
    ai_level: str | None
    display_name: str
    resigned: bool = False
    stand_in: str | None = None  # AI level playing for an idle person (the seat stays theirs)

    @property
    def is_ai(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class GameRow:
    """A stored game with its seats (ordered by seat index).

    ``version`` is the optimistic-concurrency token a button carries: it grows by one per
    action, per draft change and when the game is finished. ``action_count`` is the number of
    actions applied, the ``seq`` of the last one.
    """

    id: str
    game: str
    guild_id: int | None
    channel_id: int
    parent_channel_id: int | None
    message_id: int | None
    options_json: str
    state_json: str
    version: int
    action_count: int
    status: GameStatus
    draft_json: str | None
    dice_seed_hash: str
    dice_seed: str = field(repr=False)  # secret while the game runs: keep it out of logs
    rated: bool = False
    created_at: float = 0.0
    updated_at: float = 0.0
    finished_at: float | None = None
    turn_deadline: float | None = None
    reminder_sent: bool = False
    shown_version: int | None = None  # the newest version a board message was drawn at
    message_seq: int = 0  # action_count when the current board message was posted
    seats: tuple[SeatRow, ...] = ()
    imported: bool = False  # played elsewhere and brought in for a review (/review import)

    @property
    def is_active(self) -> bool:
        return self.status == GameStatus.ACTIVE

    def seat_of(self, user_id: int) -> SeatRow | None:
        """The (first) seat the user plays, if any."""
        return next((s for s in self.seats if s.user_id == user_id), None)


@dataclass(frozen=True, slots=True)
class NewAction:
    """One action to log. ``seat``/``user_id`` None: the bot or an admin acted for nobody."""

    seat: int | None
    user_id: int | None
    kind: str
    notation: str


@dataclass(frozen=True, slots=True)
class ActionRow:
    game_id: str
    seq: int
    seat: int | None
    user_id: int | None
    kind: str
    notation: str
    created_at: float


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How one seat fared in a finished game (what the caller writes; see ResultRow)."""

    seat: int
    user_id: int | None
    place: int
    points: int
    outcome_kind: str
    reason: str


@dataclass(frozen=True, slots=True)
class ResultRow(SeatResult):
    """A stored :class:`SeatResult`, with its game."""

    game_id: str
    guild_id: int | None
    game: str
    finished_at: float
    rated: bool
