"""The fair-play flag (pure statistics) and the moderators' service over stored records: who
is flagged, the evidence, cases marked reviewed, and the audit log."""

from __future__ import annotations

import random

import pytest

from bot import storage
from bot.service import fairplay_flag as flag
from bot.service.fairplay import FairPlayService, band_range
from bot.service.fairplay_flag import Totals, band_of, judge
from bot.service.games import GameService
from bot.service.models import SeatInfo
from bot.service.ratings import RatingService
from bot.storage import skill as records
from bot.storage.skill import SkillRow
from bot.vocabulary.errors import TabulaError
from tests.service.playing import Clock, click_to_end


def drawn(mean: float, agree: float, n: int, rng: random.Random) -> Totals:
    """A player of ``n`` decisions: losses exponential around ``mean``, a share ``agree`` of
    them the expert's first choice (losing nothing)."""
    loss = loss_sq = 0.0
    agreed = 0
    for _ in range(n):
        if rng.random() < agree:
            agreed += 1
            continue
        x = rng.expovariate(1 / (mean / (1 - agree)))
        loss += x
        loss_sq += x * x
    return Totals(n, loss, loss_sq, agreed)


def band(rng: random.Random, players: int = 30, n: int = 600) -> flag.Band:
    found = band_of([drawn(0.03, 0.5, n, rng) for _ in range(players)])
    assert found is not None
    return found


def test_a_player_like_the_band_is_not_flagged() -> None:
    rng = random.Random(1)
    reference = band(rng)
    verdicts = [judge(drawn(0.03, 0.5, 600, rng), reference) for _ in range(200)]
    assert sum(v.flagged for v in verdicts) <= 2
    assert abs(sum(v.z_loss for v in verdicts) / 200) < 0.5


def test_far_better_on_both_measures_is_flagged() -> None:
    rng = random.Random(2)
    reference = band(rng)
    verdict = judge(drawn(0.012, 0.75, 600, rng), reference)
    assert verdict.flagged
    assert verdict.z_loss >= flag.Z_FLAG and verdict.z_agree >= flag.Z_FLAG
    assert verdict.pr < verdict.band_pr and verdict.agreement > verdict.band_agreement


def test_both_measures_and_enough_decisions_are_needed() -> None:
    rng = random.Random(3)
    reference = band(rng)
    # Fewer errors, but no more of the expert's first choices than the band: not flagged.
    assert not judge(drawn(0.012, 0.5, 600, rng), reference).flagged
    # Far better on both, but too few decisions to mean something.
    few = judge(drawn(0.012, 0.75, flag.MIN_DECISIONS - 1, rng), reference)
    assert few.z_loss >= flag.Z_FLAG and not few.flagged


def test_a_band_needs_enough_players_and_a_spread_band_is_wider() -> None:
    rng = random.Random(4)
    assert band_of([drawn(0.03, 0.5, 600, rng) for _ in range(flag.MIN_REFERENCE - 1)]) is None
    thin = [drawn(0.03, 0.5, flag.MIN_REFERENCE_DECISIONS - 1, rng) for _ in range(10)]
    assert band_of(thin) is None
    alike = band(rng)
    spread = band_of([drawn(rng.uniform(0.01, 0.06), 0.5, 600, rng) for _ in range(30)])
    assert spread is not None and spread.between_loss > alike.between_loss
    player = drawn(0.015, 0.7, 600, rng)
    assert judge(player, spread).z_loss < judge(player, alike).z_loss


def test_band_range_widens_around_the_rating() -> None:
    assert band_range(1530, 0) == (1500, 1599)
    assert band_range(1530, 1) == (1400, 1699)
    assert band_range(1499, 0) == (1400, 1499)


# ---------------------------------------------------------------------------------------------
# The service over stored records


async def seed_records(db: storage.Database, clock: Clock) -> None:
    """Eight rated players (users 1-8) in server 1, each with one finished game's record:
    users 1-7 play like each other, user 8 like the expert."""
    games = GameService(db, clock=clock, ratings=RatingService(db))
    rng = random.Random(5)
    for pair in range(4):
        a, b = 2 * pair + 1, 2 * pair + 2
        seats = (SeatInfo(0, a, f"p{a}"), SeatInfo(1, b, f"p{b}"))
        game = await games.start(
            game="backgammon", guild_id=1, channel_id=50 + pair, parent_channel_id=None,
            seats=seats,
        )  # fmt: skip
        game = await click_to_end(games, game, pair, channel_id=50 + pair)
        assert await records.queue_review(db, game.id, clock())
        assert await records.claim_review(db, "t", clock(), 60.0) == game.id
        rows = []
        for seat, user in ((0, a), (1, b)):
            t = drawn(0.012, 0.8, 900, rng) if user == 8 else drawn(0.03, 0.5, 900, rng)
            rows.append(
                SkillRow(game.id, seat, user, 1, "backgammon", clock(), None, t.decisions,
                         t.loss, t.loss_sq, t.agreed, None, "[]", 0.0, None, None)
            )  # fmt: skip
        assert await records.finish_review(db, game.id, "t", rows)


async def test_moderators_see_the_flagged_mark_them_and_the_log_keeps_it(
    db: storage.Database,
) -> None:
    clock = Clock()
    await seed_records(db, clock)
    service = FairPlayService(db, clock=clock)
    judged = await service.judged(1, "backgammon")
    assert {c.user_id for c in judged} == set(range(1, 9))
    flagged = await service.flagged(1, "backgammon", moderator_id=99)
    assert [c.user_id for c in flagged] == [8]
    case = flagged[0]
    assert case.games == 1 and case.verdict.decisions == 900
    assert case.verdict.pr < case.verdict.band_pr
    assert case.band[0] <= case.rating <= case.band[1]
    # Another server's moderators do not see this server's players.
    assert await service.flagged(2, "backgammon", moderator_id=98) == []

    with pytest.raises(TabulaError) as refused:
        await service.mark_reviewed(1, "backgammon", 3, moderator_id=99)
    assert refused.value.key == "fairplay.not_flagged"
    clock.now += 10
    await service.mark_reviewed(1, "backgammon", 8, moderator_id=99)
    assert await service.flagged(1, "backgammon", moderator_id=99) == []  # reviewed
    log = await service.log(1)
    assert [(r.action, r.moderator_id, r.user_id) for r in log] == [
        ("viewed", 99, None),
        ("reviewed", 99, 8),
        ("viewed", 99, None),
    ]
    assert "900 decisions" in log[1].detail
    assert [r.action for r in await service.log(2)] == ["viewed"]
