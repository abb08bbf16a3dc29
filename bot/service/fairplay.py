"""The fair-play review, for a server's moderators: rated players whose play is far better
than their rating band predicts (:mod:`bot.service.fairplay_flag`), the evidence, cases marked
reviewed, and an audit log of every look and every mark.

It never acts on a flag: no ban, nothing public, no message to the player. A case a moderator
marked reviewed shows again only after the player has made :data:`MIN_DECISIONS` more
decisions.

Whose play is judged: the rated players with records in this server's games; their evidence
is all their reviewed rated games of that game (everywhere), against the players whose
displayed global rating is in the same band (:data:`BAND_WIDTH` points), the band widened a
step at a time on both sides until it holds :data:`MIN_REFERENCE` other players.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot import games
from bot import storage as store
from bot.clock import SYSTEM_CLOCK
from bot.service.fairplay_flag import (
    BAND_WIDTH,
    MIN_DECISIONS,
    MIN_REFERENCE,
    MIN_REFERENCE_DECISIONS,
    Totals,
    Verdict,
    band_of,
    judge,
)
from bot.storage import skill as records
from bot.storage.skill import AuditRow, SkillTotals
from bot.vocabulary.errors import TabulaError

__all__ = ["AuditRow", "Case", "FairPlayService", "band_range", "reference_for"]

MAX_WIDEN: int = 20  # band steps tried on each side before giving up


@dataclass(frozen=True, slots=True)
class Case:
    user_id: int
    games: int
    rating: int
    band: tuple[int, int]  # the rating range the reference came from
    verdict: Verdict


def _totals(t: SkillTotals) -> Totals:
    return Totals(t.decisions, t.loss, t.loss_sq, t.agreed)


def band_range(rating: int, steps: int) -> tuple[int, int]:
    low = (rating // BAND_WIDTH - steps) * BAND_WIDTH
    return low, low + (2 * steps + 1) * BAND_WIDTH - 1


def reference_for(
    player: SkillTotals, population: Sequence[SkillTotals]
) -> tuple[tuple[int, int], list[Totals]] | None:
    """The band around ``player``'s rating holding enough other rated players, and their
    totals; None when the whole population is too small."""
    assert player.rating is not None
    others = [
        t
        for t in population
        if t.user_id != player.user_id
        and t.rating is not None
        and t.decisions >= MIN_REFERENCE_DECISIONS
    ]
    for steps in range(MAX_WIDEN + 1):
        low, high = band_range(player.rating, steps)
        inside = [_totals(t) for t in others if t.rating is not None and low <= t.rating <= high]
        if len(inside) >= MIN_REFERENCE:
            return (low, high), inside
    return None


class FairPlayService:
    def __init__(
        self, db: store.Database, *, clock: Callable[[], float] = SYSTEM_CLOCK.now
    ) -> None:
        self.db = db
        self.clock = clock

    async def judged(self, guild_id: int, game: str) -> list[Case]:
        """Every rated player of this server judged against their band (flagged or not)."""
        if games.get(game).review is None:
            raise TabulaError("fairplay.no_review", games=games.titles(lambda g: g.review))
        population = await records.skill_totals(
            self.db, game, min_decisions=MIN_REFERENCE_DECISIONS
        )
        here = {t.user_id for t in await records.skill_totals(self.db, game, guild_id=guild_id)}
        cases = []
        for player in population:
            if player.user_id not in here or player.rating is None:
                continue
            found = reference_for(player, population)
            band = None if found is None else band_of(found[1])
            if found is None or band is None:
                continue
            verdict = judge(_totals(player), band)
            cases.append(Case(player.user_id, player.games, player.rating, found[0], verdict))
        return cases

    async def flagged(self, guild_id: int, game: str, moderator_id: int) -> list[Case]:
        """The flagged players of this server not yet reviewed at their current decisions,
        strongest evidence first; the look is logged."""
        reviewed = {
            c.user_id: c.decisions
            for c in await records.fairplay_cases(self.db, guild_id)
            if c.game == game
        }
        found = [
            c
            for c in await self.judged(guild_id, game)
            if c.verdict.flagged
            and c.verdict.decisions >= reviewed.get(c.user_id, -MIN_DECISIONS) + MIN_DECISIONS
        ]
        found.sort(key=lambda c: -min(c.verdict.z_loss, c.verdict.z_agree))
        await records.note_audit(
            self.db,
            guild_id,
            moderator_id,
            "viewed",
            now=self.clock(),
            game=game,
            detail=f"{len(found)} flagged",
        )
        return found

    async def mark_reviewed(
        self, guild_id: int, game: str, user_id: int, moderator_id: int
    ) -> Case:
        """Mark a flagged player's case reviewed (logged); raises ``fairplay.not_flagged``
        for a player who is not flagged."""
        case = next(
            (
                c
                for c in await self.judged(guild_id, game)
                if c.user_id == user_id and c.verdict.flagged
            ),
            None,
        )
        if case is None:
            raise TabulaError("fairplay.not_flagged", user=f"<@{user_id}>")
        v = case.verdict
        await records.mark_case_reviewed(
            self.db,
            guild_id,
            game,
            user_id,
            decisions=v.decisions,
            moderator_id=moderator_id,
            now=self.clock(),
            detail=f"PR {v.pr:.1f} vs {v.band_pr:.1f}; agreement {v.agreement:.3f} vs "
            f"{v.band_agreement:.3f}; {v.decisions} decisions",
        )
        return case

    async def log(self, guild_id: int, limit: int = 15) -> list[AuditRow]:
        return await records.audit_log(self.db, guild_id, limit)
