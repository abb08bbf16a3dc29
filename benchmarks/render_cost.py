"""CPU per board and the renderers' cold start.

    python -m benchmarks.render_cost [--rounds 2] [--starts 3] [--no-cold]

Per game, the boards of 24 seeded games, interleaved board by board as the bot meets them
with many games in play, drawn as the bot draws them (named players, the seat on turn at the
bottom; for backgammon also the selected point and the previewed step of each turn, one board
per click). Each pass draws every board once from an empty cache of mapped boxes
(``renderers.canvas``), which fills as it goes, as in a running bot; the reuse of a state's
PNG (``renderers.recent_pngs``) is emptied before each call, so every call draws and encodes.
Printed: the thread CPU time of one ``render_png`` call, p50, p95 and mean over every board
and pass; its two parts (p50): drawing on the palette and PNG encoding; for comparison the
same boards drawn in RGB and mapped whole, as boards were made before the canvas (p50 of
each part, and the mean of that whole pipeline with the encoding); and the PNG sizes.

Cold start, each in fresh processes: ``renderers.warm`` of every game (dark theme, as the bot
calls it at start-up) with an empty disk cache and again from the disk cache it left
(``TABULA_CACHE_DIR`` points at a temporary directory); and the first board after start-up:
warm-up started in a thread as the bot does, then at once one game's first board in the main
thread (a click at READY), timed from that moment, with the cache empty and filled.

A calibration time of fixed Python work (as ``benchmarks/load.py`` prints) comes first: the
machine's speed drifts by half within hours, so compare runs at similar calibration.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

import renderers  # noqa: E402
from benchmarks.load import calibration_ms  # noqa: E402
from bot.engines import backgammon, ludo, ur  # noqa: E402
from bot.engines.backgammon_labels import movable_points  # noqa: E402
from bot.engines.common import Phase  # noqa: E402
from renderers import PlayerInfo, render_png  # noqa: E402
from renderers import backgammon as bg_renderer  # noqa: E402
from renderers import ludo as ludo_renderer  # noqa: E402
from renderers import ur as ur_renderer  # noqa: E402
from renderers.png import encode_indexed  # noqa: E402
from renderers.view import make_view  # noqa: E402
from tests.renderers.helpers import playout  # noqa: E402

GAMES: dict[str, tuple[Any, Any]] = {
    "backgammon": (backgammon, bg_renderer),
    "ur": (ur, ur_renderer),
    "ludo": (ludo, ludo_renderer),
}
NAMES = ("Ada Lovelace", "Grace Hopper", "Cleo", "Dan")
Job = tuple[Any, dict[str, Any]]


def jobs_for(game: str, limit: int = 160, seeds: Sequence[int] = (3, 4)) -> list[Job]:
    """The boards of seeded games, one per click, as the bot asks for them; several games are
    interleaved board by board, as the bot meets them with many games in play."""
    rules, renderer = GAMES[game]
    players = [PlayerInfo(name, seat) for seat, name in enumerate(NAMES[: len(rules.SEATS)])]
    options = {"match_length": 3} if game == "backgammon" else None
    per_game: list[list[Job]] = []
    for seed in seeds:
        jobs: list[Job] = []
        for state in list(playout(rules, seed, options))[: limit // len(seeds)]:
            turn = int(getattr(state, "turn", 0))
            base = {"renderer": renderer, "players": players, "perspective": turn}
            if game == "ludo":
                base["perspective"] = 0  # one person and three AI seats: always seat 0
            jobs.append((state, base))
            if game == "backgammon" and state.phase == Phase.MOVE:
                points = movable_points(state)
                if points:  # the click that selects a checker, then the one that moves it
                    jobs.append((state, {**base, "highlight": points[0]}))
                    plays = rules.legal_plays_for(state)
                    if plays and plays[0].steps:
                        jobs.append((state, {**base, "preview_steps": plays[0].steps[:1]}))
        per_game.append(jobs)
    return [job for step in itertools.zip_longest(*per_game) for job in step if job is not None]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def forget_pngs() -> Callable[[], None]:
    """Empties the reuse of PNGs per state, where the renderers have it."""
    recent = getattr(renderers, "recent_pngs", None)
    return recent.clear if recent is not None else (lambda: None)


def forget_tiles() -> None:
    """Empties the canvas's cache of mapped boxes, where the renderers have it."""
    tiles = getattr(getattr(renderers, "canvas", None), "tiles", None)
    if tiles is not None:
        tiles.clear()


def steady(game: str, rounds: int) -> dict[str, float]:
    """Each pass draws every board once, in the order the bot meets them, from an empty
    cache of mapped boxes (``renderers.canvas``): what repeats between boards is found
    there, as in a running bot, and what is new on a board is drawn anew."""
    jobs = jobs_for(game, 1600, range(100, 124))
    renderer = GAMES[game][1]
    renderers.warm([renderer], ("dark",))
    forget = forget_pngs()
    sizes = []
    for state, options in jobs[:200]:  # sprites and text masks built once, untimed
        forget()
        sizes.append(len(render_png(state, **options)))
    totals: list[float] = []
    draw, encode, whole_draw, whole_map = [], [], [], []
    palette = renderer.palette("dark")
    for _ in range(rounds):
        forget_tiles()
        for state, options in jobs:
            forget()
            start = time.thread_time_ns()
            sizes.append(len(render_png(state, **options)))
            totals.append((time.thread_time_ns() - start) / 1e6)
        # The parts, measured apart: drawing on the palette and encoding; and for comparison
        # the same boards drawn in RGB and mapped whole (the way boards were made before).
        forget_tiles()
        for state, options in jobs:
            view = make_view(
                renderer.SEATS,
                options["players"],
                options["perspective"],
                options.get("highlight"),
                options.get("preview_steps", ()),
                "dark",
            )
            a = time.thread_time_ns()
            image = renderer.draw(state, view, indexed=False).image
            b = time.thread_time_ns()
            image.quantize(palette=palette, dither=Image.Dither.NONE)
            c = time.thread_time_ns()
            indexed = renderer.draw(state, view, indexed=True).image
            d = time.thread_time_ns()
            encode_indexed(indexed)
            e = time.thread_time_ns()
            whole_draw.append((b - a) / 1e6)
            whole_map.append((c - b) / 1e6)
            draw.append((d - c) / 1e6)
            encode.append((e - d) / 1e6)
    return {
        "boards": len(jobs),
        "p50": statistics.median(totals),
        "p95": percentile(totals, 0.95),
        "mean": statistics.fmean(totals),
        "draw": statistics.median(draw),
        "encode": statistics.median(encode),
        "rgb": statistics.median(whole_draw),
        "map": statistics.median(whole_map),
        "before": statistics.fmean(whole_draw)
        + statistics.fmean(whole_map)
        + statistics.fmean(encode),
        "kib50": statistics.median(sizes) / 1024,
        "kibmax": max(sizes) / 1024,
    }


# ------------------------------------------------------------------------------ cold start

CHILD_WARM = """
import json, sys, time
t0, c0 = time.perf_counter(), time.process_time()
import renderers
from renderers import backgammon, ludo, ur
t1, c1 = time.perf_counter(), time.process_time()
renderers.warm([backgammon, ur, ludo], ("dark",))
t2, c2 = time.perf_counter(), time.process_time()
print(json.dumps({"import_ms": (t1 - t0) * 1000, "import_cpu": (c1 - c0) * 1000,
                  "warm_ms": (t2 - t1) * 1000, "warm_cpu": (c2 - c1) * 1000}))
"""

CHILD_FIRST = """
import json, sys, threading, time
sys.path.insert(0, {root!r})
import renderers
from benchmarks.render_cost import GAMES, jobs_for
game = {game!r}
rules, renderer = GAMES[game]
state, options = jobs_for(game, 24)[12]
boards = [module for _, module in GAMES.values()]
ready = time.perf_counter()
warm = threading.Thread(target=renderers.warm, args=(boards, ("dark",)))
warm.start()
png = renderers.render_png(state, **options)
first = time.perf_counter()
warm.join()
done = time.perf_counter()
print(json.dumps({{"first_ms": (first - ready) * 1000, "warm_done_ms": (done - ready) * 1000}}))
"""


def child(code: str, cache: Path) -> dict[str, float]:
    env = {**os.environ, "TABULA_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def cold(starts: int) -> None:
    print("\ncold start (fresh processes; TABULA_CACHE_DIR a new temporary directory)")
    empty, filled = [], []
    firsts: dict[str, dict[str, list[float]]] = {}
    for _ in range(starts):
        with tempfile.TemporaryDirectory() as tmp:
            cache = Path(tmp) / "cache"
            empty.append(child(CHILD_WARM, cache))
            filled.append(child(CHILD_WARM, cache))
        for game in GAMES:
            with tempfile.TemporaryDirectory() as tmp:
                cache = Path(tmp) / "cache"
                code = CHILD_FIRST.format(root=str(ROOT), game=game)
                runs = firsts.setdefault(game, {"empty": [], "filled": []})
                runs["empty"].append(child(code, cache)["first_ms"])
                child(CHILD_WARM, cache)  # fills the cache, if the renderers keep one
                runs["filled"].append(child(code, cache)["first_ms"])

    def line(label: str, runs: list[dict[str, float]]) -> str:
        med = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        return (
            f"  {label:<28} warm-up {med['warm_cpu']:6.0f} ms CPU {med['warm_ms']:6.0f} ms wall"
            f"   (import renderers {med['import_cpu']:4.0f} ms CPU)"
        )

    print(line("warm(), empty disk cache", empty))
    print(line("warm(), from disk cache", filled))
    print("  first board with warm-up running in a thread (ms after start, median):")
    for game, runs in firsts.items():
        print(
            f"    {game:<11} empty cache {statistics.median(runs['empty']):6.0f} ms"
            f"   disk cache {statistics.median(runs['filled']):6.0f} ms"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2, help="timed passes over the boards")
    parser.add_argument("--starts", type=int, default=3, help="fresh processes per cold figure")
    parser.add_argument("--no-cold", action="store_true", help="skip the cold-start figures")
    args = parser.parse_args(argv)
    print(f"machine calibration {calibration_ms():.1f} ms (benchmarks/load.py's)")
    print(
        f"\n{'CPU ms per board':<16} {'boards':>6} {'p50':>6} {'p95':>6} {'mean':>6}   "
        f"{'draw':>5} {'encode':>6}   {'RGB':>5} {'map':>5} {'before':>6}   "
        f"{'PNG KiB p50':>11} {'max':>5}"
    )
    for game in GAMES:
        r = steady(game, args.rounds)
        print(
            f"{game:<16} {r['boards']:>6} {r['p50']:>6.2f} {r['p95']:>6.2f} {r['mean']:>6.2f}   "
            f"{r['draw']:>5.2f} {r['encode']:>6.2f}   {r['rgb']:>5.2f} {r['map']:>5.2f} "
            f"{r['before']:>6.2f}   {r['kib50']:>11.1f} {r['kibmax']:>5.1f}"
        )
    print(f"calibration after: {calibration_ms():.1f} ms")
    if not args.no_cold:
        cold(args.starts)


if __name__ == "__main__":
    main()
