"""Plain data the game service hands to the UI layer: games, seats, choices, results."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot import games
from bot.engines.common import GameState, Phase
from bot.games import AnyGame, AnyRules
from bot.games.menu import ButtonStyle as ButtonStyle
from bot.games.menu import Choice as Choice
from bot.games.menu import Draft as Draft
from bot.service.time_control import MatchClock


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    user_id: int | None  # None: an AI seat
    name: str
    ai_level: str | None = None
    resigned: bool = False
    stand_in: str | None = None  # an AI level playing for a person who went idle (Ludo)

    @property
    def is_ai(self) -> bool:
        """Whether the AI makes this seat's moves (its own seat, or standing in)."""
        return self.user_id is None or self.stand_in is not None

    @property
    def level(self) -> str:
        return self.stand_in or self.ai_level or "medium"


@dataclass(frozen=True, slots=True)
class MoveCount:
    """Where a game stands in moves, for the board's footer: which game of a match
    (``part``, from 1) and how many turns of it have begun (``turns``), a turn being a run
    of rolls by one seat (an Ur rosette's or a Ludo six's extra roll is the same turn; a
    roll the table makes, backgammon's opening, is ``seat`` -1). Counted as the game is
    played and stored with it: the rolls drawn across a whole match are no move number."""

    part: int = 1
    turns: int = 0
    seat: int | None = None  # whose roll began the turn under way

    def rolled(self, seat: int | None) -> MoveCount:
        """After a roll by ``seat`` (``None``: by the table)."""
        roller = -1 if seat is None else seat
        if roller == self.seat:
            return self
        return MoveCount(self.part, self.turns + 1, roller)

    def next_part(self) -> MoveCount:
        """The next game of the match begins: its moves are counted from its first."""
        return MoveCount(self.part + 1)

    @property
    def move(self) -> int:
        return max(1, self.turns)

    def to_json(self) -> dict[str, int | None]:
        return {"part": self.part, "turns": self.turns, "seat": self.seat}

    @classmethod
    def from_json(cls, data: dict[str, Any] | None, rolls: int) -> MoveCount:
        """``data`` as :meth:`to_json` wrote it; a game stored before moves were counted
        goes on from its rolls (the old count)."""
        if not data:
            return cls(1, rolls, None)
        seat = data.get("seat")
        return cls(int(data["part"]), int(data["turns"]), None if seat is None else int(seat))


@dataclass(frozen=True, slots=True)
class Game:
    """A game as the service sees it: identity, seats, engine state, version and draft."""

    id: str
    kind: str  # the game's name in the registry (bot.games), stored as ``games.game``
    guild_id: int | None
    channel_id: int
    message_id: int | None
    options: dict[str, Any]
    state: GameState
    version: int
    rolls: int  # rolls drawn so far; the next roll reads stream number rolls + 1
    seats: tuple[SeatInfo, ...]
    draft: Draft = field(default_factory=Draft)
    status: str = "active"
    seed_hash: str = ""
    seed: str = field(default="", repr=False)  # secret until the game ends: keep out of logs
    rated: bool = True
    turn_deadline: float | None = None
    message_seq: int = 0  # actions applied when the current board message was posted
    timer: MatchClock | None = None  # a match clock (time controls); None: correspondence
    logged: int = 0  # actions in the log, the number of the last one (message_seq counts so)
    moves: MoveCount = field(default_factory=MoveCount)  # the footer's game and move number
    imported: bool = False  # played elsewhere, brought in for a review (/review import)

    @property
    def spec(self) -> AnyGame:
        return games.get(self.kind)

    @property
    def rules(self) -> AnyRules:
        return self.spec.rules

    @property
    def finished(self) -> bool:
        return self.status != "active" or self.state.phase == Phase.FINISHED

    @property
    def seat_on_turn(self) -> SeatInfo:
        return self.seats[int(self.state.turn)]

    def seat_of(self, user_id: int) -> SeatInfo | None:
        """The first live seat of ``user_id`` (a person may hold several Ludo seats)."""
        for seat in self.seats:
            if seat.user_id == user_id and not seat.resigned:
                return seat
        return None

    def humans(self) -> tuple[SeatInfo, ...]:
        return tuple(s for s in self.seats if not s.is_ai)

    def choices(self) -> list[Choice]:
        """The buttons for the seat on turn (none when the game is over), as the game's menu
        offers them; labels are catalogue keys or language-free text."""
        if self.finished:
            return []
        return self.spec.menu.choices(self.state, self.draft)

    def ai_levels(self) -> tuple[str | None, ...]:
        """Each seat's AI level as the board shows it, ``None`` for a person playing it."""
        return tuple(s.level if s.is_ai else None for s in self.seats)


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened, for the message text: who did what.

    ``notation`` is the engine's text as logged (for exports, never shown to players);
    ``before`` (the engine state the action was applied to), ``action`` and ``after`` (the
    state it led to) let the UI say in words what happened without applying it again.
    ``kind`` is the logged kind (roll, move, cube, resign, abandon, timeout), or ``stand_in``
    when the AI took over an idle seat (nothing is logged then; ``after`` is ``before``).
    """

    seat: int
    notation: str
    automatic: bool = False  # played for the player (forced) or an AI move
    kind: str = "move"
    before: Any = None
    action: Any = None
    after: Any = None


@dataclass(frozen=True, slots=True)
class Question:
    """Tutor mode's "Are you sure?" (``bot.service.tutor``): the move ``move`` (notation) was
    not stored; it would give up ``cost`` (the game's ``unit``: equity or winning chance)
    against ``best``. Answered with the buttons of warning ``warning`` at ``version``."""

    game_id: str
    version: int
    warning: int
    user_id: int
    move: str
    best: str
    cost: float
    unit: str


@dataclass(frozen=True, slots=True)
class ActionResult:
    before: Game
    after: Game
    events: tuple[Event, ...]
    question: Question | None = None  # tutor mode asked instead of storing the move

    @property
    def newly_on_turn(self) -> int | None:
        """The person on turn after this change who was not on turn before it (they get a
        new board that pings them, and the turn listeners hear of it); None when the game is
        over, an AI seat is on turn, or the same person plays on."""
        if self.after.finished:
            return None
        now = self.after.seat_on_turn.user_id
        return None if now in (None, self.before.seat_on_turn.user_id) else now

    @property
    def turn_changed(self) -> bool:
        return bool(
            self.after.state.turn != self.before.state.turn
            or self.after.state.phase == Phase.FINISHED
        )
