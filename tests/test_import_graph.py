"""The import graph of ``bot/``: no cycles (type-checking imports included), and the
Discord-facing components get their collaborators passed in instead of importing the bot."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "bot"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """Modules of ``bot`` that ``path`` imports (``from bot.x import y`` counts ``bot.x.y``
    when that is a module, else ``bot.x``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" for alias in node.names] + [node.module]
        else:
            continue
        for name in names:
            if name in modules:
                found.add(name)
    return found


def graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(paths)
    edges = {name: imports_of(path, modules) - {name} for name, path in paths.items()}
    # A package's __init__ importing its own submodules is not a cycle of the design.
    return {
        name: {t for t in targets if not t.startswith(name + ".")}
        for name, targets in edges.items()
    }


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                return [*stack[stack.index(target) :], target]
            if target not in state and (cycle := visit(target)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_no_import_cycle_in_bot() -> None:
    cycle = find_cycle(graph())
    assert cycle is None, " -> ".join(cycle or [])


def test_the_cycle_finder_finds_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_ui_modules_do_not_import_the_bot() -> None:
    edges = graph()
    offenders = sorted(
        m for m, targets in edges.items() if m.startswith("bot.ui") and "bot.client" in targets
    )
    assert not offenders, offenders
