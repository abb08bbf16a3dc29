"""Calibrates the fair-play flag by simulation (run on demand, seeded; not a test):

    python -m benchmarks.fairplay                      # writes docs/fairplay-2026-11-28.{md,png}
    python -m benchmarks.fairplay --games 6 --out /tmp/fp

Two stages.

1. **Reviewed decision samples.** For each backgammon AI level (easy, medium, hard, expert),
   ``--games`` seeded single games of the level against itself are played with the bot's own
   engine and AIs (the expert by bgsage at its play level, in process), and each game is
   reviewed exactly as the skill record reviews it (``analyse_game`` at the review depth,
   2-ply). Every counted decision of both seats is kept as a sample: its equity loss and
   whether it was the expert's first choice. The time of each review is measured: the
   cost per game of the background review.

2. **Players at the decision level.** A simulated player is a run of ``--decisions``
   decisions drawn (with replacement, seeded) from the samples of a level:

   - an *honest* player draws every decision from their own level's samples;
   - a *mixed honest* player (the spread of real people within one rating band) draws each
     decision from their level or the next stronger one, with a share drawn per player
     uniformly from 0 to ``--spread`` (default 0.5; the expert level's band has no stronger
     level, so its players are plain);
   - an *assisted* player of level L takes the expert's move on a share ``s`` of their
     decisions: each decision is, with probability ``s``, drawn from the expert level's
     samples, else from L's.

   Every level is one rating band. Each player is judged by :func:`bot.service.fairplay_flag.judge`
   against the band made of the *other* honest players of their band
   (:func:`bot.service.fairplay_flag.band_of`, leave-one-out), which is what the bot does with
   the players of a rating band. 200 honest players (50 per level) give the false flags; 10
   assisted players at ``s`` = 0.5 (levels easy, medium, hard in turn) give the target's
   figure, and 60 per share the curve.

What this leaves out, said plainly: decisions are drawn independently, not in the positions
an assisted player's own games would reach; the expert's move is modelled as a decision of the
expert level's games (its loss as the 2-ply review measured it there), not the expert's
answer in the very same position; and every honest player of a band plays at the band's
level (the mixed scenario adds a spread, real bands have more).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.ai import backgammon as own_ai
from bot.ai import bgsage_engine
from bot.ai.backgammon_analysis import REVIEW_LEVEL, analyse_game
from bot.engines import backgammon as bg
from bot.engines.backgammon import Phase
from bot.games.backgammon_review import AGREED_BELOW
from bot.service.fairplay_flag import MIN_DECISIONS, Z_FLAG, Totals, band_of, judge

LEVELS = ("easy", "medium", "hard", "expert")
SHARES = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0)
DATE = "2026-11-28"


@dataclass(frozen=True, slots=True)
class Sample:
    loss: float
    agreed: bool


@dataclass(frozen=True, slots=True)
class Reviewed:
    level: str
    samples: tuple[Sample, ...]
    seconds: float  # the 2-ply review of the game
    decisions: int
    actions: int


def play_and_review(job: tuple[str, int]) -> Reviewed:
    """One seeded single game of ``level`` against itself, then its review."""
    level, seed = job
    eng = bgsage_engine.engine(1)
    options = {"match_length": 1}
    state = bg.new_game(options)
    dice = random.Random(seed)
    ai = random.Random(seed * 7919 + 1)
    notations: list[str] = []
    while state.phase is not Phase.FINISHED:
        action: Any = None
        if state.phase is not Phase.OPENING:
            if level == "expert":
                action = bgsage_engine.choose_action(state, bgsage_engine.PLAY_LEVEL, eng)
            else:
                action = own_ai.choose_action(state, level, ai)  # type: ignore[arg-type]
        if action is None:
            action = bg.roll(state, dice)
        notations.append(bg.notation(state, action))
        state = bg.apply(state, action)
    started = time.process_time()
    analysis = analyse_game(options, notations, REVIEW_LEVEL, eng)
    seconds = time.process_time() - started
    counted = [d for d in analysis.decisions if d.counted]
    samples = tuple(Sample(d.loss, d.loss < AGREED_BELOW) for d in counted)
    return Reviewed(level, samples, seconds, len(counted), len(notations))


def draw(pool: Sequence[Sample], rng: random.Random) -> Sample:
    return pool[rng.randrange(len(pool))]


def player(
    samples: dict[str, list[Sample]],
    level: str,
    n: int,
    rng: random.Random,
    *,
    share: float = 0.0,
    stronger: str | None = None,
    mix: float = 0.0,
) -> Totals:
    loss = loss_sq = 0.0
    agreed = 0
    for _ in range(n):
        if share and rng.random() < share:
            s = draw(samples["expert"], rng)
        elif stronger is not None and rng.random() < mix:
            s = draw(samples[stronger], rng)
        else:
            s = draw(samples[level], rng)
        loss += s.loss
        loss_sq += s.loss * s.loss
        agreed += s.agreed
    return Totals(n, loss, loss_sq, agreed)


def honest_population(
    samples: dict[str, list[Sample]],
    per_level: int,
    n: int,
    rng: random.Random,
    *,
    spread: float,
) -> dict[str, list[Totals]]:
    out: dict[str, list[Totals]] = {}
    for i, level in enumerate(LEVELS):
        stronger = LEVELS[i + 1] if spread and i + 1 < len(LEVELS) else None
        out[level] = [
            player(samples, level, n, rng, stronger=stronger, mix=rng.uniform(0, spread))
            for _ in range(per_level)
        ]
    return out


def false_flags(population: dict[str, list[Totals]]) -> int:
    flagged = 0
    for players in population.values():
        for i, one in enumerate(players):
            band = band_of(players[:i] + players[i + 1 :])
            assert band is not None
            flagged += judge(one, band).flagged
    return flagged


def assisted_flags(
    samples: dict[str, list[Sample]],
    population: dict[str, list[Totals]],
    share: float,
    count: int,
    n: int,
    rng: random.Random,
) -> int:
    bases = LEVELS[:3]
    flagged = 0
    for k in range(count):
        level = bases[k % len(bases)]
        band = band_of(population[level])
        assert band is not None
        flagged += judge(player(samples, level, n, rng, share=share), band).flagged
    return flagged


def chart(curves: dict[str, list[tuple[float, float]]], path: Path) -> None:
    """Flagged share against the share of expert moves, one line per decision count."""
    width, height, margin = 640, 400, 56
    image = Image.new("RGB", (width, height), "white")
    pen = ImageDraw.Draw(image)
    font = ImageFont.load_default()
    left, top, right, bottom = margin, 24, width - 24, height - margin
    pen.rectangle((left, top, right, bottom), outline="black")
    for k in range(0, 11, 2):
        y = bottom - (bottom - top) * k / 10
        pen.line((left - 4, y, left, y), fill="black")
        pen.text((left - 36, y - 6), f"{k * 10}%", fill="black", font=font)
        x = left + (right - left) * k / 10
        pen.line((x, bottom, x, bottom + 4), fill="black")
        pen.text((x - 10, bottom + 8), f"{k / 10:.1f}", fill="black", font=font)
    pen.text((left + 120, height - 24), "share of decisions played by the expert", fill="black")
    pen.text((left + 8, top + 4), "players flagged", fill="black", font=font)
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]
    for (name, points), colour in zip(curves.items(), colours, strict=False):
        xy = [(left + (right - left) * s, bottom - (bottom - top) * f) for s, f in points]
        pen.line(xy, fill=colour, width=2)
        for x, y in xy:
            pen.ellipse((x - 3, y - 3, x + 3, y + 3), fill=colour)
        index = list(curves).index(name)
        pen.text((right - 200, bottom - 20 - 14 * index), name, fill=colour, font=font)
    image.save(path, optimize=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="reviewed games per level")
    parser.add_argument("--decisions", type=int, default=600, help="decisions per player")
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--spread", type=float, default=0.5, help="the mixed players' most")
    parser.add_argument("--out", type=Path, default=Path("docs") / f"fairplay-{DATE}")
    args = parser.parse_args()

    jobs = [(level, 1000 * i + g) for i, level in enumerate(LEVELS) for g in range(args.games)]
    started = time.monotonic()
    with ProcessPoolExecutor(args.workers) as pool:
        reviewed = list(pool.map(play_and_review, jobs))
    wall = time.monotonic() - started
    samples: dict[str, list[Sample]] = {level: [] for level in LEVELS}
    for r in reviewed:
        samples[r.level].extend(r.samples)

    rng = random.Random(args.seed)
    n = args.decisions
    lines = [
        f"# Fair-play flag: calibration ({DATE})",
        "",
        f"Written by `python -m benchmarks.fairplay --games {args.games} --decisions {n} "
        f"--seed {args.seed} --spread {args.spread:g}` (see its docstring for the method). "
        "The flag: at least "
        f"{MIN_DECISIONS} decisions and both z >= {Z_FLAG} "
        "(`bot/service/fairplay_flag.py`).",
        "",
        "## Reviewed decision samples (2-ply review, single games, each level against itself)",
        "",
        "| level | games | decisions | PR | first choice | review CPU s / game (median, max) |",
        "|---|---|---|---|---|---|",
    ]
    for level in LEVELS:
        mine = [r for r in reviewed if r.level == level]
        pool_ = samples[level]
        pr = 500 * sum(s.loss for s in pool_) / len(pool_)
        agree = 100 * sum(s.agreed for s in pool_) / len(pool_)
        cpu = [r.seconds for r in mine]
        lines.append(
            f"| {level} | {len(mine)} | {len(pool_)} | {pr:.1f} | {agree:.0f} % | "
            f"{statistics.median(cpu):.1f}, {max(cpu):.1f} |"
        )
    per_game = statistics.mean(r.seconds for r in reviewed)
    per_decision = sum(r.seconds for r in reviewed) / sum(r.decisions for r in reviewed)
    lines += [
        "",
        f"The review's cost: {per_game:.1f} CPU s per single game on average, "
        f"{1000 * per_decision:.0f} ms per counted decision (a 7-point match is about seven "
        f"games). Wall time of stage 1: {wall:.0f} s with {args.workers} processes.",
        "",
    ]

    scenarios = {"plain": 0.0, f"mixed {args.spread:g}": args.spread}
    lines += [
        "## False flags among 200 honest players (50 per level)",
        "",
        "| scenario | decisions per player | flagged |",
        "|---|---|---|",
    ]
    populations = {}
    for name, spread in scenarios.items():
        for decisions in (MIN_DECISIONS, n):
            population = honest_population(samples, 50, decisions, rng, spread=spread)
            populations[(name, decisions)] = population
            lines.append(f"| {name} | {decisions} | {false_flags(population)} of 200 |")
    lines += [
        "",
        "## Assisted players (expert's move on a share of their decisions; bases easy, medium, "
        "hard in turn)",
        "",
        "| scenario | decisions | share 0.5: flagged of 10 | "
        + " | ".join(f"{s:.2f}" for s in SHARES)
        + " |",
        "|---|---|---|" + "---|" * len(SHARES),
    ]
    curves: dict[str, list[tuple[float, float]]] = {}
    for (name, decisions), population in populations.items():
        target = assisted_flags(samples, population, 0.5, 10, decisions, rng)
        points = [
            (share, assisted_flags(samples, population, share, 60, decisions, rng) / 60)
            for share in SHARES
        ]
        curves[f"{name}, {decisions} decisions"] = points
        cells = " | ".join(f"{100 * f:.0f} %" for _, f in points)
        lines.append(f"| {name} | {decisions} | {target} | {cells} |")
    chart(curves, args.out.with_suffix(".png"))
    lines += [
        "",
        f"![Players flagged against the share of expert moves]({args.out.name}.png)",
        "",
        "The curve's share 0 is the honest players of the bases (easy, medium, hard) judged "
        "against their bands: its flagged share is the false-flag rate.",
        "",
    ]
    args.out.with_suffix(".md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
