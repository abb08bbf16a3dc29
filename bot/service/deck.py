"""The training deck (``/train``): each person's own costly moves, brought back until they
stick.

**Cards.** Every review stored through :class:`bot.service.review.ReviewService` (the Review
button, ``/review``, the background reviewer, a game imported for review) tells
:meth:`DeckService.harvest`; it asks the game's puzzle source for the review's costly moves
(``PuzzleSource.mistakes``: what the game's ``judge`` does not call solved, by the review's
own thresholds) and adds each to the deck of the person seated there (not an AI), keyed by
(person, game, the move's place in the log): a game reviewed twice adds nothing.

**The schedule** (Leitner boxes with doubling intervals). A card's ``box`` counts its right
answers in a row. A new card is due at once. A right answer on day ``d`` (UTC) moves it up a
box and makes it due from the start of day ``d +`` :func:`interval_days` of its new box: 1,
2, 4, 8, 16, 32, 64 days later, then every :data:`MAX_INTERVAL_DAYS` (whatever the hour it
was answered at). A miss puts it back in box 0, due at once (behind the cards
already due), and the next right answer starts again at 1 day. A card is shown at most once
a (UTC) day unless it was missed; only the first answer after it is shown moves the schedule
(later clicks on the same card are judged, not counted). ``/train`` shows the card due
longest first; with none due it says when the next one is.

**Fair play**: a card whose position stands on the board of a live rated game is held back
(its game is finished, but the position may stand again elsewhere), as review cards are.
"""

from __future__ import annotations

import datetime
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from bot import games
from bot import storage as core
from bot.clock import SYSTEM_CLOCK
from bot.games import AnyGame
from bot.games.puzzles import Puzzle, Verdict
from bot.games.review import Record
from bot.storage import deck as store
from bot.storage.database import Database
from bot.vocabulary.errors import TabulaError

__all__ = [
    "DAY",
    "MAX_INTERVAL_DAYS",
    "Card",
    "DeckAnswer",
    "DeckService",
    "NothingDue",
    "Shown",
    "card_ref",
    "day_of",
    "interval_days",
    "read_ref",
    "start_of_day",
]

log = logging.getLogger(__name__)

DAY: Final = 86_400.0
MAX_INTERVAL_DAYS: Final = 64
REMINDER: Final = "train_reminder"  # the /prefs setting (bot.service.preferences)


def interval_days(box: int) -> int:
    """Days until a card in ``box`` (right answers in a row, >= 1) is due again."""
    return int(min(2 ** (box - 1), MAX_INTERVAL_DAYS))


def day_of(now: float) -> str:
    """The UTC day of ``now``, as the deck counts days (ISO date)."""
    return datetime.datetime.fromtimestamp(now, datetime.UTC).date().isoformat()


def start_of_day(now: float) -> float:
    """Midnight (UTC) that began the day of ``now``."""
    return now - now % DAY


def card_ref(game_id: str, index: int) -> str:
    """How a card is named in its buttons: ``<game id>.<action index>``."""
    return f"{game_id}.{index}"


def read_ref(ref: str) -> tuple[str, int]:
    game_id, _, index = ref.rpartition(".")
    if not game_id or not index.isascii() or not index.isdigit():
        raise TabulaError("train.gone")
    return game_id, int(index)


@dataclass(frozen=True, slots=True)
class Card:
    """A card of a person's deck: the position (``puzzle``) and the candidate played then."""

    user_id: int
    game_id: str
    index: int
    puzzle: Puzzle
    played: int
    box: int
    due_at: float

    @property
    def ref(self) -> str:
        return card_ref(self.game_id, self.index)


@dataclass(frozen=True, slots=True)
class Shown:
    """The card ``/train`` shows, and how many may be shown now with it (itself included;
    cards held back by fair play are not counted)."""

    card: Card
    due: int


@dataclass(frozen=True, slots=True)
class NothingDue:
    """Nothing to show: when the next card is due (None: an empty deck), how many cards the
    deck holds, and how many due ones are held back (their position is on a live rated
    board)."""

    next_at: float | None
    cards: int
    held: int


@dataclass(frozen=True, slots=True)
class DeckAnswer:
    """An answer judged. ``counted``: it moved the schedule (the first answer since the card
    was shown); ``due_at`` when the card comes back; ``due`` how many may be shown now (of the
    game asked for, or of the whole deck; cards held back are not counted)."""

    card: Card
    choice: int
    verdict: Verdict
    counted: bool
    due_at: float
    streak: int
    best_streak: int
    due: int


def _card(row: store.CardRow) -> Card:
    data = json.loads(row.card_json)
    return Card(
        row.user_id,
        row.game_id,
        row.index,
        Puzzle.from_json(data["puzzle"]),
        row.played,
        row.box,
        row.due_at,
    )


def deck_games() -> list[AnyGame]:
    """The games whose reviews make cards."""
    return [g for g in games.all() if g.puzzles is not None and g.review is not None]


class DeckService:
    def __init__(self, db: Database, *, clock: Callable[[], float] = SYSTEM_CLOCK.now) -> None:
        self.db = db
        self.clock = clock

    # -------------------------------------------------------------------------- cards

    async def harvest(self, guild_id: int | None, kind: str, review: Any, record: Record) -> int:
        """Add the review's costly moves to the decks of the people seated (an ``on_review``
        follower of :class:`bot.service.review.ReviewService`); how many cards were new."""
        source = games.get(kind).puzzles
        if source is None:
            return 0
        row = await core.load_game(self.db, record.game_id)
        if row is None:
            return 0
        people = {s.seat: s.user_id for s in row.seats if not s.is_ai and s.user_id is not None}
        cards = [
            store.NewCard(
                user_id=people[found.seat],
                game_id=record.game_id,
                index=found.index,
                game=kind,
                seat=found.seat,
                card_json=json.dumps({"puzzle": found.puzzle.to_json()}),
                played=found.played,
            )
            for found in source.mistakes(review, record)
            if found.seat in people
        ]
        return await store.add_cards(self.db, cards, self.clock())

    def _kinds(self, kind: str | None) -> tuple[str, ...]:
        if kind is None:
            return ()
        if games.get(kind) not in deck_games():
            raise TabulaError(
                "train.not_offered",
                games=games.titles(lambda g: g.puzzles is not None and g.review is not None),
            )
        return (kind,)

    async def _free(self, rows: list[store.CardRow]) -> tuple[list[store.CardRow], int]:
        """Of due ``rows`` (in order), those that may be shown now, and how many are held back:
        their position stands on the board of a live rated game (the index of live rated
        positions, as ``/analyze`` and the review cards ask it; one read per game)."""
        keys: dict[tuple[str, int], tuple[str, str]] = {}
        for row in rows:
            puzzle = _card(row).puzzle
            spec = games.get(puzzle.game)
            if spec.positions is not None:
                key = spec.positions.key(spec.rules.load_state(puzzle.state))
                keys[row.game_id, row.index] = (puzzle.game, key)
        live: set[tuple[str, str]] = set()
        for kind in sorted({kind for kind, _ in keys.values()}):
            asked = [key for k, key in keys.values() if k == kind]
            live.update(
                (kind, key)
                for key in await core.live_positions_standing(
                    self.db, games.sharing_positions(kind), asked
                )
            )
        free = [row for row in rows if keys.get((row.game_id, row.index)) not in live]
        return free, len(rows) - len(free)

    async def _due(self, user_id: int, kinds: tuple[str, ...]) -> tuple[list[store.CardRow], int]:
        """The person's due cards (of ``kinds``; none: all) that may be shown now, the longest
        due first, and how many due ones are held back."""
        now = self.clock()
        return await self._free(await store.next_due(self.db, user_id, now, day_of(now), kinds))

    async def next_card(self, user_id: int, kind: str | None = None) -> Shown | NothingDue:
        """The card to show now (due longest), marked shown today, with how many may be shown
        now (itself included; held-back cards are not counted); or when one will be."""
        kinds = self._kinds(kind)
        now = self.clock()
        today = day_of(now)
        free, held = await self._due(user_id, kinds)
        if free:
            first = free[0]
            await store.mark_shown(self.db, user_id, first.game_id, first.index, today)
            return Shown(_card(first), len(free))
        soonest, shown_today, cards = await store.next_free(self.db, user_id, today, kinds)
        if held:
            return NothingDue(None, cards, held)
        tomorrow = self._tomorrow(now)
        choices = [t for t in (soonest, tomorrow if shown_today else None) if t is not None]
        return NothingDue(max(now, min(choices)) if choices else None, cards, 0)

    @staticmethod
    def _tomorrow(now: float) -> float:
        day = datetime.datetime.fromtimestamp(now, datetime.UTC).date()
        midnight = datetime.datetime.combine(
            day + datetime.timedelta(days=1), datetime.time(), datetime.UTC
        )
        return midnight.timestamp()

    async def answer(
        self, user_id: int, ref: str, choice: int, kind: str | None = None
    ) -> DeckAnswer:
        """Judge ``choice`` on the person's card ``ref`` and move its schedule (when it is the
        first answer since the card was shown); ``due`` counts the cards of ``kind`` (None:
        all) that may be shown now."""
        kinds = self._kinds(kind)
        game_id, index = read_ref(ref)
        row = await store.card(self.db, user_id, game_id, index)
        if row is None:
            raise TabulaError("train.gone")
        found = _card(row)
        if not 0 <= choice < len(found.puzzle.candidates):
            raise TabulaError("train.gone")
        source = games.get(found.puzzle.game).puzzles
        if source is None:
            raise TabulaError("train.gone")
        verdict = source.judge(found.puzzle.loss(choice))
        now = self.clock()
        box = row.box + 1 if verdict.solved else 0
        due_at = start_of_day(now) + interval_days(box) * DAY if verdict.solved else now
        recorded = await store.record_answer(
            self.db, user_id, game_id, index, right=verdict.solved, due_at=due_at, box=box
        )
        if recorded is None:
            raise TabulaError("train.gone")
        free, _ = await self._due(user_id, kinds)
        return DeckAnswer(
            card=_card(recorded.card),
            choice=choice,
            verdict=verdict,
            counted=recorded.counted,
            due_at=recorded.card.due_at,
            streak=recorded.streak,
            best_streak=recorded.best,
            due=len(free),
        )

    async def reset(self, user_id: int, kind: str) -> int:
        """Empty the person's deck of ``kind``; how many cards it held."""
        (chosen,) = self._kinds(kind)
        return await store.reset(self.db, user_id, chosen)

    async def streak(self, user_id: int) -> tuple[int, int]:
        return await store.streak_of(self.db, user_id)

    async def due_count(self, user_id: int) -> int:
        """How many of the person's cards may be shown now (due, and not held back)."""
        free, _ = await self._due(user_id, ())
        return len(free)

    # -------------------------------------------------------------------------- reminders

    async def reminders_due(self) -> list[int]:
        """Who asked for the daily reminder, has a card due, was not reminded today and
        whose DMs were not found closed."""
        chosen = await core.preferences_named(self.db, REMINDER)
        asked = sorted(user for user, value in chosen.items() if value == "on")
        now = self.clock()
        return await store.reminder_candidates(self.db, asked, now, day_of(now))

    async def claim_reminder(self, user_id: int) -> bool:
        """True for exactly one caller a day per person (in any process)."""
        return await store.claim_reminder(self.db, user_id, day_of(self.clock()))

    async def dm_closed(self, user_id: int) -> None:
        """The person's DMs are closed to the bot (Discord error 50007): no more reminders
        until they ask for them again."""
        await store.dm_closed(self.db, user_id, self.clock())

    async def reminders_asked(self, user_id: int, on: bool) -> None:
        """``/prefs`` set the reminder: turned on, a closed DM noted before is forgotten (the
        person may have opened them since)."""
        if on:
            await store.reopen_reminders(self.db, user_id)

    async def reminders_stopped(self, user_id: int) -> bool:
        """Whether a closed DM stopped the person's reminders."""
        return await store.closed_at(self.db, user_id) is not None
