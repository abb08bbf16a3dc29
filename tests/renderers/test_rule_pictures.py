"""/rules pictures: real positions that each show their rule, drawn with the move marked."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.engines import backgammon as bg
from bot.engines import ludo, ur
from bot.engines.common import Phase
from renderers import backgammon as bg_renderer
from renderers import backgammon_rules, ludo_rules, render_png, ur_rules
from renderers import ludo as ludo_renderer
from renderers import ur as ur_renderer
from renderers.rule_pictures import RulePicture, picture_pngs

RULES = {
    "ur": ["enter", "capture", "rosette", "bear_off"],
    "ludo": ["leave_base", "capture", "block", "home"],
    "backgammon": ["enter", "hit", "bear_off", "cube"],
}
LOCALES = Path(__file__).resolve().parents[2] / "bot" / "games" / "locales"  # each game's own
# Per game: its engine, its renderer and the module that makes its pictures.
GAMES: dict[str, tuple[Any, Any, Any]] = {
    "ur": (ur, ur_renderer, ur_rules),
    "ludo": (ludo, ludo_renderer, ludo_rules),
    "backgammon": (bg, bg_renderer, backgammon_rules),
}


def pictures(game: str) -> list[RulePicture]:
    return GAMES[game][2].pictures()


def _by_rule(game: str) -> dict[str, RulePicture]:
    return {picture.rule: picture for picture in pictures(game)}


@pytest.mark.parametrize("game", sorted(RULES))
def test_each_game_has_its_pictures_with_captions(game: str) -> None:
    assert [p.rule for p in pictures(game)] == RULES[game]
    catalogues = [
        json.loads((LOCALES / game / f"{name}.json").read_text()) for name in ("en", "de")
    ]
    for picture in pictures(game):
        for catalogue in catalogues:
            caption = catalogue[picture.caption_key]
            assert caption and "\n" not in caption and len(caption) <= 120


@pytest.mark.parametrize("game", sorted(RULES))
def test_pictures_are_not_the_start_position_and_mark_their_move(game: str) -> None:
    engine, renderer, made = GAMES[game]
    drawn = picture_pngs(made.pictures, renderer)
    assert picture_pngs(made.pictures, renderer) is drawn  # drawn once, then cached
    start = render_png(engine.new_game(), renderer=renderer)
    pngs = [png for _, png in drawn]
    assert len(set(pngs)) == len(pngs)
    for picture, png in zip(pictures(game), pngs, strict=True):
        assert png != start
        assert len(png) <= 100 * 1024
        with Image.open(io.BytesIO(png)) as image:
            assert image.format == "PNG"
        # Without its highlight, preview or last move the picture would look different:
        # the move that shows the rule is drawn on it.
        bare = {k: v for k, v in picture.options.items() if k not in ("highlight", "preview_steps")}
        state = picture.state
        if getattr(state, "last_move", None) is not None:
            state = replace(state, last_move=None)
        if getattr(state, "last_play", None) is not None:
            state = replace(state, last_play=None)
        assert render_png(state, renderer=renderer, **bare) != png, picture.rule
        assert picture.game == engine.GAME


def test_ur_pictures_show_their_rules() -> None:
    found = _by_rule("ur")
    for picture in found.values():
        # A roll about to be played, the piece that shows the rule selected.
        assert picture.state is picture.before and picture.before.phase == Phase.MOVE
        assert picture.action in ur.legal_actions(picture.before)
        assert picture.options["highlight"] == picture.action.source
    assert found["enter"].action.source == ur.START
    capture = found["capture"]
    assert ur.is_capture(capture.before.position, capture.action)
    assert capture.before.position.mask("dark") >> capture.action.target & 1  # lands on dark
    rosette = found["rosette"]
    assert rosette.action.target == 8  # the central rosette: safe, and another roll
    after = ur.apply(rosette.before, rosette.action)
    assert after.extra_roll and after.turn == rosette.before.turn
    assert found["bear_off"].action.target == ur.OFF


def test_ludo_pictures_show_their_rules() -> None:
    found = _by_rule("ludo")
    for picture in found.values():
        # The position right after the move, its arrow drawn from the last move.
        assert picture.action in ludo.legal_actions(picture.before)
        assert picture.state == ludo.apply(picture.before, picture.action)
        assert picture.state.last_move is not None
    leave = found["leave_base"]
    assert (leave.action.die, leave.action.source, leave.action.target) == (6, 0, 1)
    assert leave.state.extra_turn and leave.state.turn == leave.before.turn
    capture = found["capture"]
    square = ludo.SQUARE[0][capture.action.target]
    holders = capture.before.position.square_holders(square)
    assert len(holders) == 1 and holders[0][0] != 0  # one opposing token stood there
    assert capture.state.last_move.captured is not None
    block = found["block"]
    mover = block.before.turn
    target = block.action.target
    assert block.state.position.steps(mover).count(target) >= 2  # now a block
    blue = block.state.turn
    assert blue != mover and block.state.position.steps(blue)[0] > 0
    # Blue's token behind it may step up to the block but neither onto it nor past it.
    assert any(m.token == 0 for m in ludo.legal_moves(block.state.position, 1))
    for die in range(2, 7):
        assert not [m for m in ludo.legal_moves(block.state.position, die) if m.token == 0]
    assert found["home"].action.target == ludo.HOME


def test_backgammon_pictures_show_their_rules() -> None:
    found = _by_rule("backgammon")
    for rule in ("enter", "hit", "bear_off"):
        picture = found[rule]
        # White's roll drawn with the whole play as a preview.
        assert picture.action in bg.legal_plays_for(picture.before)
        assert picture.options["preview_steps"] == picture.action.steps
    enter = found["enter"]
    assert enter.before.position.mine[bg.BAR - 1] and enter.action.steps[0][0] == bg.BAR
    hit = found["hit"]
    (_, target), *_ = hit.action.steps
    assert hit.before.position.theirs[24 - target] == 1  # a blot on the landing point
    after = bg.apply(hit.before, hit.action)
    assert after.last_play is not None and after.last_play.hits[0]
    assert all(t == bg.OFF for _, t in found["bear_off"].action.steps)
    cube = found["cube"]
    assert cube.state.phase is bg.Phase.CUBE and cube.state == bg.apply(cube.before, bg.Double())
    assert cube.state.last_play is not None  # the play before the offer stays in view
