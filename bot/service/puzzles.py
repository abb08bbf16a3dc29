"""Puzzles: what a person gets from ``/puzzle``, how an answer is judged and counted, the
server leaderboard, and the daily puzzle's exactly-once claim.

A game's puzzles are its built-in set (``GameSpec.puzzles``, shipped in the package) and the
ones its reviewed games on this server added (:meth:`PuzzleService.harvest`, called when a
review is made). A person gets a puzzle they have not answered yet, at random; the first
answer to a puzzle counts (for the streak and the leaderboard), later ones are judged but not
counted again. Answers are judged by the game's ``judge`` (the same thresholds its review
uses for a move).

The daily puzzle: each server that set a channel gets one a day at its hour (UTC). The post
is claimed first by a row keyed by (server, day) in the database (one insert wins, in any
process, before or after a restart), posted, then marked posted; a claim whose process died
before posting is taken over after :data:`CLAIM_LEASE` seconds.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from bot import games
from bot.clock import SYSTEM_CLOCK
from bot.games import AnyGame
from bot.games.puzzles import Puzzle, Verdict, load_set
from bot.games.review import Record
from bot.storage import puzzles as store
from bot.storage.database import Database
from bot.storage.guild_settings import DailyPuzzle as DailyPuzzle  # what /settings stores
from bot.vocabulary.bounds import PUZZLE_HOUR
from bot.vocabulary.errors import TabulaError

__all__ = ["CLAIM_LEASE", "Answer", "PuzzleService"]

log = logging.getLogger(__name__)

CLAIM_LEASE: Final = 120.0  # seconds before an unposted daily claim may be taken over
DEFAULT_HOUR: Final = 12


@dataclass(frozen=True, slots=True)
class Answer:
    puzzle: Puzzle
    choice: int
    verdict: Verdict
    counted: bool  # the person's first answer to this puzzle
    streak: int
    best_streak: int


@functools.cache
def builtin(kind: str) -> tuple[Puzzle, ...]:
    return tuple(load_set(kind))


@functools.cache
def _builtin_by_key() -> dict[str, Puzzle]:
    return {p.key: p for game in games.all() if game.puzzles for p in builtin(game.kind)}


def puzzle_games() -> list[AnyGame]:
    return [game for game in games.all() if game.puzzles is not None]


def day_of(now: float) -> tuple[str, int]:
    """(UTC date, UTC hour) of ``now``."""
    moment = datetime.datetime.fromtimestamp(now, datetime.UTC)
    return moment.date().isoformat(), moment.hour


class PuzzleService:
    def __init__(
        self,
        db: Database,
        *,
        clock: Callable[[], float] = SYSTEM_CLOCK.now,
        rng: random.Random | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.rng = rng or random.Random()

    # -------------------------------------------------------------------------- puzzles

    def _spec(self, kind: str) -> AnyGame:
        spec = games.get(kind)
        if spec.puzzles is None:
            raise TabulaError(
                "puzzle.not_offered", games=games.titles(lambda g: g.puzzles is not None)
            )
        return spec

    async def pool(self, kind: str, guild_id: int | None) -> list[Puzzle]:
        """Every puzzle of ``kind`` a person may get here."""
        self._spec(kind)
        found = list(builtin(kind))
        if guild_id is not None:
            for _, text in await store.server_puzzles(self.db, guild_id, kind):
                found.append(Puzzle.from_json(json.loads(text)))
        return found

    async def next_puzzle(self, user_id: int, guild_id: int | None, kind: str) -> Puzzle:
        """A puzzle the person has not answered (any, once they have answered them all)."""
        found = await self.pool(kind, guild_id)
        if not found:
            raise TabulaError("puzzle.none", game=games.get(kind).title)
        seen = await store.answered_keys(self.db, user_id, kind)
        fresh = [p for p in found if p.key not in seen]
        return self.rng.choice(fresh or found)

    async def find(self, key: str) -> Puzzle:
        found = _builtin_by_key().get(key)
        if found is not None:
            return found
        text = await store.load_puzzle(self.db, key)
        if text is None:
            raise TabulaError("puzzle.gone")
        return Puzzle.from_json(json.loads(text))

    async def answer(self, user_id: int, guild_id: int | None, key: str, choice: int) -> Answer:
        puzzle = await self.find(key)
        if not 0 <= choice < len(puzzle.candidates):
            raise TabulaError("puzzle.gone")
        source = self._spec(puzzle.game).puzzles
        assert source is not None
        verdict = source.judge(puzzle.loss(choice))
        answered = await store.record_answer(
            self.db,
            user_id=user_id,
            puzzle_id=key,
            guild_id=guild_id,
            game=puzzle.game,
            choice=choice,
            solved=verdict.solved,
            now=self.clock(),
        )
        return Answer(puzzle, choice, verdict, answered.first, answered.streak, answered.best)

    async def harvest(self, guild_id: int | None, kind: str, review: Any, record: Record) -> int:
        """Keep the puzzles a server game's review holds (its costly mistakes)."""
        source = games.get(kind).puzzles
        if guild_id is None or source is None:
            return 0
        found = source.from_review(review, record)
        rows = [(p.key, p.game, json.dumps(p.to_json())) for p in found]
        return await store.add_server_puzzles(self.db, guild_id, rows, self.clock()) if rows else 0

    async def streak(self, user_id: int) -> tuple[int, int]:
        return await store.streak_of(self.db, user_id)

    async def leaderboard(self, guild_id: int) -> list[store.PuzzleStanding]:
        return await store.leaderboard(self.db, guild_id)

    # -------------------------------------------------------------------------- daily

    async def plan_daily(
        self, guild_id: int, channel_id: int | None, hour: int | None, on: bool | None
    ) -> DailyPuzzle | None:
        """What /settings' daily-puzzle options ask for, checked and not yet stored (the
        command stores it with its other settings, in one transaction); None: nothing asked.
        ``on`` False stops it; a channel or an hour without a channel known refuses."""
        if channel_id is None and hour is None and on is None:
            return None
        if hour is not None:
            PUZZLE_HOUR.check(hour)
        current = await store.get_daily(self.db, guild_id)
        channel = channel_id or (current.channel_id if current else None)
        if on is False:
            channel = None
        elif channel is None:
            raise TabulaError("puzzle.channel_needed")
        chosen = hour if hour is not None else current.hour if current else DEFAULT_HOUR
        return DailyPuzzle(channel, chosen)

    async def set_daily(self, guild_id: int, channel_id: int | None, hour: int | None) -> int:
        """Set (or with ``channel_id`` None, stop) the server's daily puzzle; its hour."""
        current = await store.get_daily(self.db, guild_id)
        chosen = hour if hour is not None else current.hour if current else DEFAULT_HOUR
        if not 0 <= chosen <= 23:
            raise TabulaError("puzzle.bad_hour")
        await store.set_daily(self.db, guild_id, channel_id, chosen)
        return chosen

    async def daily_setting(self, guild_id: int) -> store.DailySetting | None:
        return await store.get_daily(self.db, guild_id)

    def daily_pick(self, guild_id: int, day: str) -> Puzzle:
        """The day's puzzle for a server: the games in turn, a puzzle of the built-in set
        chosen by the day and the server (the same in every process)."""
        kinds = [g.kind for g in puzzle_games() if builtin(g.kind)]
        if not kinds:
            raise TabulaError("puzzle.none", game="")
        digest = int(hashlib.sha256(f"{guild_id}:{day}".encode()).hexdigest(), 16)
        ordinal = datetime.date.fromisoformat(day).toordinal()
        pool = builtin(kinds[ordinal % len(kinds)])
        return pool[digest % len(pool)]

    async def due(self, now: float) -> tuple[str, list[store.DailySetting]]:
        day, hour = day_of(now)
        return day, await store.due_dailies(self.db, day, hour)

    async def claim(self, setting: store.DailySetting, day: str, puzzle: Puzzle) -> bool:
        return await store.claim_daily(
            self.db,
            guild_id=setting.guild_id,
            day=day,
            puzzle_id=puzzle.key,
            channel_id=setting.channel_id,
            now=self.clock(),
            lease=CLAIM_LEASE,
        )

    async def posted(self, guild_id: int, day: str, message_id: int) -> None:
        await store.daily_posted(self.db, guild_id, day, message_id)
