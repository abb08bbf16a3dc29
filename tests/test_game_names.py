"""No code names a game outside the game's own modules: everything else asks the registry.

A game's own modules are its manifest and helpers in ``bot/games/``, and the modules named
after it anywhere (``bot/engines/ur.py``, ``bot/ai/ludo_eval.py``, ``renderers/backgammon.py``,
``bot/ui/ludo_review.py``, ...). Everywhere else in ``bot/``, ``cogs/`` and ``renderers/``
the check finds, by reading the syntax tree:

- a string constant equal to a registered game's name (``game == "ur"``, ``{"ludo": ...}``),
- a module imported by a computed name (``importlib.import_module(f"bot.ai.{game}")``),
- a game told from a state's module (``type(state).__module__``).

And the layers every game shares (the service, the UI, the bot, the cogs) import no game's
own module, but in a game's own module there (``bot/ui/backgammon_review.py``): what they
need of a game (its table at start-up, its hints, its review) comes through the manifest's
hooks.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import games

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("bot", "cogs", "renderers")
GAMES_PACKAGE = ROOT / "bot" / "games"


def own_module(path: Path, names: set[str]) -> bool:
    """Whether ``path`` belongs to one game: in ``bot/games``, or named after a game."""
    if GAMES_PACKAGE in path.parents:
        return True
    return any(path.stem == name or path.stem.startswith(f"{name}_") for name in names)


def offences(source: str, names: set[str]) -> Iterator[tuple[int, str]]:
    """(line, what) for each way ``source`` names a game."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and node.value in names:
            yield node.lineno, f"the game name {node.value!r}"
        elif isinstance(node, ast.Attribute) and node.attr == "__module__":
            yield node.lineno, "a game told from a module name (__module__)"
        elif isinstance(node, ast.Call) and _imports_by_computed_name(node):
            yield node.lineno, "a module imported by a computed name"


def _imports_by_computed_name(call: ast.Call) -> bool:
    function = call.func
    name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
    if name not in ("import_module", "__import__") or not call.args:
        return False
    return not isinstance(call.args[0], ast.Constant)


def checked_files(names: set[str]) -> list[Path]:
    paths = (path for folder in FOLDERS for path in sorted((ROOT / folder).rglob("*.py")))
    return [path for path in paths if not own_module(path, names)]


def test_only_a_games_own_modules_name_it() -> None:
    names = set(games.kinds())
    found = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in checked_files(names)
        for line, what in offences(path.read_text(encoding="utf-8"), names)
    ]
    assert not found, "code outside a game's own modules names a game:\n" + "\n".join(found)


SHARED_LAYERS = ("bot/service", "bot/ui", "bot/client.py", "cogs")


def game_modules_imported(source: str, names: set[str]) -> Iterator[tuple[int, str]]:
    """(line, module) for each module named after a game that ``source`` imports."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        else:
            continue
        for module in modules:
            stem = module.rpartition(".")[2]
            if any(stem == name or stem.startswith(f"{name}_") for name in names):
                yield node.lineno, module


def test_the_shared_layers_import_no_games_own_module() -> None:
    names = set(games.kinds())
    paths = [
        path
        for layer in SHARED_LAYERS
        for path in (
            [ROOT / layer] if layer.endswith(".py") else sorted((ROOT / layer).rglob("*.py"))
        )
    ]
    found = [
        f"{path.relative_to(ROOT)}:{line}: imports {module}"
        for path in paths
        if not own_module(path, names)
        for line, module in game_modules_imported(path.read_text(encoding="utf-8"), names)
    ]
    assert len(paths) > 20
    assert not found, "a shared layer imports a game's own module:\n" + "\n".join(found)


def test_the_import_check_finds_a_games_module() -> None:
    source = "from bot.ai import ur_table\nimport bot.service.ludo_review\nfrom bot import games\n"
    assert [m for _, m in game_modules_imported(source, {"ur", "ludo"})] == [
        "bot.ai.ur_table",
        "bot.service.ludo_review",
    ]


def test_the_check_covers_the_shared_layers() -> None:
    names = set(games.kinds())
    checked = {path.relative_to(ROOT).as_posix() for path in checked_files(names)}
    assert {"bot/ui/texts.py", "bot/service/games.py", "cogs/games.py"} <= checked
    assert {"renderers/__init__.py", "bot/engines/__init__.py", "bot/storage/games.py"} <= checked
    assert not {"bot/games/ur.py", "bot/engines/ludo.py", "renderers/backgammon.py"} & checked


@pytest.mark.parametrize(
    "source",
    [
        'def headline(kind: str) -> str:\n    return "x" if kind == "ur" else ""\n',
        'TITLES = {"ludo": "Ludo"}\n',
        'import importlib\n\ndef ai(game):\n    return importlib.import_module(f"bot.ai.{game}")\n',
        "def game_of(state):\n    return type(state).__module__\n",
    ],
)
def test_the_check_finds_each_way_of_naming_a_game(source: str) -> None:
    assert list(offences(source, {"backgammon", "ur", "ludo"}))


def test_the_check_leaves_other_text_alone() -> None:
    source = 'import importlib\nX = importlib.import_module("bgsage")\nDOC = "an ur board"\n'
    assert not list(offences(source, {"backgammon", "ur", "ludo"}))
