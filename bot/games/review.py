"""A game's post-game review, as the rest of the bot sees it: one :class:`ReviewSpec` in the
manifest, one shared path for every game.

The path (:class:`bot.service.review.ReviewService`) finds the finished game, refuses what
cannot be reviewed, reads back a stored review that is still current, and otherwise asks the
game's ``analyse`` hook for one and stores it; the Discord side is the function ``present``
names. So a game brings only its analysis and how it is shown:

- a review of its own (backgammon's, from the expert engine's equities: PR, luck, errors);
- or a *chance review* (Ur's from the solved table, Ludo's from the hard AI's search): each
  judged move's winning chance against the best move's, labelled and scored the same way for
  every game (:mod:`bot.vocabulary.review_labels`), kept here as :class:`ChanceReview` and shown
  by the shared page ``bot.ui.review:show_chances`` in the game's :class:`ChanceLook`.
"""

from __future__ import annotations

import asyncio
import importlib
import json
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields, is_dataclass
from typing import (
    TYPE_CHECKING,
    Any,
    Final,
    Protocol,
    Self,
    TypeVar,
    cast,
    get_args,
    get_origin,
    get_type_hints,
)

from PIL import Image

from bot.ai.move_review import MoveAnalysis
from bot.ai.pool import ExpertPool
from bot.games.tutor import TutorSpec
from bot.vocabulary.errors import Msg, TabulaError
from bot.vocabulary.review_labels import GOOD_LOSS, LABELS, accuracy, label

__all__ = [
    "WORST",
    "Analyse",
    "ChanceLook",
    "ChanceMove",
    "ChancePlayer",
    "ChanceReview",
    "Record",
    "ReviewSpec",
    "ReviewUnavailable",
    "Reviewed",
    "SeatSkill",
    "Stored",
    "chance_review",
    "chance_skill",
    "from_data",
    "in_thread",
    "summarise_chances",
]

WORST: Final = 3  # the costliest moves a review shows per player

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

D = TypeVar("D", bound="DataclassInstance")


class ReviewUnavailable(TabulaError):
    """No review can be made: ``key`` is one of ``error.review_not_offered`` (the game has
    none; ``games`` says which have one), ``error.review_not_finished``,
    ``error.review_no_table``, ``error.review_unavailable`` (no expert engine here) or
    ``error.review_busy`` (the engine did not answer in time)."""

    key = "error.review_unavailable"


@dataclass(frozen=True, slots=True)
class Record:
    """A finished game as its analysis reads it."""

    game_id: str
    options: Mapping[str, Any]  # the engine's options (table options left out)
    notations: tuple[str, ...]  # the action log
    people: tuple[int, ...]  # the seats people held (a game may judge only those)


class Reviewed(Protocol):
    """What the shared path stores of any game's review."""

    @property
    def level(self) -> str: ...

    @property
    def actions(self) -> int: ...

    def to_json(self) -> str: ...


@dataclass(frozen=True, slots=True)
class SeatSkill:
    """What the skill record keeps of one judged seat of a review (``bot.service.skill``).

    ``loss`` is the sum of what the seat's counted decisions lost against the best (equity
    for a game whose review measures equity, ``ReviewSpec.pr``; else the mover's chance to
    win), ``loss_sq`` the sum of its squares, ``agreed`` the decisions that lost nothing (the
    judge's first choice). ``luck`` (equity, + = lucky) and ``luck_games`` (per game of a
    match) where the review measures luck; ``accuracy`` (percent) where it has one."""

    seat: int
    decisions: int
    loss: float
    loss_sq: float
    agreed: int
    luck: float | None = None
    luck_games: tuple[float, ...] = ()
    accuracy: float | None = None


Analyse = Callable[[Record, ExpertPool | None], Awaitable[Reviewed]]
"""``analyse(record, expert)``: the review of a finished game, made now. ``expert`` is the
expert engine's pool for the games that review with it (``needs_expert``); raises
:class:`ReviewUnavailable` when it cannot be made here."""


def any_level(level: str) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class ReviewSpec:
    """That a finished game of this kind can be reviewed, how, and how it is shown.

    ``present`` is where the review's Discord side lives, as ``"module:function"``: the UI
    layer sits above the manifests, so a manifest names its presenter rather than import it
    (as ``TABULA_EXTRA_GAMES`` names manifests). The function is called with the UI's
    services, the interaction, the finished game and the reader's locale. ``version`` is
    stored with each review: a stored review of another version, or one ``current`` refuses
    (made at another level: a table of another size), is made again.
    """

    present: str
    analyse: Analyse
    read: Callable[[str], Reviewed]  # a stored review back from its JSON
    version: int = 1
    current: Callable[[str], bool] = any_level  # whether a review made at ``level`` still is
    look: ChanceLook | None = None  # how ``show_chances`` shows a chance review
    needs_expert: bool = False  # offered only while the expert engine runs
    needs_table: bool = False  # offered only while the game's solved table is installed
    # What the skill record keeps of each judged seat (None: the game keeps no skill record).
    skill: Callable[[Any], tuple[SeatSkill, ...]] | None = None
    pr: bool = False  # losses are equity: the record shows PR and luck, not accuracy
    # Tutor mode: one move judged as this review judges it, and from what loss it is asked.
    tutor: TutorSpec | None = None

    def presenter(self) -> Callable[..., Awaitable[None]]:
        """The function ``present`` names (imported on first use)."""
        module, _, name = self.present.partition(":")
        found: Callable[..., Awaitable[None]] = getattr(importlib.import_module(module), name)
        return found


def in_thread(analyse: Callable[[Record], Reviewed]) -> Analyse:
    """An ``analyse`` hook that runs ``analyse`` in a worker thread (it takes a while and
    must not hold up the event loop), for games that need no expert engine."""

    async def hook(record: Record, expert: ExpertPool | None) -> Reviewed:
        return await asyncio.to_thread(analyse, record)

    return hook


def chance_review(
    analyse: Callable[[Record], ChanceReview],
    look: ChanceLook,
    *,
    version: int = 1,
    current: Callable[[str], bool] = any_level,
    needs_table: bool = False,
    tutor: TutorSpec | None = None,
) -> ReviewSpec:
    """The review of a game whose review is a chance review: made by ``analyse`` in a worker
    thread, shown by the shared chance page in the game's ``look``; ``tutor``: its tutor mode."""
    return ReviewSpec(
        "bot.ui.review:show_chances",
        in_thread(analyse),
        ChanceReview.from_json,
        version,
        current,
        look,
        needs_table=needs_table,
        skill=chance_skill,
        tutor=tutor,
    )


# ---------------------------------------------------------------------------------------------
# Stored reviews


class Stored:
    """A review dataclass stored as JSON: ``from_json(to_json())`` is the same review."""

    __slots__ = ()

    def to_json(self) -> str:
        data = asdict(cast("DataclassInstance", self))
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Self:
        made = from_data(cast("type[DataclassInstance]", cls), json.loads(text))
        return cast(Self, made)


def from_data(cls: type[D], data: Mapping[str, Any]) -> D:
    """The dataclass ``cls`` rebuilt from its :func:`dataclasses.asdict` after a JSON round
    trip (lists back to tuples, nested dataclasses by their fields' types); a field the data
    lacks (stored before the field was added) keeps its default."""
    hints = get_type_hints(cls)
    values = {f.name: _value(hints[f.name], data[f.name]) for f in fields(cls) if f.name in data}
    return cls(**values)


def _value(kind: Any, value: Any) -> Any:
    if isinstance(kind, type) and is_dataclass(kind):
        return from_data(kind, value)
    origin, args = get_origin(kind), get_args(kind)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return tuple(_value(args[0], item) for item in value)
    if origin is tuple:
        return tuple(_value(a, item) for a, item in zip(args, value, strict=True))
    if origin is dict:
        return {_value(args[0], k): _value(args[1], v) for k, v in value.items()}
    return kind(value) if kind in (int, float, str, bool) else value


# ---------------------------------------------------------------------------------------------
# Chance reviews


@dataclass(frozen=True, slots=True)
class ChanceMove:
    """One reviewed move; ``index`` is its place in the action log."""

    index: int
    seat: int
    dice: tuple[int, ...]
    played: str
    best: str
    played_chance: float
    best_chance: float
    loss: float
    label: str


@dataclass(frozen=True, slots=True)
class ChancePlayer:
    seat: int
    moves: int  # judged
    accuracy: float  # percent
    counts: dict[str, int]  # label -> moves with it, every label present
    worst: tuple[ChanceMove, ...]  # the costliest, worst first
    loss: float = 0.0  # winning chance lost over the judged moves
    loss_sq: float = 0.0  # the sum of its squares
    agreed: int = 0  # judged moves that were the best
    # every judged move that lost GOOD_LOSS or more (an inaccuracy or worse), in log order:
    # the training deck's cards (a review stored before it had this field has none)
    costly: tuple[ChanceMove, ...] = ()


@dataclass(frozen=True, slots=True)
class ChanceReview(Stored):
    game_id: str
    version: int
    level: str
    actions: int
    players: tuple[ChancePlayer, ...]  # the judged seats
    series: tuple[tuple[int, tuple[float, ...]], ...]  # (action index, each seat's chance)
    complete: bool = True  # False: only the end of the game was judged (a small Ur table)


def summarise_chances(
    analysis: MoveAnalysis,
    seats: Iterable[int],
    *,
    game_id: str = "",
    level: str,
    version: int = 1,
) -> ChanceReview:
    """Each of ``seats``' accuracy, label counts and costliest moves from ``analysis``."""
    players = []
    for seat in seats:
        mine = [
            ChanceMove(**asdict(m), loss=m.loss, label=label(m.loss))
            for m in analysis.moves
            if m.seat == seat
        ]
        worst = sorted((m for m in mine if m.loss > 0.0), key=lambda m: (-m.loss, m.index))
        players.append(
            ChancePlayer(
                seat=seat,
                moves=len(mine),
                accuracy=accuracy((m.played_chance, m.best_chance) for m in mine),
                counts={name: sum(1 for m in mine if m.label == name) for name in LABELS},
                worst=tuple(worst[:WORST]),
                loss=sum(m.loss for m in mine),
                loss_sq=sum(m.loss * m.loss for m in mine),
                agreed=sum(1 for m in mine if m.loss <= 0.0),
                costly=tuple(m for m in mine if m.loss >= GOOD_LOSS),
            )
        )
    return ChanceReview(
        game_id=game_id,
        version=version,
        level=level,
        actions=analysis.actions,
        players=tuple(players),
        series=analysis.series,
        complete=analysis.complete,
    )


def chance_skill(review: ChanceReview) -> tuple[SeatSkill, ...]:
    """The skill record's figures of each judged seat of a chance review."""
    return tuple(
        SeatSkill(
            seat=p.seat,
            decisions=p.moves,
            loss=p.loss,
            loss_sq=p.loss_sq,
            agreed=p.agreed,
            accuracy=p.accuracy,
        )
        for p in review.players
    )


Chart = Callable[[Sequence[tuple[int, Sequence[float]]], Sequence[str]], Image.Image]
"""``chart(series, names)``: the image of each seat's chance over the game."""


def no_note(review: ChanceReview) -> Msg | None:
    return None


@dataclass(frozen=True, slots=True)
class ChanceLook:
    """How the shared page shows a game's chance review: the catalogue keys of the lines that
    differ between games, its chart, a note on the review as a whole, the cards' size."""

    working: str  # while the review is made: "Judging every move…"
    move: str  # a costly move's heading, with ``{name}`` and ``{dice}``
    footer: str  # how the moves were judged
    chart: Chart
    note: Callable[[ChanceReview], Msg | None] = no_note  # e.g. that only the end was judged
    card_scale: float = 0.6
