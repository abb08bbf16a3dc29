"""The skill record with the real expert engine: AI levels play each other through the game
service, each game is reviewed by the skill service's queue (bgsage at the review depth, in
its worker process) and the stored PR orders the levels; for equal players the luck-adjusted
result averages 0 within its interval.

The fast versions are sized for CI (a 2-ply review costs 3-8 s a game on the 2-core box): the
two levels furthest apart, three games; three games between equal (easy) players, whose
quick games review fastest (about 35 s of CPU for the module). The ``strength`` ones (run
only when ``-m`` names strength: each is 20 minutes or more of CPU) play the full round robin
of easy, medium and hard (``TABULA_SKILL_GAMES`` games per pair, default 100) and as many
games between equal players (default 200), and print the intervals they found (``-s`` shows them).
"""

from __future__ import annotations

import hashlib
import itertools
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot import storage
from bot.ai import bgsage_engine
from bot.ai.pool import ExpertPool
from bot.service import fair_dice
from bot.service import games as games_module
from bot.service.games import GameService
from bot.service.models import SeatInfo
from bot.service.review import ReviewService
from bot.service.skill import Interval, SkillService, pr_interval
from bot.storage import skill as records
from bot.storage.skill import SkillRow

pytestmark = pytest.mark.skipif(not bgsage_engine.available(), reason="bgsage is not installed")


@pytest.fixture
def seeded_dice(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    counter = itertools.count()

    def seed() -> str:
        return hashlib.sha256(f"skill-{next(counter)}".encode()).hexdigest()

    monkeypatch.setattr(fair_dice, "new_seed", seed)
    # The AI's choices are seeded by the game's id: fixed ids make every run the same games.
    ids = itertools.count()
    monkeypatch.setattr(
        games_module, "secrets", SimpleNamespace(token_hex=lambda n: f"{next(ids):08x}")
    )
    yield


@pytest.fixture
async def setting(
    tmp_path: Path, seeded_dice: None
) -> AsyncIterator[tuple[GameService, SkillService]]:
    db = await storage.Database.open(tmp_path / "skill.db")
    pool = ExpertPool(workers=1)
    pool.start()
    try:
        yield GameService(db), SkillService(db, ReviewService(db, pool), worker="test")
    finally:
        await pool.aclose()
        await db.close()


async def play(
    games: GameService, skill: SkillService, white: str, black: str, channel: int
) -> list[SkillRow]:
    """One single game between two AI levels, played and then reviewed through the queue."""
    game = await games.start(
        game="backgammon",
        guild_id=1,
        channel_id=channel,
        parent_channel_id=None,
        seats=(SeatInfo(0, None, white, white), SeatInfo(1, None, black, black)),
        options={"match_length": 1},
        rated=False,  # AI seats are never rated: queued here by hand
    )
    while not game.finished:
        step = await games.ai_step(game.id)
        assert step is not None
        game = step.after
    await records.queue_review(games.db, game.id, 0.0)
    assert await skill.review_next() == game.id
    found = await records.game_skill_rows(games.db, game.id)
    assert len(found) == 2, await records.queue_counts(games.db)
    return found


async def round_robin(
    games: GameService, skill: SkillService, levels: tuple[str, ...], per_pair: int
) -> dict[str, Interval]:
    rows: dict[str, list[SkillRow]] = {level: [] for level in levels}
    channel = 100
    for a, b in itertools.combinations(levels, 2):
        for n in range(per_pair):
            white, black = (a, b) if n % 2 == 0 else (b, a)  # each level plays both colours
            channel += 1
            white_row, black_row = await play(games, skill, white, black, channel)
            rows[white].append(white_row)
            rows[black].append(black_row)
    found = {}
    for level, mine in rows.items():
        interval = pr_interval([(r.decisions, r.loss) for r in mine])
        assert interval is not None
        found[level] = interval
    return found


def assert_ordered(found: dict[str, Interval], weakest_first: tuple[str, ...]) -> None:
    for weaker, stronger in itertools.pairwise(weakest_first):
        assert found[weaker].low > found[stronger].high, found  # disjoint, in order


async def equal_players(
    games: GameService, skill: SkillService, level: str, n: int
) -> tuple[float, ...]:
    adjusted = []
    for i in range(n):
        white, _ = await play(games, skill, level, level, 1000 + i)
        assert white.adjusted is not None
        adjusted.append(white.adjusted)
    return tuple(adjusted)


def mean_interval(values: tuple[float, ...]) -> Interval:
    n = len(values)
    mean = sum(values) / n
    sd = (sum((x - mean) ** 2 for x in values) / (n - 1)) ** 0.5
    half = 1.96 * sd / n**0.5
    return Interval(mean, mean - half, mean + half)


async def test_pr_orders_the_levels_apart(setting: tuple[GameService, SkillService]) -> None:
    games, skill = setting
    found = await round_robin(games, skill, ("easy", "hard"), per_pair=3)
    assert_ordered(found, ("easy", "hard"))


async def test_equal_players_luck_adjusted_result_averages_zero(
    setting: tuple[GameService, SkillService],
) -> None:
    games, skill = setting
    found = mean_interval(await equal_players(games, skill, "easy", 3))
    assert found.low <= 0.0 <= found.high, found


@pytest.mark.strength
async def test_pr_orders_every_level(setting: tuple[GameService, SkillService]) -> None:
    games, skill = setting
    per_pair = int(os.environ.get("TABULA_SKILL_GAMES", "100"))
    found = await round_robin(games, skill, ("easy", "medium", "hard"), per_pair)
    for level, interval in found.items():
        print(f"{level}: PR {interval.value:.2f} [{interval.low:.2f}, {interval.high:.2f}]")
    assert_ordered(found, ("easy", "medium", "hard"))


@pytest.mark.strength
async def test_equal_players_over_many_games(setting: tuple[GameService, SkillService]) -> None:
    games, skill = setting
    adjusted = await equal_players(
        games, skill, "hard", int(os.environ.get("TABULA_SKILL_GAMES", "200"))
    )
    found = mean_interval(adjusted)
    print(f"luck-adjusted result: {found.value:+.3f} [{found.low:+.3f}, {found.high:+.3f}]")
    assert found.low <= 0.0 <= found.high, found
