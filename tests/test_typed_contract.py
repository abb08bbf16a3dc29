"""The game contract is typed: a manifest's engine, renderer, menu, texts, AI and hint are
checked against each other by mypy, and the contract's signatures say what they take (no
``Any``)."""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from mypy import api

from bot.engines.common import Rules
from bot.games.menu import Menu
from bot.games.spec import GameSpec, PositionTools
from bot.games.texts import GameTexts
from renderers import Renderer
from renderers.rule_pictures import RulePicture

ROOT = Path(__file__).resolve().parents[1]

# Ur's manifest wired once right, then with one other game's part at a time: each line marked
# ``# wrong`` must be an error, and no other line.
SNIPPET = """
from dataclasses import replace

from bot.ai import ludo as ludo_ai
from bot.ai import ur as ur_ai
from bot.engines import ludo as ludo_engine
from bot.engines import ur as ur_engine
from bot.games import backgammon, ur
from bot.games.ludo_menus import LudoMenu
from bot.games.ludo_texts import LudoTexts
from bot.games.spec import GameSpec, moves_only, seats_unused, worded
from bot.games.ur_menus import UrMenu
from bot.games.ur_solved import table_hint
from bot.games.ur_texts import UrTexts
from renderers import ludo as ludo_renderer
from renderers import ur as ur_renderer

RIGHT: GameSpec[ur_engine.UrState, ur_engine.Move] = GameSpec(
    kind="ur-again",
    title="Ur again",
    rules=ur_engine,
    renderer=ur_renderer,
    menu=UrMenu(),
    texts=UrTexts(),
    file=ur.GAME.file,
    choose=moves_only(seats_unused(ur_ai.choose_action)),
    hint=worded(table_hint, UrTexts().hint),
)
UR = ur.GAME
A = replace(UR, rules=ludo_engine)  # wrong
B = replace(UR, renderer=ludo_renderer)  # wrong
C = replace(UR, menu=LudoMenu())  # wrong
D = replace(UR, texts=LudoTexts())  # wrong
E = replace(UR, choose=moves_only(ludo_ai.choose_action))  # wrong
F = replace(UR, hint=worded(table_hint, backgammon.TEXTS.hint))  # wrong
G = replace(UR, positions=backgammon.GAME.positions)  # wrong
"""


def test_mypy_catches_a_part_of_another_game(tmp_path: Path) -> None:
    snippet = tmp_path / "wiring.py"
    snippet.write_text(SNIPPET, encoding="utf-8")
    out, err, status = api.run(
        ["--config-file", str(ROOT / "pyproject.toml"), "--no-error-summary", str(snippet)]
    )
    assert not err, err
    # By the file's name: mypy's cache may report a snippet of the same text where an earlier
    # run wrote it.
    errors = {int(found) for found in re.findall(r"wiring\.py:(\d+): error:", out)}
    lines = SNIPPET.splitlines()
    wrong = {number for number, line in enumerate(lines, start=1) if line.endswith("# wrong")}
    assert len(wrong) == 7
    assert errors == wrong, out
    assert status == 1


def _annotations(hints: dict[str, object]) -> Iterator[tuple[str, object]]:
    for name, hint in hints.items():
        yield from _parts(name, hint)


def _parts(where: str, hint: object) -> Iterator[tuple[str, object]]:
    """``hint`` and every type inside it (union members, generic and Callable arguments)."""
    yield where, hint
    for arg in typing.get_args(hint):
        if isinstance(arg, list):  # a Callable's parameter list
            for item in arg:
                yield from _parts(where, item)
        else:
            yield from _parts(where, arg)


def _method_hints(cls: type) -> Iterator[tuple[str, object]]:
    for name, member in inspect.getmembers(cls, inspect.isfunction):
        if name.startswith("_") or member.__qualname__.split(".")[0] != cls.__name__:
            continue
        for where, part in _annotations(typing.get_type_hints(member)):
            yield f"{cls.__name__}.{name}: {where}", part


def _field_hints(cls: type) -> Iterator[tuple[str, object]]:
    for where, part in _annotations(typing.get_type_hints(cls)):
        yield f"{cls.__name__}.{where}", part


SIGNATURES: dict[str, Callable[[], Iterator[tuple[str, object]]]] = {
    "Rules": lambda: _method_hints(Rules),
    "GameSpec": lambda: _field_hints(GameSpec),
    "Menu": lambda: _method_hints(Menu),
    "GameTexts": lambda: _method_hints(GameTexts),
    "Renderer": lambda: _method_hints(Renderer),
    "PositionTools": lambda: _field_hints(PositionTools),
    "RulePicture": lambda: _field_hints(RulePicture),
}


@pytest.mark.parametrize("name", SIGNATURES)
def test_the_contract_says_what_it_takes(name: str) -> None:
    parts = list(SIGNATURES[name]())
    assert len(parts) > 5  # the walk found the signatures
    assert [where for where, part in parts if part is typing.Any] == []


def test_the_walk_finds_any() -> None:
    """The check above can fail: a signature with ``Any`` inside a Callable is found."""

    class Loose:
        hook: Callable[[int, typing.Any], str | None]

    assert [part for _, part in _field_hints(Loose) if part is typing.Any] == [typing.Any]
