"""Every game: seeded playouts render, PNG bounds, cache isolation, thread safety."""

from __future__ import annotations

import copy
import io
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from PIL import Image, ImageChops

import renderers
from bot.engines import backgammon, ludo, ur
from renderers import PlayerInfo, render, render_png
from renderers import backgammon as bg_renderer
from renderers import ludo as ludo_renderer
from renderers import ur as ur_renderer
from renderers.png import encode_indexed
from tests.renderers.helpers import playout

MAX_PNG = 100 * 1024
GAMES: list[tuple[Any, Any, dict[str, Any] | None]] = [
    (ur, ur_renderer, None),
    (ludo, ludo_renderer, None),
    (backgammon, bg_renderer, {"match_length": 3}),
]
SIZES = {
    "ur": (ur_renderer.WIDTH, ur_renderer.HEIGHT),
    "ludo": (ludo_renderer.WIDTH, ludo_renderer.HEIGHT),
    "backgammon": (bg_renderer.WIDTH, bg_renderer.HEIGHT),
}


@pytest.mark.parametrize(("rules", "module", "options"), GAMES, ids=["ur", "ludo", "backgammon"])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_state_of_seeded_games_renders(
    rules: Any, module: Any, options: dict[str, Any] | None, seed: int
) -> None:
    size = SIZES[rules.GAME]
    for index, state in enumerate(playout(rules, seed, options)):
        theme = ("dark", "light")[index % 2]
        perspective = index % len(rules.SEATS)
        image = render(state, renderer=module, perspective=perspective, theme=theme)
        assert image.size == size
        assert image.mode == "RGB"
        if index % 25 == 0 or state.phase.value == "finished":
            png = render_png(state, renderer=module, perspective=perspective, theme=theme)
            assert len(png) <= MAX_PNG
            decoded = Image.open(io.BytesIO(png))
            assert decoded.size == size


@pytest.mark.parametrize(("rules", "module", "options"), GAMES, ids=["ur", "ludo", "backgammon"])
def test_png_is_the_render_on_the_palette(
    rules: Any, module: Any, options: dict[str, Any] | None
) -> None:
    state = module.sample_states()[2]
    png = render_png(state, renderer=module, theme="light")
    decoded = Image.open(io.BytesIO(png))
    decoded.load()
    assert decoded.mode == "P"
    expected = render(state, renderer=module, theme="light").quantize(
        palette=module.palette("light"), dither=Image.Dither.NONE
    )
    assert decoded.tobytes() == expected.tobytes()
    # Every colour of the RGB render lands on a near palette colour.
    red, green, blue = ImageChops.difference(
        decoded.convert("RGB"), render(state, renderer=module, theme="light")
    ).split()
    worst = ImageChops.lighter(ImageChops.lighter(red, green), blue).histogram()
    assert sum(worst[41:]) / sum(worst) < 0.002


def test_encode_indexed_round_trips() -> None:
    image = Image.new("P", (7, 3))
    image.putpalette([10, 20, 30, 200, 100, 0] + [0] * 762)
    image.putpixel((2, 1), 1)
    decoded = Image.open(io.BytesIO(encode_indexed(image)))
    assert decoded.tobytes() == image.tobytes()
    assert decoded.convert("RGB").getpixel((2, 1)) == (200, 100, 0)
    with pytest.raises(ValueError):
        encode_indexed(Image.new("RGB", (2, 2)))


def _states() -> list[tuple[Any, dict[str, Any]]]:
    bg_states = bg_renderer.sample_states()
    return [
        (ur_renderer.sample_states()[1], {"renderer": ur_renderer, "theme": "dark"}),
        (bg_states[1], {"renderer": bg_renderer, "perspective": 1, "theme": "light"}),
        (ludo_renderer.sample_states()[3], {"renderer": ludo_renderer, "perspective": 2}),
        (bg_states[3], {"renderer": bg_renderer, "players": [PlayerInfo("Zed", 1)]}),
    ]


def _drawn_png(state: Any, **options: Any) -> bytes:
    """``render_png`` drawn and encoded anew, not the PNG kept from an earlier call."""
    renderers.recent_pngs.clear()
    return render_png(state, **options)


def test_caches_do_not_leak_between_renders() -> None:
    (a, a_opts), (b, b_opts), *_ = _states()
    first = _drawn_png(a, **a_opts)
    _drawn_png(b, **b_opts)
    assert _drawn_png(a, **a_opts) == first
    start = backgammon.apply(backgammon.new_game(), backgammon.Roll((3, 1)))
    plain = _drawn_png(start, renderer=bg_renderer)
    play = backgammon.legal_plays_for(start)[0]
    with_preview = _drawn_png(
        start, renderer=bg_renderer, preview_steps=play.steps[:1], highlight=8
    )
    assert with_preview != plain
    assert _drawn_png(start, renderer=bg_renderer) == plain


def test_renders_agree_across_threads() -> None:
    jobs = _states() * 3
    serial = [_drawn_png(state, **opts) for state, opts in jobs]
    # No reuse between the threads' calls: each draws and encodes, at the same time.
    renderers.recent_pngs.clear()
    keep = renderers.recent_pngs.size
    renderers.recent_pngs.size = 0
    try:
        with ThreadPoolExecutor(max_workers=4) as pool:
            parallel = list(pool.map(lambda job: render_png(job[0], **job[1]), jobs))
    finally:
        renderers.recent_pngs.size = keep
    assert parallel == serial


def test_a_board_shown_again_is_encoded_once() -> None:
    (state, options), (other, other_options), *_ = _states()
    renderers.recent_pngs.clear()
    first = render_png(state, **options)
    assert render_png(state, **options) is first  # the edit's PNG, reused by a repost
    assert render_png(other, **other_options) != first
    # An equal state (as loaded again from the database) finds it too.
    assert render_png(copy.deepcopy(state), **options) is first
    assert render_png(state, **{**options, "highlight": 99}) is not first
    # Bounded: the oldest boards go first.
    renderers.recent_pngs.clear()
    keep = renderers.recent_pngs.size
    renderers.recent_pngs.size = 2
    try:
        a = render_png(state, **options)
        render_png(other, **other_options)
        render_png(state, **{**options, "theme": "light"})
        assert render_png(state, **options) is not a
        assert render_png(state, **options) == a
    finally:
        renderers.recent_pngs.size = keep


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        render(ur.new_game(), renderer=ur_renderer, theme="sepia")
    with pytest.raises(ValueError):
        render(ur.new_game(), renderer=ur_renderer, perspective=2)


def test_warm_builds_every_cache() -> None:
    renderers.warm([ur_renderer, ludo_renderer, bg_renderer], ("dark",))
    assert ur_renderer.palette("dark") is ur_renderer.palette("dark")
