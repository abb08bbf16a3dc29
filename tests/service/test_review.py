"""Post-game review: the numbers from an analysis, the cache, the service's refusals, the
images, and a real review of a recorded game (deterministic, cached)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

from bot import storage
from bot.ai.backgammon_analysis import Decision, GameAnalysis, LuckEntry, WinPoint
from bot.ai.bgsage_engine import ExpertUnavailable
from bot.engines import backgammon as bg
from bot.engines.common import Phase
from bot.games.backgammon_review import REVIEW_VERSION, Review, summarise
from bot.service.games import GameService
from bot.service.models import Game, SeatInfo
from bot.service.review import ReviewService, ReviewUnavailable
from bot.vocabulary.errors import GameNotFound
from renderers.backgammon_review import decision_card
from renderers.review import win_chart
from tests.service.playing import click_to_end

CHANNEL = 777


def decision(seat: int, loss_mp: float, *, index: int = 0, kind: str = "move") -> Decision:
    return Decision(
        index=index,
        seat=seat,
        kind=kind,
        game_number=1,
        position_id="4HPwATDgc/ABMA",
        dice=(3, 1) if kind == "move" else (),
        played=f"play {index}",
        best="8/5 6/5",
        loss=loss_mp / 1000.0,
        counted=True,
        played_steps=((13, 10), (24, 23)) if kind == "move" else (),
        best_steps=((8, 5), (6, 5)) if kind == "move" else (),
    )


def analysis(decisions: Sequence[Decision], luck: Sequence[LuckEntry] = ()) -> GameAnalysis:
    series = (WinPoint(0, 1, 0.5), WinPoint(2, 1, 0.61), WinPoint(9, 1, 1.0))
    return GameAnalysis("2ply", tuple(decisions), tuple(luck), series, 10)


# ---------------------------------------------------------------------------------------------
# The numbers


@pytest.mark.parametrize(
    ("losses_mp", "errors", "blunders", "pr"),
    [
        ([], 0, 0, 0.0),
        ([0, 0, 0, 0], 0, 0, 0.0),
        ([0, 39.9, 40, 79.9, 80, 200], 2, 2, 500 * (439.8 / 6) / 1000),
        ([10, 20, 30], 0, 0, 500 * 0.020),  # mean 20 mp: PR 10
    ],
)
def test_error_counts_and_pr(losses_mp: list[float], errors: int, blunders: int, pr: float) -> None:
    review = summarise(analysis([decision(0, x, index=i) for i, x in enumerate(losses_mp)]))
    white = review.players[0]
    assert (white.errors, white.blunders, white.decisions) == (errors, blunders, len(losses_mp))
    assert white.pr == pytest.approx(pr)
    assert white.error_rate_mp == pytest.approx(2 * pr)
    assert review.players[1].decisions == 0


def test_uncounted_decisions_stay_out_of_the_rate_and_worst_is_per_player() -> None:
    forced_like = decision(0, 300, index=9, kind="double")
    forced_like = replace(forced_like, counted=False)
    review = summarise(
        analysis(
            [
                decision(0, 10, index=1),
                decision(0, 90, index=2),
                decision(0, 50, index=3),
                decision(0, 70, index=4),
                decision(1, 5, index=5, kind="take"),
                forced_like,
            ],
            [
                LuckEntry(0, 0, (6, 5), 0.25),
                LuckEntry(1, 1, (2, 1), -0.1),
                LuckEntry(2, 0, (1, 1), -0.05),
            ],
        ),
        "g1",
    )
    white, black = review.players
    assert white.decisions == 4 and white.total_loss_mp == pytest.approx(220)
    assert [d.index for d in white.worst] == [2, 4, 3]  # worst first, three at most
    assert [d.loss_mp for d in white.worst] == pytest.approx([90, 70, 50])
    assert (black.moves, black.cube_decisions) == (0, 1)
    assert white.luck_mp == pytest.approx(200) and black.luck_mp == pytest.approx(-100)
    assert review.series == ((0, 1, 0.5), (2, 1, 0.61), (9, 1, 1.0))
    assert Review.from_json(review.to_json()) == review


# ---------------------------------------------------------------------------------------------
# The service with a stand-in engine


class FakePool:
    def __init__(self, result: GameAnalysis | Exception) -> None:
        self.result = result
        self.calls = 0

    async def review(
        self,
        options: dict[str, Any],
        notations: Sequence[str],
        timeout: float = 0.0,  # noqa: ASYNC109
    ) -> GameAnalysis:
        self.calls += 1
        if isinstance(self.result, Exception):
            raise self.result
        return GameAnalysis(
            self.result.level,
            self.result.decisions,
            self.result.luck,
            self.result.series,
            len(notations),
        )


def people() -> list[SeatInfo]:
    return [SeatInfo(0, 1000, "Ann"), SeatInfo(1, 1001, "Bob")]


async def finished_game(service: GameService, name: str, seed: int) -> Game:
    """A game played to the end by random clicks on the offered buttons."""
    game = await service.start(
        game=name, guild_id=1, channel_id=CHANNEL, parent_channel_id=None, seats=people()
    )
    return await click_to_end(service, game, seed, channel_id=CHANNEL, limit=5000)


async def test_reviews_are_made_once_then_read_from_the_database(
    db: storage.Database,
) -> None:
    game = await finished_game(GameService(db), "backgammon", seed=3)
    pool = FakePool(analysis([decision(0, 120, index=4), decision(1, 0, index=5)]))
    service = ReviewService(db, pool, clock=lambda: 1234.0)
    first = await service.review(game.id)
    assert first.players[0].blunders == 1 and first.version == REVIEW_VERSION
    row = await storage.load_review(db, game.id)
    assert row is not None and row.created_at == 1234.0 and row.level == "2ply"
    again = await ReviewService(db, pool).review(game.id)  # a fresh service: only the DB
    assert again == first and pool.calls == 1


async def test_an_old_review_format_is_redone(db: storage.Database) -> None:
    game = await finished_game(GameService(db), "backgammon", seed=4)
    await storage.save_review(
        db, game.id, version=REVIEW_VERSION + 1, level="2ply", actions=3, review_json="{}", now=1.0
    )
    pool = FakePool(analysis([]))
    assert (await ReviewService(db, pool).review(game.id)).version == REVIEW_VERSION
    assert pool.calls == 1


async def test_what_cannot_be_reviewed(db: storage.Database) -> None:
    games = GameService(db)
    pool = FakePool(analysis([]))
    service = ReviewService(db, pool)
    with pytest.raises(GameNotFound):
        await service.review("nope")
    ur = await finished_game(games, "ur", seed=1)
    with pytest.raises(ReviewUnavailable) as refused:
        await service.review(ur.id)
    assert refused.value.key == "error.review_no_table"  # Ur's needs the solved table
    running = await games.start(
        game="backgammon", guild_id=1, channel_id=CHANNEL + 1, parent_channel_id=None,
        seats=people(),
    )  # fmt: skip
    with pytest.raises(ReviewUnavailable) as refused:
        await service.review(running.id)
    assert refused.value.key == "error.review_not_finished"
    done = await finished_game(games, "backgammon", seed=2)
    for error, key in (
        (ExpertUnavailable("no bgsage"), "error.review_unavailable"),
        (TimeoutError(), "error.review_busy"),
    ):
        with pytest.raises(ReviewUnavailable) as refused:
            await ReviewService(db, FakePool(error)).review(done.id)
        assert refused.value.key == key
    assert await storage.load_review(db, done.id) is None
    assert pool.calls == 0


# ---------------------------------------------------------------------------------------------
# Images


def test_the_chart_and_the_card_draw() -> None:
    chart = win_chart([(0, 1, 0.5), (4, 1, 0.8), (8, 1, 1.0), (9, 2, 0.5), (15, 2, 0.1)])
    assert chart.size == (900, 360) and chart.mode == "RGB"
    colours = chart.getcolors(maxcolors=1 << 16) or []
    assert len(colours) > 10  # a line, a fill, text: not a blank image
    state = bg.apply(bg.new_game(), bg.Roll((3, 1)))
    card = decision_card(
        state, ((13, 10), (24, 23)), ((8, 5), (6, 5)), played="24/23 13/10", best="8/5 6/5",
        loss_mp=34.0,
    )  # fmt: skip
    left = card.crop((0, 100, card.width // 2, card.height))
    right = card.crop((card.width - left.width, 100, card.width, card.height))
    assert card.width > card.height and left.tobytes() != right.tobytes()
    cube = decision_card(state, (), (), played="take", best="drop", loss_mp=120.0)
    assert cube.width < card.width
    assert isinstance(win_chart([]), Image.Image)


# ---------------------------------------------------------------------------------------------
# A real review (bgsage)


async def test_a_real_review_is_deterministic_and_cached(db: storage.Database) -> None:
    pytest.importorskip("bgsage")
    from bot.ai.pool import ExpertPool

    game = await finished_game(GameService(db), "backgammon", seed=5)
    assert game.state.phase == Phase.FINISHED
    notations = [a.notation for a in await storage.load_actions(db, game.id)]
    pool = ExpertPool(workers=1)
    pool.start()
    try:
        first = await pool.review(game.options, notations, timeout=120)
        second = await pool.review(game.options, notations, timeout=120)
        assert first == second  # the same numbers twice
        service = ReviewService(db, pool)
        review = await service.review(game.id)
        assert review == summarise(first, game.id)
        calls = pool.stats.requests
        assert await service.review(game.id) == review and pool.stats.requests == calls
    finally:
        pool.close()
    white, black = review.players
    # the dice come from a random seed, so the game length varies: some decisions, not many
    assert white.decisions + black.decisions > 0
    assert all(p.pr >= 0 and p.errors + p.blunders <= p.decisions for p in review.players)
    # Random clicking is bad play: somebody must have blundered.
    assert white.blunders + black.blunders > 0
    assert review.series[0][2] == 0.5 and review.series[-1][2] in (0.0, 1.0)
    worst = max((d for p in review.players for d in p.worst), key=lambda d: d.loss_mp)
    state = await service.state_before(game.id, worst.index)
    assert state.position.position_id() == worst.position_id
    if worst.kind == "move":
        assert state.phase == Phase.MOVE and state.dice == worst.dice
        image = decision_card(
            state, worst.played_steps, worst.best_steps, played=worst.played, best=worst.best,
            loss_mp=worst.loss_mp,
        )  # fmt: skip
        assert image.width > 0
