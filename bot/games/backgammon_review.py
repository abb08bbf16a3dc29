"""Backgammon's review: every decision judged by the expert engine (bgsage), in equity.

``analyse`` (the manifest's review hook) has the expert pool replay the record in a worker
process (a few seconds) and :func:`summarise` turns its :class:`GameAnalysis` into the
numbers shown per player::

    review.players[seat]: PlayerReview
        .decisions      decisions counted (the PR denominator, see below)
        .error_rate_mp  mean equity lost per counted decision, in millipoints
        .pr             PR = 500 x mean equity lost per counted decision (= error_rate_mp / 2)
        .total_loss_mp  equity lost over the game, in millipoints
        .luck_mp        sum of the luck of this player's rolls, in millipoints (+ = lucky)
        .luck_games_mp  the same for each game of a match, in order
        .agreed         counted decisions where the play was the expert's first choice
        .loss_sq        sum of the squared equity lost per counted decision (its spread)
        .errors         decisions losing >= ERROR_MP and < BLUNDER_MP millipoints
        .blunders       decisions losing >= BLUNDER_MP millipoints
        .worst          the (up to) three costliest decisions, worst first (ReviewDecision)
        .costly         every counted decision losing >= ERROR_MP, in log order (the deck)
    review.series: ((action index, game number, white's chance to win that game), ...)

Definitions (stated here because players will ask):

- Equity is bgsage's cubeful equity, normalised to a cube of 1 (money and single games) or
  match-winning chances as equity (matches). One millipoint (mp) is 0.001 of it.
- A decision is every checker play with more than one legal play, every take / drop, and the
  double / no-double choice when the player doubled, got it wrong, or doubling was within
  0.16 of not doubling (a "close" cube decision). Forced plays do not count.
- PR follows eXtreme Gammon's performance rating: 500 x the mean equity lost per counted
  decision. 0-2 is world class, 5 expert, 8 advanced, 12 intermediate, 18+ beginner.
- Thresholds: an error loses at least 40 mp, a blunder at least 80 mp (separate counts).
- Luck of a roll: the equity after the best play with it minus the average over all 21
  rolls (the opening roll: 15 non-doubles), summed per player.
- Agreement: a counted decision agrees with the expert when it loses nothing against its
  first choice (:data:`AGREED_BELOW`, rounding noise, aside).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, Final, Protocol

from bot.ai.backgammon_analysis import Decided, Decision, GameAnalysis
from bot.ai.bgsage_engine import ExpertBusy, ExpertUnavailable
from bot.ai.pool import ExpertPool
from bot.engines.backgammon import BackgammonState, Phase, Play
from bot.games.review import WORST, Record, ReviewUnavailable, SeatSkill, Stored
from bot.games.tutor import TutorSpec, Verdict

__all__ = [
    "AGREED_BELOW",
    "BLUNDER_MP",
    "ERROR_MP",
    "REVIEW_VERSION",
    "TUTOR",
    "PlayerReview",
    "Review",
    "ReviewDecision",
    "analyse",
    "skill",
    "summarise",
]

REVIEW_VERSION: Final = 2  # bump when the numbers or the JSON change: old rows are redone
ERROR_MP: Final = 40.0
BLUNDER_MP: Final = 80.0
PR_FACTOR: Final = 500.0
REVIEW_TIMEOUT: Final = 180.0
JUDGE_TIMEOUT: Final = 10.0  # the pool's own bound on one tutor judgement (the service waits less)
AGREED_BELOW: Final = 1e-6  # equity: a decision losing less than this was the first choice


class Reviewer(Protocol):
    """What the service needs of :class:`bot.ai.pool.ExpertPool`."""

    async def review(
        self,
        options: dict[str, Any],
        notations: Sequence[str],
        timeout: float = ...,  # noqa: ASYNC109 - the pool's own deadline
    ) -> GameAnalysis: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class ReviewDecision(Decided):
    """One reviewed decision (see :class:`bot.ai.backgammon_analysis.Decision`), the loss in
    millipoints."""

    loss_mp: float


@dataclass(frozen=True, slots=True)
class PlayerReview:
    seat: int
    decisions: int
    moves: int  # counted checker plays
    cube_decisions: int  # counted cube decisions
    error_rate_mp: float
    pr: float
    total_loss_mp: float
    luck_mp: float
    errors: int
    blunders: int
    worst: tuple[ReviewDecision, ...]
    agreed: int = 0
    loss_sq: float = 0.0
    luck_games_mp: tuple[float, ...] = ()
    # every counted decision that lost ERROR_MP or more (an error or a blunder), in log order:
    # the training deck's cards (a review stored before it had this field has none)
    costly: tuple[ReviewDecision, ...] = ()


@dataclass(frozen=True, slots=True)
class Review(Stored):
    game_id: str
    version: int
    level: str
    actions: int
    players: tuple[PlayerReview, ...]  # index = seat
    series: tuple[tuple[int, int, float], ...]  # (action index, game number, white's chance)


def _reviewed(d: Decision) -> ReviewDecision:
    kept = {f.name: getattr(d, f.name) for f in fields(Decided)}
    return ReviewDecision(**kept, loss_mp=d.loss * 1000.0)


def summarise(analysis: GameAnalysis, game_id: str = "") -> Review:
    """The per-player numbers of a :class:`GameAnalysis` (see the module docstring)."""
    players = []
    for seat in (0, 1):
        mine = [d for d in analysis.decisions if d.seat == seat and d.counted]
        losses = [d.loss * 1000.0 for d in mine]
        total = sum(losses)
        rate = total / len(mine) if mine else 0.0
        worst = sorted((d for d in mine if d.loss > 0.0), key=lambda d: (-d.loss, d.index))[:WORST]
        lucks = [e for e in analysis.luck if e.seat == seat]
        games = max((e.game_number for e in analysis.luck), default=0)
        players.append(
            PlayerReview(
                seat=seat,
                decisions=len(mine),
                moves=sum(1 for d in mine if d.kind == "move"),
                cube_decisions=sum(1 for d in mine if d.kind != "move"),
                error_rate_mp=rate,
                pr=PR_FACTOR * rate / 1000.0,
                total_loss_mp=total,
                luck_mp=1000.0 * sum(e.luck for e in analysis.luck if e.seat == seat),
                errors=sum(1 for x in losses if ERROR_MP <= x < BLUNDER_MP),
                blunders=sum(1 for x in losses if x >= BLUNDER_MP),
                worst=tuple(_reviewed(d) for d in worst),
                agreed=sum(1 for d in mine if d.loss < AGREED_BELOW),
                loss_sq=sum(d.loss * d.loss for d in mine),
                luck_games_mp=tuple(
                    1000.0 * sum(e.luck for e in lucks if e.game_number == number)
                    for number in range(1, games + 1)
                ),
                costly=tuple(_reviewed(d) for d in mine if d.loss * 1000.0 >= ERROR_MP),
            )
        )
    return Review(
        game_id=game_id,
        version=REVIEW_VERSION,
        level=analysis.level,
        actions=analysis.actions,
        players=tuple(players),
        series=tuple((p.index, p.game_number, p.white_win) for p in analysis.series),
    )


def skill(review: Review) -> tuple[SeatSkill, ...]:
    """The skill record's figures of both seats (equity, luck per game of a match)."""
    return tuple(
        SeatSkill(
            seat=p.seat,
            decisions=p.decisions,
            loss=p.total_loss_mp / 1000.0,
            loss_sq=p.loss_sq,
            agreed=p.agreed,
            luck=p.luck_mp / 1000.0,
            luck_games=tuple(x / 1000.0 for x in p.luck_games_mp),
        )
        for p in review.players
    )


async def analyse(record: Record, expert: Reviewer | None) -> Review:
    """The review of the finished game ``record`` by the expert engine's pool ``expert``."""
    if expert is None:
        raise ReviewUnavailable("error.review_unavailable")
    try:
        analysis = await expert.review(
            dict(record.options), record.notations, timeout=REVIEW_TIMEOUT
        )
    except ExpertUnavailable:  # bgsage missing here: the only case that says so
        raise ReviewUnavailable("error.review_unavailable") from None
    except ExpertBusy:  # every worker busy (or still starting): wait and ask again
        raise ReviewUnavailable("error.review_expert_busy") from None
    except TimeoutError:  # its worker ran out of time on this game
        raise ReviewUnavailable("error.review_busy") from None
    return summarise(analysis, record.game_id)


async def judge(
    state: BackgammonState, action: object, expert: ExpertPool | None
) -> Verdict | None:
    """Tutor mode: the checker play ``action`` judged by the expert at the review's level (the
    review's own judgement of a play); ``None`` for a cube action, a forced play, or where the
    expert cannot answer (the play is then stored without a question)."""
    if expert is None or state.phase is not Phase.MOVE or not isinstance(action, Play):
        return None
    try:
        decision = await expert.judge(state, action, timeout=JUDGE_TIMEOUT)
    except (ExpertUnavailable, TimeoutError):  # ExpertBusy is a TimeoutError
        return None
    return None if decision is None else Verdict(decision.loss, decision.best)


# Questioned from a blunder; never below an error (the review's two thresholds).
TUTOR: Final = TutorSpec(judge, BLUNDER_MP / 1000.0, ERROR_MP / 1000.0, "equity")
