"""The README tells the truth: every setting is in its table, its command list is /help's, its
quick-start test command is the one CI runs, and its quick test run leaves out the strength
tests however it is typed."""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import discord
import pytest
from discord.ext import commands

from bot.client import COGS
from bot.config import Settings
from cogs.info import HELP_GROUPS

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SECTION = re.compile(r"^(#+) (.+)$", re.MULTILINE)
CODE_NAME = re.compile(r"`([^`]+)`")


def section(title: str) -> str:
    """The README text under the heading ``title``, up to the next heading of its level or
    above."""
    headings = list(SECTION.finditer(README))
    for index, heading in enumerate(headings):
        if heading[2] == title:
            level = len(heading[1])
            end = next(
                (h.start() for h in headings[index + 1 :] if len(h[1]) <= level), len(README)
            )
            return README[heading.end() : end]
    raise AssertionError(f"README.md has no section {title!r}")


def first_cells(table_text: str) -> list[str]:
    rows = [line for line in table_text.splitlines() if line.startswith("| `")]
    return [row.split("|")[1] for row in rows]


def test_every_setting_is_in_the_settings_table() -> None:
    cells = first_cells(section("Settings (environment or `.env`)"))
    documented = {name for cell in cells for name in CODE_NAME.findall(cell)}
    fields = {name.upper() for name in Settings.model_fields}
    assert sorted(fields - documented) == [], "settings missing from the README table"
    assert sorted(documented - fields) == [], "the README documents settings that do not exist"


def registered_commands() -> list[str]:
    """The slash commands the bot's cogs define, read from the cog classes."""
    names = []
    for module_name in COGS:
        module = import_module(module_name)
        for _, cog in inspect.getmembers(module, inspect.isclass):
            if issubclass(cog, commands.Cog) and cog.__module__ == module_name:
                names += [command.name for command in cog.__cog_app_commands__]
    return names


def test_the_readme_commands_are_the_help_commands() -> None:
    in_help = [name for _, names in HELP_GROUPS for name in names]
    assert sorted(in_help) == sorted(registered_commands())
    cells = first_cells(section("Commands"))
    in_readme = [re.match(r"/([a-z]+)", CODE_NAME.findall(cell)[0]) for cell in cells]
    assert [m[1] for m in in_readme if m] == in_help  # in /help's order, too


def quick_start_blocks() -> list[str]:
    return re.findall(r"^```sh\n(.*?)\n```", section("Quick start"), re.DOTALL | re.MULTILINE)


def test_the_readme_test_command_installs_what_it_needs_and_is_what_ci_runs() -> None:
    sandbox, install, test = quick_start_blocks()[:3]
    # The first command tries the bot without Discord (tests/sandbox/ checks what it does).
    assert sandbox.endswith("pip install . && tabula sandbox")
    assert "python3 -m venv .venv && . .venv/bin/activate && pip install ." in install
    # The test command works right after either: it adds the test extra, then tests.
    assert test == 'pip install -e ".[test]" && python -m pytest'
    printed = subprocess.run(
        ["bash", str(ROOT / ".ci" / "run"), "--print-test-command"],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert printed.stdout.strip() == test
    # ... and .ci/run runs what it printed (the last step of the job).
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert script.rstrip().endswith('bash -euo pipefail -c "$test_command"')


def collected(*args: str) -> set[str]:
    """Node ids ``pytest --collect-only -q ARGS`` collects (ARGS may name test modules)."""
    result = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"),
            *("-n", "0"),  # one process: xdist's workers would each collect the suite again
            *args,
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return {line for line in result.stdout.splitlines() if "::" in line}


@pytest.mark.timeout(600)
def test_quick_runs_leave_the_strength_tests_out() -> None:
    # The modules that mark any test ``strength`` (found by their text, so a new one is
    # included): collecting only them proves the rule, at a fraction of the whole suite's
    # collection, four times over.
    modules = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "tests").rglob("test_*.py"))
        if "mark.strength" in path.read_text(encoding="utf-8")
    ]
    assert len(modules) >= 2, modules
    strength = collected("-m", "strength", *modules)
    assert strength, "no strength tests found: the check below would prove nothing"
    for args in (["-m", "not slow"], [], ["-m", "e2e or not e2e"]):
        found = collected(*args, *modules)
        assert found - strength, f"nothing else collected with {args}: the check proves nothing"
        assert not strength & found, f"strength tests collected with {args}"


def test_the_invite_link_asks_for_the_permissions_the_bot_checks() -> None:
    """The invite link's permissions integer is the one the text gives and holds exactly the
    permissions it names: Create Events included, which a tournament's scheduled event needs
    (the bot checks ``create_events`` before making one)."""
    setup = section("Setting up Discord")
    (linked,) = {int(n) for n in re.findall(r"[?&]permissions=(\d+)", setup)}
    assert f"permissions integer `{linked}`" in setup
    granted = discord.Permissions(linked)
    named = {
        "view_channel": "View Channel",
        "send_messages": "Send Messages",
        "embed_links": "Embed Links",
        "attach_files": "Attach Files",
        "read_message_history": "Read Message History",
        "create_public_threads": "Create Public Threads",
        "send_messages_in_threads": "Send Messages in Threads",
        "create_events": "Create Events",
    }
    assert discord.Permissions(**dict.fromkeys(named, True)).value == linked
    assert all(words in " ".join(setup.split()) for words in named.values())
    assert granted.create_events and linked & (1 << 44)
    source = inspect.getsource(import_module("bot.ui.tournament_announcements"))
    assert "guild_permissions.create_events" in source
