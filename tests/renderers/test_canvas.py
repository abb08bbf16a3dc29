"""Boards drawn straight onto their palette (``renderers.canvas``) must be exactly the boards
drawn in RGB and mapped whole, whatever the tile cache holds: empty, warm from other boards,
or evicting all the time."""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from bot.engines import backgammon, ludo, ur
from bot.engines.backgammon_labels import movable_points
from bot.engines.common import Phase
from renderers import PlayerInfo, canvas, render_png
from renderers import backgammon as bg_renderer
from renderers import ludo as ludo_renderer
from renderers import ur as ur_renderer
from renderers.canvas import Canvas, Tiles, map_onto
from renderers.view import View, make_view
from tests.renderers.helpers import playout

GAMES: dict[str, tuple[Any, Any]] = {
    "backgammon": (backgammon, bg_renderer),
    "ur": (ur, ur_renderer),
    "ludo": (ludo, ludo_renderer),
}


def boards(game: str, seeds: range, theme: str) -> Iterator[tuple[Any, View]]:
    """The boards of a few seeded games, interleaved as the bot meets them (many games at
    once), seen as the bot sees them; backgammon also with a point selected and a step
    previewed, as a turn's clicks show it."""
    engine, renderer = GAMES[game]
    games = [list(playout(engine, seed))[:90] for seed in seeds]
    for state in itertools.chain.from_iterable(itertools.zip_longest(*games)):
        if state is None:
            continue
        for perspective in (0, len(renderer.SEATS) - 1):
            players = [PlayerInfo("Alice Mayfield", perspective)]
            yield state, make_view(renderer.SEATS, players, perspective, theme=theme)
        if game == "backgammon" and state.phase is Phase.MOVE:
            movable = movable_points(state, ())
            if movable:
                point = movable[0]
                yield state, make_view(renderer.SEATS, highlight=point, theme=theme)
                steps = backgammon.legal_steps(state.position, state.dice[:2], ())
                if steps:
                    yield state, make_view(renderer.SEATS, preview_steps=[steps[0]], theme=theme)


def assert_same(game: str, state: Any, view: View) -> None:
    renderer = GAMES[game][1]
    expected = map_onto(
        renderer.draw(state, view, indexed=False).image, renderer.palette(view.theme.name)
    )
    drawn = renderer.draw(state, view, indexed=True).image
    assert drawn.mode == "P"
    assert drawn.getpalette() == expected.getpalette()
    assert drawn.tobytes() == expected.tobytes(), f"{game} board differs: {state!r}"


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("theme", ["dark", "light"])
def test_boards_on_the_palette_are_the_mapped_rgb_boards(game: str, theme: str) -> None:
    canvas.tiles.clear()
    for state, view in boards(game, range(3), theme):
        assert_same(game, state, view)
    assert len(canvas.tiles) > 0


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_same_while_the_cache_evicts_all_the_time(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    tiny = Tiles(max_bytes=20_000)  # a few tiles per generation
    monkeypatch.setattr(canvas, "tiles", tiny)
    shown = list(boards(game, range(20, 22), "dark"))[::2]
    for state, view in shown + shown[::-1]:
        assert_same(game, state, view)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_board_drawn_again_builds_nothing(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    canvas.tiles.clear()
    state, view = list(boards(game, range(40, 41), "dark"))[60]
    first = GAMES[game][1].draw(state, view, indexed=True).image
    kept = len(canvas.tiles)
    built: list[object] = []
    original = Tiles.put

    def counting(self: Tiles, *args: Any) -> Any:
        built.append(args[0])
        return original(self, *args)

    monkeypatch.setattr(Tiles, "put", counting)
    again = GAMES[game][1].draw(state, view, indexed=True).image
    assert built == []
    assert len(canvas.tiles) == kept > 5
    assert again.tobytes() == first.tobytes()


def test_the_png_holds_the_board_drawn_on_the_palette() -> None:
    state = list(playout(ur, 3))[30]
    png = render_png(state, renderer=ur_renderer, perspective=0)
    decoded = Image.open(io.BytesIO(png))
    view = make_view(ur_renderer.SEATS, perspective=0)
    assert decoded.tobytes() == ur_renderer.draw(state, view, indexed=True).image.tobytes()


def test_an_rgb_canvas_is_a_plain_copy_of_its_base() -> None:
    base = Image.new("RGB", (40, 30), (10, 20, 30))
    drawn = Canvas(base)
    drawn.paste((200, 0, 0), (5, 5, 15, 15), Image.new("L", (10, 10), 255))
    assert drawn.image.getpixel((6, 6)) == (200, 0, 0)
    assert base.getpixel((6, 6)) == (10, 20, 30)
    assert drawn.size == (40, 30)
