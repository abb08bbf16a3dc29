"""A game's own table command: ``tabula <command>`` finds it in the registry (the command
line names no game), and its table is found in ``GAME_TABLES``, by default beside the
database."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from bot import cli, games
from bot.config import Settings, TablePaths, game_table_path
from bot.games.spec import TableTool
from tests.toy_game import GAME as TOY

CALLS: list[list[str]] = []


def _run(arguments: Sequence[str]) -> int:
    CALLS.append(list(arguments))
    return 7


@pytest.fixture
def toy_with_a_table() -> Iterator[None]:
    games.register(replace(TOY, table_tool=TableTool("toy-table", _run, "toy.bin")))
    CALLS.clear()
    yield
    games.unregister(TOY.kind)


@pytest.mark.usefixtures("toy_with_a_table")
def test_the_command_line_runs_a_registered_games_table_command() -> None:
    assert cli.run(["toy-table", "build", "--out", "x.bin"]) == 7
    assert CALLS == [["build", "--out", "x.bin"]]


def test_a_word_no_game_declares_is_refused_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.run(["no-such-table", "build"])
    assert exit_.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_a_games_table_is_in_game_tables_or_beside_the_database(tmp_path: Path) -> None:
    settings = Settings.model_validate(
        {"discord_token": "x", "database_path": tmp_path / "db" / "tabula.db"}
    )
    assert game_table_path(settings, "toy.bin") == tmp_path / "db" / "toy.bin"
    chosen = settings.model_copy(update={"game_tables": tmp_path / "tables"})
    assert game_table_path(chosen, "toy.bin") == tmp_path / "tables" / "toy.bin"
    paths = TablePaths.model_validate({"game_tables": str(tmp_path)})
    assert game_table_path(paths, "toy.bin") == tmp_path / "toy.bin"


@pytest.mark.usefixtures("toy_with_a_table")
def test_the_command_lines_help_names_the_games_table_commands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.run(["--help"])
    assert exit_.value.code == 0
    assert "toy-table" in capsys.readouterr().out
