"""``DATABASE_URL`` chooses the backend (``DATABASE_PATH`` still works; the URL wins), and
``tabula migrate`` opens what it names, as the bot would: a SQLite file another process
serves is refused with the advice to use PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, database_url, load_settings
from bot.storage import Database, load_migrations
from tests.storage.pg import fresh_database

ROOT = Path(__file__).resolve().parents[2]


def settings_from(tmp_path: Path, text: str) -> str:
    env = tmp_path / "t.env"
    env.write_text("DISCORD_TOKEN=t\n" + text, encoding="utf-8")
    return database_url(load_settings(env))


@pytest.fixture(autouse=True)
def no_database_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DATABASE_URL", "DATABASE_PATH"):
        monkeypatch.delenv(name, raising=False)


def test_the_default_is_the_sqlite_file_of_database_path(tmp_path: Path) -> None:
    assert settings_from(tmp_path, "") == "sqlite:///tabula.db"
    assert settings_from(tmp_path, "DATABASE_PATH=/data/t.db\n") == "sqlite:////data/t.db"


def test_database_url_wins_over_database_path(tmp_path: Path) -> None:
    both = "DATABASE_PATH=/data/t.db\nDATABASE_URL=postgresql://bot@db/tabula\n"
    assert settings_from(tmp_path, both) == "postgresql://bot@db/tabula"
    assert settings_from(tmp_path, "DATABASE_URL=sqlite:///x.db\n") == "sqlite:///x.db"


def test_an_unknown_scheme_is_a_configuration_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="DATABASE_URL must be sqlite:///PATH"):
        settings_from(tmp_path, "DATABASE_URL=mysql://root@db/tabula\n")


def migrate(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "DISCORD_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot", "migrate"],
        cwd=tmp_path,
        env={**clean, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "t", **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def test_migrate_creates_the_schema_on_postgresql(tmp_path: Path) -> None:
    async with fresh_database() as url:
        result = migrate(tmp_path, DATABASE_URL=url, DATABASE_PATH=str(tmp_path / "unused.db"))
        assert result.returncode == 0, result.stderr
        latest = len(load_migrations("postgresql"))
        assert f"database {url} is at schema version {latest}" in result.stdout
        assert not (tmp_path / "unused.db").exists()


async def test_migrate_leaves_a_sqlite_file_another_process_serves(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    async with await Database.open(path, serving=True):  # this test process "is the bot"
        result = migrate(tmp_path, DATABASE_URL=f"sqlite:///{path}")
    assert result.returncode == 2
    assert "already serving this SQLite file" in result.stderr
    assert "use PostgreSQL" in result.stderr
    after = migrate(tmp_path, DATABASE_URL=f"sqlite:///{path}")
    assert after.returncode == 0, after.stderr
