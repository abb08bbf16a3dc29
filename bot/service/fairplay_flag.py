"""The fair-play flag: is a player's play far better than their rating band predicts?

Pure statistics (no storage, no Discord), shared by the service and ``benchmarks/fairplay``,
which calibrates the constants by simulation (docs/fairplay-2026-11-28.md).

Input: each player's sums over their reviewed decisions (:class:`Totals`: decisions counted,
equity lost, its squares, decisions that were the expert's first choice). The *band* is the
players of a similar rating (the reference); from them :func:`band_of` estimates

- the mean loss per decision ``m`` and the spread of one decision's loss ``v`` (pooled),
- the agreement rate ``a`` (share of decisions that were the expert's first choice),
- how much players of the band differ from each other beyond chance (``between_*``: the
  variance of the players' means less what sampling alone explains, never below 0),
- how uncertain the band's own means are (its size).

:func:`judge` compares one player with the band, in standard errors:

    z_loss  = (m - player's mean loss)  / sqrt(between_loss  + v / n + band's own error)
    z_agree = (player's agreement - a)  / sqrt(between_agree + a(1 - a) / n + band's own error)

and flags when the player has at least :data:`MIN_DECISIONS` decisions, the band at least
:data:`MIN_REFERENCE` players, and *both* z are at least :data:`Z_FLAG`: playing with fewer
errors than the band and choosing the expert's move more often than it, each far beyond
chance. A flag is a reason for a person to look, never a verdict.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

__all__ = [
    "BAND_WIDTH",
    "MIN_DECISIONS",
    "MIN_REFERENCE",
    "MIN_REFERENCE_DECISIONS",
    "Z_FLAG",
    "Band",
    "Totals",
    "Verdict",
    "band_of",
    "judge",
]

MIN_DECISIONS: Final = 300  # a player's counted decisions before a flag can be raised
MIN_REFERENCE: Final = 5  # players in the band (besides the one judged) needed to judge
MIN_REFERENCE_DECISIONS: Final = 100  # decisions a reference player needs to count
Z_FLAG: Final = 3.0  # standard errors beyond the band, on both measures
BAND_WIDTH: Final = 100  # rating points per band (1500-1599, ...)
PR_FACTOR: Final = 500.0  # PR = 500 x mean equity lost per decision


@dataclass(frozen=True, slots=True)
class Totals:
    """One player's sums over their reviewed decisions."""

    decisions: int
    loss: float
    loss_sq: float
    agreed: int

    @property
    def mean_loss(self) -> float:
        return self.loss / self.decisions if self.decisions else 0.0

    @property
    def agreement(self) -> float:
        return self.agreed / self.decisions if self.decisions else 0.0

    @property
    def pr(self) -> float:
        return PR_FACTOR * self.mean_loss

    def __add__(self, other: Totals) -> Totals:
        return Totals(
            self.decisions + other.decisions,
            self.loss + other.loss,
            self.loss_sq + other.loss_sq,
            self.agreed + other.agreed,
        )


@dataclass(frozen=True, slots=True)
class Band:
    """What a band of players predicts for one of them (see the module docstring)."""

    players: int
    mean_loss: float
    loss_var: float  # of one decision's loss
    between_loss: float  # between players' means, beyond chance
    mean_loss_err: float  # variance of the band's mean loss itself
    agreement: float
    between_agree: float
    agreement_err: float

    @property
    def pr(self) -> float:
        return PR_FACTOR * self.mean_loss


def _sample_var(values: Sequence[float]) -> float:
    if len(values) < 2:
        return 0.0
    mean = sum(values) / len(values)
    return sum((x - mean) ** 2 for x in values) / (len(values) - 1)


def band_of(reference: Sequence[Totals]) -> Band | None:
    """The band made of ``reference`` (players with at least
    :data:`MIN_REFERENCE_DECISIONS`); None when fewer than :data:`MIN_REFERENCE` qualify."""
    players = [t for t in reference if t.decisions >= MIN_REFERENCE_DECISIONS]
    if len(players) < MIN_REFERENCE:
        return None
    pooled = Totals(0, 0.0, 0.0, 0)
    for t in players:
        pooled = pooled + t
    n = pooled.decisions
    m = pooled.mean_loss
    v = max(0.0, pooled.loss_sq / n - m * m)
    a = pooled.agreement
    # What sampling alone would spread the players' means by, on average.
    chance_loss = sum(v / t.decisions for t in players) / len(players)
    chance_agree = sum(a * (1 - a) / t.decisions for t in players) / len(players)
    between_loss = max(0.0, _sample_var([t.mean_loss for t in players]) - chance_loss)
    between_agree = max(0.0, _sample_var([t.agreement for t in players]) - chance_agree)
    k = len(players)
    return Band(
        players=k,
        mean_loss=m,
        loss_var=v,
        between_loss=between_loss,
        mean_loss_err=between_loss / k + v / n,
        agreement=a,
        between_agree=between_agree,
        agreement_err=between_agree / k + a * (1 - a) / n,
    )


@dataclass(frozen=True, slots=True)
class Verdict:
    flagged: bool
    decisions: int
    pr: float  # the player's
    band_pr: float  # the band's mean
    agreement: float  # the player's, 0-1
    band_agreement: float
    z_loss: float
    z_agree: float


def judge(player: Totals, band: Band) -> Verdict:
    """How far ``player`` stands above ``band`` (see the module docstring)."""
    n = player.decisions
    if n == 0:
        return Verdict(False, 0, 0.0, band.pr, 0.0, band.agreement, 0.0, 0.0)
    loss_se = math.sqrt(band.between_loss + band.loss_var / n + band.mean_loss_err)
    a = band.agreement
    agree_se = math.sqrt(band.between_agree + a * (1 - a) / n + band.agreement_err)
    z_loss = (band.mean_loss - player.mean_loss) / loss_se if loss_se > 0 else 0.0
    z_agree = (player.agreement - a) / agree_se if agree_se > 0 else 0.0
    flagged = n >= MIN_DECISIONS and z_loss >= Z_FLAG and z_agree >= Z_FLAG
    return Verdict(flagged, n, player.pr, band.pr, player.agreement, a, z_loss, z_agree)
