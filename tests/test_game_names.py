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
hooks. Nor do the sentences every game shares (``bot/locales/<locale>.json``) name one: they
take a game's title as a parameter, and what one game adds is in its own catalogue.
"""

from __future__ import annotations

import ast
import enum
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from bot import games, i18n
from bot.engines import common
from bot.translator import translate_text
from tests.toy_game import GAME as TOY

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


def test_the_registry_finds_the_built_in_games_without_naming_one() -> None:
    """A new game is its own files only: the registry (``bot/games/__init__.py``) lists the
    manifests it finds in its package, by their ``order``, and names none of them."""
    names = set(games.kinds())
    registry = (GAMES_PACKAGE / "__init__.py").read_text(encoding="utf-8")
    # Its one import by a computed name is the discovery itself; no game's name is written.
    assert not [what for _, what in offences(registry, names) if what.startswith("the game name")]
    assert not list(game_modules_imported(registry, names))
    assert not [line for line in registry.splitlines() if line.startswith("from bot.games import")]
    manifests = sorted(
        path.stem
        for path in GAMES_PACKAGE.glob("*.py")
        if "GAME"
        in {t.id for t in ast.walk(ast.parse(path.read_text())) if isinstance(t, ast.Name)}
        and path.stem != "__init__"
    )
    found = games.built_in()
    assert sorted(spec.rules.GAME for spec in found) == sorted(s.kind for s in found)
    assert len(found) == len(manifests) >= 3
    ordered = [spec.kind for spec in sorted(found, key=lambda spec: (spec.order, spec.kind))]
    assert list(games.kinds())[: len(found)] == ordered


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


# ---------------------------------------------------------------------------------------------
# A game's own phases and classes

# Modules that belong to one game without its name in theirs: the gallery draws every game's
# boards for the README and the renderer tests (it builds each game's states on purpose), and
# the expert engine (bgsage) and its worker pool play backgammon only (its manifest hands
# them to the service as ``expert=True``).
OWN_UNDER_ANOTHER_NAME = {"renderers/gallery.py", "bot/ai/bgsage_engine.py", "bot/ai/pool.py"}


def own_vocabulary(specs: Iterable[games.GameSpec]) -> tuple[set[str], set[str]]:
    """(identifiers, words) only a game's own modules may use: the names of the classes its
    engine defines and of the phases it adds to the shared ones (``Double``, ``OPENING``),
    and those phases' values and its actions' names in lower case (``"opening"``,
    ``"double"``), which code comparing strings would name them by."""
    shared_names = set(vars(common))
    shared_words = {phase.value for phase in common.Phase}
    identifiers: set[str] = set()
    words: set[str] = set()
    for spec in specs:
        engine = spec.rules
        for name, value in vars(engine).items():
            if not isinstance(value, type) or value.__module__ != getattr(engine, "__name__", ""):
                continue
            if name not in shared_names:
                identifiers.add(name)
            if hasattr(value, "notation"):  # an action
                words.add(name.lower())
            if issubclass(value, enum.Enum):
                for member in value:
                    if member.value not in shared_words:
                        identifiers.add(member.name)
                        words.add(str(member.value))
    return identifiers, words - shared_words


def vocabulary_offences(
    source: str, identifiers: set[str], words: set[str]
) -> Iterator[tuple[int, str]]:
    """(line, what) for each use of a game's own class or phase in ``source``: by name, or
    as a string compared against (``kind in ("double", "take")``)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name) and node.id in identifiers:
            yield node.lineno, f"the game's own name {node.id}"
        elif isinstance(node, ast.Attribute) and node.attr in identifiers:
            yield node.lineno, f"the game's own name .{node.attr}"
        elif isinstance(node, ast.alias) and node.name in identifiers:
            yield node.lineno, f"an import of the game's own {node.name}"
        elif isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                for value in _constants(side):
                    if value in words:
                        yield node.lineno, f"a comparison with the game's own {value!r}"


def _constants(node: ast.expr) -> Iterator[object]:
    if isinstance(node, ast.Constant):
        yield node.value
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        for element in node.elts:
            yield from _constants(element)


def test_no_shared_module_names_a_games_own_phase_or_class() -> None:
    names = set(games.kinds())
    identifiers, words = own_vocabulary(games.all())
    found = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in checked_files(names)
        if path.relative_to(ROOT).as_posix() not in OWN_UNDER_ANOTHER_NAME
        for line, what in vocabulary_offences(path.read_text(encoding="utf-8"), identifiers, words)
    ]
    assert not found, "code outside a game's own modules names its vocabulary:\n" + "\n".join(found)


def test_the_games_own_vocabulary_is_found() -> None:
    identifiers, words = own_vocabulary(games.all())
    assert {"OPENING", "CUBE", "Double", "Take", "Drop", "BackgammonState"} <= identifiers
    assert {"opening", "cube", "double", "take", "drop"} <= words
    assert not {"ROLL", "MOVE", "FINISHED", "Phase", "Roll", "Resign"} & identifiers


@pytest.mark.parametrize(
    "source",
    [
        "def f(state):\n    return state.phase == Phase.OPENING\n",
        "def kind(action):\n    return type(action).__name__.lower() in ('double', 'take')\n",
        "from bot.engines.backgammon import Double\n",
        "def f(state):\n    return state.phase == 'cube'\n",
    ],
)
def test_the_vocabulary_check_finds_each_way_of_naming_it(source: str) -> None:
    identifiers, words = own_vocabulary(games.all())
    assert list(vocabulary_offences(source, identifiers, words))


# ---------------------------------------------------------------------------------------------
# The shared sentences

SHARED_CATALOGUES = ROOT / "bot" / "locales"


def game_names(locale: str) -> set[str]:
    """What a sentence in ``locale`` could name each registered game by: its kind, its title
    and the title the slash commands show in that language (``commands.<locale>.json``)."""
    names: set[str] = set()
    for game in games.all():
        names |= {game.kind, game.title}
        translated = translate_text(game.kind, locale, "choices")
        if translated:
            names.add(translated)
    return names


def naming(sentences: dict[str, str], names: set[str]) -> list[str]:
    """``key: name`` for each sentence naming one of ``names`` as a word, in any case."""
    pattern = re.compile("|".join(rf"\b{re.escape(name)}\b" for name in names), re.IGNORECASE)
    return [
        f"{key}: {found.group()}"
        for key, text in sentences.items()
        if (found := pattern.search(text))
    ]


@pytest.mark.usefixtures("toy_registered")
@pytest.mark.parametrize("locale", i18n.available_locales())
def test_no_shared_sentence_names_a_game(locale: str) -> None:
    """The sentences every game shares take a game's title as a parameter, or say what a
    game has ("more than two seats"); what one game adds is in its own catalogue."""
    path = SHARED_CATALOGUES / f"{locale}.json"
    sentences: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    names = game_names(locale)
    assert {"ur", "Royal Game of Ur", "Ludo", TOY.title} <= names
    assert not naming(sentences, names), "shared sentences name a game"


def test_the_sentence_check_finds_a_game_by_any_of_its_names() -> None:
    names = game_names("de")
    assert "Königliches Spiel von Ur" in names
    sentences = {
        "a": "Hints for Ur come from the solved table.",
        "b": "in LUDO an idle seat is handed to the AI.",
        "c": "Tipps für Königliches Spiel von Ur kommen aus der Tabelle.",
        "d": "Your hourly turn: `tabula table build`, for games of more than two seats.",
    }
    found = naming(sentences, names)
    assert found == ["a: Ur", "b: LUDO", "c: Königliches Spiel von Ur"]
