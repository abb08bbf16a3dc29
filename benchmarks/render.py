"""Board render speed against the shared reference renderer, measured in the same run.

    python benchmarks/render.py [ROUNDS]

For each game: the median time of ``render_png`` (draw + encode) over sample states of a
seeded game, the reference's median (``../shared/bench/reference_render.py`` beside the
checkout, or the path in ``TABULA_REFERENCE_RENDER``; a plain
uncached Pillow board, imported by path here only) measured right before and after, and the
ratio (goal: at most 0.4). Also: PNG sizes, the one-off cost of building a game's caches,
and what other deflate levels would cost, which is how ``renderers.png.COMPRESS_LEVEL`` was
chosen; last, what the text stamp of a new player's name costs in each script (Latin names
take DejaVu alone, the path they always took; others the fallback fonts of
``renderers.fonts``).
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from renderers import backgammon, ludo, png, recent_pngs, render, render_png, ur  # noqa: E402
from renderers.png import encode_indexed  # noqa: E402

# The reference lives beside the checkout (shared/ is not part of the project), never inside it.
REFERENCE = Path(
    os.environ.get("TABULA_REFERENCE_RENDER")
    or ROOT.parent / "shared" / "bench" / "reference_render.py"
)


def load_reference() -> ModuleType:
    spec = importlib.util.spec_from_file_location("reference_render", REFERENCE)
    if spec is None or spec.loader is None:
        raise SystemExit(f"Cannot load {REFERENCE} (set TABULA_REFERENCE_RENDER to its path)")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def workload(module: Any) -> list[tuple[Any, dict[str, Any]]]:
    """The sample states in both themes and both orientations, plus a previewed play."""
    jobs: list[tuple[Any, dict[str, Any]]] = []
    for index, state in enumerate(module.sample_states()):
        jobs.append((state, {"theme": ("dark", "light")[index % 2], "perspective": index % 2}))
    if module is backgammon:
        from bot.engines import backgammon as rules
        from bot.engines.common import Roll

        start = rules.apply(rules.new_game(), Roll((6, 4)))
        steps = rules.legal_plays_for(start)[0].steps[:1]
        jobs.append((start, {"preview_steps": steps, "highlight": steps[0][0]}))
    return jobs


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    reference = load_reference()
    reference.median_ms(5)  # warm-up
    print(
        f"{'game':<11} {'render+encode':>13} {'reference':>10} {'ratio':>6} "
        f"{'PNG KiB max':>11} {'first (caches)':>15}"
    )
    for name, module in (("backgammon", backgammon), ("ur", ur), ("ludo", ludo)):
        jobs = workload(module)
        started = time.perf_counter()
        # builds the caches
        sizes = [len(render_png(state, renderer=module, **opts)) for state, opts in jobs]
        cold = (time.perf_counter() - started) * 1000
        before = reference.median_ms(30)
        times = []
        for _ in range(rounds):
            for state, opts in jobs:
                recent_pngs.clear()  # draw and encode each time, as for a new state
                start = time.perf_counter()
                render_png(state, renderer=module, **opts)
                times.append((time.perf_counter() - start) * 1000)
        after = reference.median_ms(30)
        ours = statistics.median(times)
        ref = (before + after) / 2
        print(
            f"{name:<11} {ours:>10.2f} ms {ref:>7.2f} ms {ours / ref:>6.2f} "
            f"{max(sizes) / 1024:>11.1f} {cold:>12.0f} ms"
        )

    print("\ndeflate level trade-off (encode only, Ur / Ludo / backgammon sample state):")
    images = [
        render(module.sample_states()[2], renderer=module).quantize(
            palette=module.palette("dark"), dither=Image.Dither.NONE
        )
        for module in (ur, ludo, backgammon)
    ]
    for level in (0, 1, 2, 3) if png.deflate is not zlib else (1, 3, 6, 9):  # ISA-L has 0-3
        cells = []
        for image in images:

            def encode(image: Image.Image = image, level: int = level) -> bytes:
                return encode_indexed(image, level)

            size = len(encode_indexed(image, level))
            cells.append(f"{median_ms(encode, 10):5.2f} ms {size / 1024:5.1f} KiB")
        print(f"  level {level}: " + " | ".join(cells))

    print("\nname stamps (a name new to the process, bold 20 px; median CPU of 600 each):")
    for script, sample in NAME_SAMPLES.items():
        print(f"  {script:<10} {name_stamp_us(sample):7.1f} µs")


# One name per script; each stamp gets a number so that every one is new to the cache.
NAME_SAMPLES = {
    "latin": "Zoë Ñúñez",
    "cyrillic": "Дмитрий",
    "cjk": "张伟",
    "arabic": "محمد علي",
    "devanagari": "राहुल",
    "emoji": "🎲🔥",
}


def name_stamp_us(sample: str, count: int = 600) -> float:
    """The CPU to build the text stamp of a name the bot has not drawn before: what a new
    player's name adds to their first board (later boards find the stamp built)."""
    from renderers.fonts import text_mask

    text_mask(sample, 20, True)  # the fonts and their character maps, loaded once
    times = []
    for number in range(count):
        start = time.process_time()
        text_mask(f"{sample} {number}", 20, True)
        times.append((time.process_time() - start) * 1e6)
    return statistics.median(times)


if __name__ == "__main__":
    main()
