"""The skill record's stored queue and figures, on both backends, with a stand-in engine: a
finished rated game is queued off the click, claimed once across processes, picked up again
after a crash, and its records hold PR, agreement, luck and the luck-adjusted result."""

from __future__ import annotations

import asyncio

import pytest

from bot import storage
from bot.ai.backgammon_analysis import LuckEntry
from bot.service.games import GameService
from bot.service.review import ReviewService
from bot.service.skill import SkillService, pr_interval, summarise
from bot.storage import skill as records
from tests.service.playing import Clock
from tests.service.test_review import FakePool, analysis, decision, finished_game

LUCK = (
    LuckEntry(0, 0, (6, 5), 0.25, 1),
    LuckEntry(1, 1, (2, 1), -0.1, 1),
    LuckEntry(2, 0, (1, 1), -0.05, 1),
)


def pool() -> FakePool:
    return FakePool(
        analysis(
            [
                decision(0, 0, index=1),
                decision(0, 40, index=2),
                decision(0, 0, index=3),
                decision(1, 10, index=4),
                decision(1, 30, index=5, kind="take"),
            ],
            LUCK,
        )
    )


def skill_service(db: storage.Database, fake: FakePool, clock: Clock, worker: str) -> SkillService:
    return SkillService(db, ReviewService(db, fake), worker=worker, clock=clock, lease=600.0)


async def test_a_finished_rated_game_is_queued_reviewed_and_recorded(
    db: storage.Database,
) -> None:
    clock = Clock()
    fake = pool()
    skill = skill_service(db, fake, clock, "a")
    games = GameService(db, clock=clock)
    games.finish_listeners.append(skill.finished)
    game = await finished_game(games, "backgammon", seed=3)
    assert game.rated
    assert fake.calls == 0  # nothing on the click's path: the listener only remembers it
    assert await skill.queue_finished() == 1
    assert await skill.review_next() == game.id
    assert await skill.review_next() is None
    assert fake.calls == 1
    white, black = await records.game_skill_rows(db, game.id)
    assert (white.user_id, black.user_id) == (1000, 1001)
    assert (white.decisions, white.agreed) == (3, 2)
    assert 500 * white.loss / white.decisions == pytest.approx(500 * 0.040 / 3)
    assert white.loss_sq == pytest.approx(0.040**2)
    assert (black.decisions, black.agreed) == (2, 0)
    assert white.luck == pytest.approx(0.20) and black.luck == pytest.approx(-0.10)
    assert white.luck_games == pytest.approx((0.20,))
    assert {white.result, black.result} == {1.0, -1.0}
    # Luck-adjusted: the result less the net luck, so the two seats' sum to nothing.
    assert white.adjusted == pytest.approx(white.result - 0.30)
    assert black.adjusted == pytest.approx(black.result + 0.30)
    counts = await records.queue_counts(db)
    assert (counts.queued, counts.claimed, counts.done) == (0, 0, 1)
    # Queued once: told again, nothing new.
    skill.finished(game)
    assert await skill.queue_finished() == 0


async def test_a_claim_left_by_a_dead_process_is_taken_over_after_its_lease(
    db: storage.Database,
) -> None:
    clock = Clock()
    game = await finished_game(GameService(db, clock=clock), "backgammon", seed=4)
    # No listener ran (a crash right after the finish): the start-up catch-up queues it.
    assert await records.queue_unreviewed(db, clock()) == 1
    assert await records.queue_unreviewed(db, clock()) == 0
    dead = skill_service(db, pool(), clock, "dead")
    assert await records.claim_review(db, dead.worker, clock(), dead.lease) == game.id
    # The process died holding the claim. A new one sees nothing until the lease runs out.
    fake = pool()
    alive = skill_service(db, fake, clock, "alive")
    assert await alive.review_next() is None
    clock.now += 601
    assert await alive.review_next() == game.id
    assert len(await records.game_skill_rows(db, game.id)) == 2
    # The dead one's late answer changes nothing.
    assert not await records.finish_review(db, game.id, "dead", ())
    assert len(await records.game_skill_rows(db, game.id)) == 2


async def test_two_processes_claim_each_game_once(database_url: str) -> None:
    clock = Clock()
    first = await storage.Database.open(database_url)
    second = await storage.Database.open(database_url)
    try:
        games = GameService(first, clock=clock)
        ids = {(await finished_game(games, "backgammon", seed=s)).id for s in range(4)}
        assert await records.queue_unreviewed(first, clock()) == len(ids)

        async def drain(db: storage.Database, worker: str) -> list[str]:
            claimed = []
            while (found := await records.claim_review(db, worker, clock(), 600.0)) is not None:
                claimed.append(found)
            return claimed

        a, b = await asyncio.gather(drain(first, "a"), drain(second, "b"))
        assert sorted(a + b) == sorted(ids)  # every game once, none twice
    finally:
        await first.close()
        await second.close()


def test_pr_interval_is_the_ratio_over_games() -> None:
    found = pr_interval([(30, 0.30), (20, 0.10), (50, 0.60)])
    assert found is not None
    assert found.value == pytest.approx(500 * 1.0 / 100)
    assert found.low < found.value < found.high
    assert pr_interval([]) is None
    single = pr_interval([(10, 0.1)])
    assert single is not None and single.low == float("-inf")


async def test_stats_summary_over_the_last_games(db: storage.Database) -> None:
    clock = Clock()
    skill = skill_service(db, pool(), clock, "a")
    games = GameService(db, clock=clock)
    for seed in range(3):
        clock.now += 100
        await finished_game(games, "backgammon", seed=seed)
    await records.queue_unreviewed(db, clock())
    while await skill.review_next() is not None:
        pass
    found = await skill.summary(1000)
    mine = found["backgammon"]
    assert (mine.games, mine.decisions) == (3, 9)
    assert mine.pr is not None and mine.pr.value == pytest.approx(500 * 0.040 / 3)
    assert mine.luck is not None and mine.luck.value == pytest.approx(0.20)
    assert mine.agreement == pytest.approx(2 / 3)
    assert (await skill.summary(1000, last=2))["backgammon"].games == 2
    rows = await records.skill_rows(db, 1000)
    assert summarise("backgammon", rows, pr=True).pr == mine.pr
    board = await skill.board("backgammon", guild_id=1, min_decisions=5)
    assert [r.user_id for r in board] == [1000, 1001]  # white lost less per decision
    assert board[0].pr == pytest.approx(500 * 0.040 / 3)
    assert await skill.board("backgammon", guild_id=1, min_decisions=100) == []
