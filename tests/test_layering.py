"""The layers point one way: engines and AI use the standard library only; renderers and
storage never reach up into the service, the UI or discord; the UI and the cogs reach storage
only through the service."""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import TypeVar

import pytest

ROOT = Path(__file__).resolve().parents[1]
STDLIB = set(sys.stdlib_module_names)
SOLVER_EXTRA = {"numpy", "numba"}  # pyproject's `solver` extra, for bot/ai's table builders only


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            # ``from bot import storage`` imports the module bot.storage.
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("path", files("bot/engines") + files("bot/ai"), ids=lambda p: p.name)
def test_engines_and_ai_use_only_the_standard_library(path: Path) -> None:
    allowed_own = ("bot.engines", "bot.ai")
    for name in imported_modules(path):
        top = name.split(".")[0]
        if name.startswith(allowed_own) or top == "__future__":
            continue
        if top == "bot" and "bot/ai" in str(path) and name.startswith("bot.engines"):
            continue
        if top in SOLVER_EXTRA and "solver" in path.stem.split("_"):
            continue  # the table builder, an optional extra; the bot reads tables with the stdlib
        assert top in STDLIB, f"{path.relative_to(ROOT)} imports {name}"


def test_engines_do_not_import_the_ai() -> None:
    for path in files("bot/engines"):
        assert not any(n.startswith("bot.ai") for n in imported_modules(path)), path


@pytest.mark.parametrize("path", files("renderers"), ids=lambda p: p.name)
def test_renderers_are_pure_pillow(path: Path) -> None:
    for name in imported_modules(path):
        top = name.split(".")[0]
        assert top not in ("discord", "aiosqlite", "cogs"), f"{path.name} imports {name}"
        assert not name.startswith(("bot.storage", "bot.service", "bot.ui")), name


@pytest.mark.parametrize("path", files("bot/storage"), ids=lambda p: p.name)
def test_storage_knows_nothing_above_it(path: Path) -> None:
    for name in imported_modules(path):
        top = name.split(".")[0]
        assert top not in ("discord", "PIL", "renderers", "cogs"), f"{path.name} imports {name}"
        assert not name.startswith(("bot.engines", "bot.service", "bot.ui")), name


@pytest.mark.parametrize("path", files("bot/ui") + files("cogs"), ids=lambda p: p.name)
def test_ui_and_cogs_reach_storage_only_through_the_service(path: Path) -> None:
    for name in imported_modules(path):
        assert name != "bot.storage" and not name.startswith("bot.storage."), (
            f"{path.relative_to(ROOT)} imports {name}"
        )


def test_the_layering_check_sees_every_form_of_import(tmp_path: Path) -> None:
    source = tmp_path / "sample.py"
    source.write_text(
        "import bot.storage.games\nfrom bot import storage\nfrom bot.storage import load_game\n",
        encoding="utf-8",
    )
    names = imported_modules(source)
    assert {"bot.storage.games", "bot.storage", "bot.storage.load_game"} <= names


@pytest.mark.parametrize("path", files("bot/games"), ids=lambda p: p.name)
def test_game_manifests_sit_below_the_ui(path: Path) -> None:
    """Manifests join a game's engine, AI, renderer and files; the service reads them, so they
    reach neither the UI nor discord (a review's Discord side is named, not imported)."""
    for name in imported_modules(path):
        top = name.split(".")[0]
        assert top not in ("discord", "cogs"), f"{path.name} imports {name}"
        assert not name.startswith(("bot.ui", "bot.client", "bot.service")), name


@pytest.mark.parametrize("path", files("bot/vocabulary"), ids=lambda p: p.name)
def test_the_shared_vocabulary_is_a_leaf(path: Path) -> None:
    """Refusal keys, options and review labels are the words manifests and the service both
    use; they import nothing of the bot, so neither reaches the other through them."""
    for name in imported_modules(path):
        top = name.split(".")[0]
        assert top == "__future__" or top in STDLIB or name.startswith("bot.vocabulary"), name


@pytest.mark.parametrize("path", files("sandbox"), ids=lambda p: p.name)
def test_the_discord_emulator_knows_nothing_of_the_bot(path: Path) -> None:
    """``sandbox`` plays Discord for the bot (a subprocess it starts): it speaks Discord's
    API, so it never imports the bot, its cogs or its renderers."""
    for name in imported_modules(path):
        assert name.split(".")[0] not in ("bot", "cogs", "renderers", "discord"), (
            f"{path.relative_to(ROOT)} imports {name}"
        )


def test_the_direction_check_catches_a_manifest_reaching_up(tmp_path: Path) -> None:
    source = tmp_path / "manifest.py"
    source.write_text("from bot.service.models import Game\n", encoding="utf-8")
    assert any(n.startswith("bot.service") for n in imported_modules(source))


def test_renderers_and_engines_do_not_know_the_manifests() -> None:
    for path in files("bot/engines") + files("bot/ai") + files("renderers"):
        assert not any(n.startswith("bot.games") for n in imported_modules(path)), path


def test_sql_lives_only_in_storage() -> None:
    for folder in ("bot/engines", "bot/ai", "bot/service", "bot/ui", "cogs", "renderers"):
        for path in files(folder):
            text = path.read_text(encoding="utf-8")
            assert "aiosqlite" not in text and "sqlite3" not in text, path


# -- one door to Discord ---------------------------------------------------------------------

OUTBOX = ROOT / "bot" / "ui" / "outbox.py"
# Ways to reach Discord with the bot token (discord.py's REST entry points).
TOKEN_DOORS = {
    "get_partial_messageable",
    "get_partial_message",
    "create_thread",
    "create_scheduled_event",
    "edit_scheduled_event",
    "fetch_channel",
    "fetch_user",
    "fetch_member",
    "fetch_message",
    "fetch_guild",
    "create_dm",
    "fetch_session_start_limits",
    "http",
}
SENDS = {"send", "edit", "delete", "reply", "add_reaction", "pin"}
# Receivers whose sends are no bot-token request: an interaction's own answers, the doors
# themselves, and the expert's worker pipes.
THROUGH = ("followup", "response", "outbox", "courier", "conn")


def bot_token_requests(path: Path) -> list[str]:
    """Where ``path`` would make a bot-token request itself, as ``line: source``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Attribute):
            continue
        receiver = ast.unparse(node.value)
        door = node.attr in TOKEN_DOORS and receiver != "discord"  # discord.http: the module
        sent = node.attr in SENDS and not receiver.split(".")[-1].endswith(THROUGH)
        if door or sent:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_every_bot_token_request_leaves_through_the_outbox() -> None:
    """The pacer counts what passes the Outbox; a request made anywhere else would spend the
    bot's one budget unseen (``bot.ui.outbox``)."""
    checked = [p for p in files("bot") + files("cogs") if p != OUTBOX]
    assert len(checked) > 100
    elsewhere = {
        str(p.relative_to(ROOT)): found for p in checked if (found := bot_token_requests(p))
    }
    assert elsewhere == {}
    assert bot_token_requests(OUTBOX), "the check no longer sees the Outbox's own requests"


def test_the_door_check_sees_a_post_made_around_the_outbox(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text(
        "async def post(client, interaction):\n"
        "    await interaction.followup.send('fine')\n"
        "    await client.get_partial_messageable(1).send('around the pacer')\n"
        "    await interaction.channel.send('the bot token too')\n"
        "    await interaction.message.edit(content='and this')\n",
        encoding="utf-8",
    )
    assert sorted(line.split(":")[0] for line in bot_token_requests(sneaky)) == ["3", "3", "4", "5"]


# The top floor's classes stay small enough to read in one sitting (issue 44).
UI_CLASS_LINES = 350


def class_lengths(path: Path) -> dict[str, int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name: (node.end_lineno or node.lineno) - node.lineno + 1
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
    }


def test_every_ui_class_is_small() -> None:
    lengths = {name: n for path in files("bot/ui") for name, n in class_lengths(path).items()}
    assert {"GameDriver", "ChallengeUI", "TournamentUI"} <= set(lengths)
    over = {name: n for name, n in lengths.items() if n > UI_CLASS_LINES}
    assert not over, f"bot/ui classes over {UI_CLASS_LINES} lines: {over}"


# The Discord emulator's classes too: each role of the fake Discord in a module of its own.
SANDBOX_CLASS_LINES = 400


def test_every_sandbox_class_is_small() -> None:
    lengths = {name: n for path in files("sandbox") for name, n in class_lengths(path).items()}
    assert {"FakeDiscord", "RestApi", "World", "Gateway"} <= set(lengths)
    over = {name: n for name, n in lengths.items() if n > SANDBOX_CLASS_LINES}
    assert not over, f"sandbox classes over {SANDBOX_CLASS_LINES} lines: {over}"


def test_the_size_check_counts_a_class_whole(tmp_path: Path) -> None:
    module = tmp_path / "big.py"
    body = "".join(f"    def m{i}(self) -> int:\n        return {i}\n\n" for i in range(200))
    module.write_text(f"class Big:\n{body}", encoding="utf-8")
    assert class_lengths(module) == {"Big": 600}


def test_the_board_view_is_plain_data() -> None:
    """What a board says and offers is decided without Discord (``bot.ui.board_view``)."""
    imported = imported_modules(ROOT / "bot/ui/board_view.py")
    assert not {name for name in imported if name.split(".")[0] == "discord"}
    reached = {name for name in imported if name.startswith("bot.ui.")}
    for name in sorted(reached):
        module = ROOT / (name.replace(".", "/") + ".py")
        if module.exists():
            assert "discord" not in {n.split(".")[0] for n in imported_modules(module)}, name


# -- one list of components --------------------------------------------------------------------

CLIENT = ROOT / "bot" / "client.py"
LIFECYCLE = {"start", "recover", "stop"}
N = TypeVar("N", bound=ast.expr)


def ui_components(paths: list[Path]) -> dict[str, bool]:
    """The classes of ``paths`` that own routes (``self.routes = ...`` or a class-level
    ``routes``) or subclass ``Component``, each with whether it subclasses ``Component``."""
    found: dict[str, bool] = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef) or node.name == "Component":
                continue
            component = "Component" in {ast.unparse(base) for base in node.bases}
            targets = [
                target
                for inner in ast.walk(node)
                if isinstance(inner, ast.Assign | ast.AnnAssign)
                for target in (inner.targets if isinstance(inner, ast.Assign) else [inner.target])
            ]
            owns_routes = any(
                ast.unparse(target) in ("self.routes", "routes") for target in targets
            )
            if component or owns_routes:
                found[node.name] = component
    return found


def setup_hook_of(client: ast.Module) -> ast.AsyncFunctionDef:
    [setup] = [
        node
        for node in ast.walk(client)
        if isinstance(node, ast.AsyncFunctionDef) and node.name == "setup_hook"
    ]
    return setup


def listed(client: ast.Module) -> dict[str, str]:
    """The components ``setup_hook`` hands to ``Components``: the bot's attribute of each,
    and its class, in the list's order."""
    setup = setup_hook_of(client)
    built = {
        ast.unparse(node.targets[0]): node.value.func.id
        for node in ast.walk(setup)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
    }
    [call] = [
        node
        for node in ast.walk(setup)
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "Components"
    ]
    [elements] = call.args
    assert isinstance(elements, ast.List | ast.Tuple), "the components are one literal list"
    return {ast.unparse(element): built[ast.unparse(element)] for element in elements.elts}


def in_line_order(tree: ast.Module, kind: type[N]) -> list[N]:
    found = [node for node in ast.walk(tree) if isinstance(node, kind)]
    return sorted(found, key=lambda node: (node.lineno, node.col_offset))


def wiring_problems(client: ast.Module, components: dict[str, bool]) -> list[str]:
    """What in ``client`` wires a component around the one list: a component left out of it,
    a listed class that is no ``Component``, routes registered from elsewhere, a component's
    lifecycle called by hand."""
    in_list = listed(client)
    classes = set(in_list.values())
    problems = [f"{name} is not in the list" for name in components if name not in classes]
    problems += [f"{name} is not a Component" for name in classes if not components.get(name)]
    for node in in_line_order(client, ast.Attribute):
        owner = ast.unparse(node.value)
        if node.attr == "routes" and owner != "self.components":
            problems.append(f"line {node.lineno}: {ast.unparse(node)} routed outside the list")
        if node.attr in LIFECYCLE and owner in in_list:
            problems.append(f"line {node.lineno}: {ast.unparse(node)} called outside the list")
    router_adds = [
        ast.unparse(node)
        for node in in_line_order(client, ast.Call)
        if ast.unparse(node.func).endswith("router.add")
    ]
    if router_adds != ["self.router.add(*self.components.routes)"]:
        problems.append(f"the router is filled by {router_adds}")
    return problems


def test_setup_hook_wires_every_component_through_one_list() -> None:
    """Every ``bot/ui`` class with routes is a ``Component`` in the list ``setup_hook`` builds,
    whose routes are the only ones the router gets, and whose lifecycle only the list runs
    (``bot/ui/component.py``)."""
    components = ui_components(files("bot/ui"))
    assert {"GameDriver", "ChallengeUI", "TournamentUI", "ClockUI", "Resumer"} <= set(components)
    client = ast.parse(CLIENT.read_text(encoding="utf-8"))
    assert wiring_problems(client, components) == []
    order = list(listed(client).values())
    # Recovery: half-started games, then tournaments, then the boards behind, then the sweep.
    recovering = ["ChallengeUI", "TournamentUI", "GameDriver", "Resumer"]
    assert [name for name in order if name in recovering] == recovering


def test_the_wiring_check_sees_a_component_wired_by_hand(tmp_path: Path) -> None:
    ui = tmp_path / "ui.py"
    ui.write_text(
        "class Listed(Component):\n    routes = ()\n"
        "class Forgotten:\n    def __init__(self):\n        self.routes = [1]\n",
        encoding="utf-8",
    )
    client = ast.parse(
        "class TabulaBot:\n"
        "    async def setup_hook(self):\n"
        "        self.listed = Listed()\n"
        "        self.forgotten = Forgotten()\n"
        "        self.components = Components([self.listed])\n"
        "        self.router.add(*self.components.routes)\n"
        "        self.router.add(*self.forgotten.routes)\n"
        "        self.listed.start()\n"
    )
    components = ui_components([ui])
    assert components == {"Listed": True, "Forgotten": False}
    assert wiring_problems(client, components) == [
        "Forgotten is not in the list",
        "line 7: self.forgotten.routes routed outside the list",
        "line 8: self.listed.start called outside the list",
        "the router is filled by ['self.router.add(*self.components.routes)', "
        "'self.router.add(*self.forgotten.routes)']",
    ]
