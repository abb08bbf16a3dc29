"""Configuration problems stop the bot at once with exit code 2 and one clear sentence; the
documented example settings file stays in step with ``Settings``."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bot import cli
from bot.config import ConfigError, Settings, load_settings
from sandbox.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
EXIT_CONFIG = 2
RUN_TIMEOUT = 60.0
SETTING_NAMES = [name.upper() for name in Settings.model_fields]


def clean_env(**values: str) -> dict[str, str]:
    """The test runner's environment without any Tabula setting, plus ``values``."""
    env = {k: v for k, v in os.environ.items() if k.upper() not in SETTING_NAMES}
    env["PYTHONPATH"] = str(ROOT)
    env.update(values)
    return env


def tabula(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` in ``cwd`` (an empty folder: no .env unless a test writes one)."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=clean_env(**env),
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
    )


def blocked_path(tmp_path: Path) -> Path:
    """A database path whose folder cannot exist: its parent is a regular file. (Tests run as
    root, so file permissions would not stop anything.)"""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    return blocker / "tabula.db"


# ------------------------------------------------------------------------- settings errors


def test_no_token_exits_2_and_says_where_to_put_it(tmp_path: Path) -> None:
    result = tabula(tmp_path)
    assert result.returncode == EXIT_CONFIG
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert ".env.example" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "tabula.db").exists(), "nothing is created before the check"


@pytest.fixture
def in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Callable[..., tuple[int, str, str]]:
    """``tabula ARGS`` run in this process (fast), in an empty folder, with only ``env`` set."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "configure_logging", lambda settings: None)  # leave pytest's alone

    def tabula_here(*args: str, **env: str) -> tuple[int, str, str]:
        for name in SETTING_NAMES:
            monkeypatch.delenv(name, raising=False)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        code = cli.run(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    return tabula_here


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "   "}, "DISCORD_TOKEN is empty"),
        ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "LOUD"}, "LOG_LEVEL: Input should be"),
        ({"DISCORD_TOKEN": "t", "AI_MOVE_DELAY_SECONDS": "60"}, "AI_MOVE_DELAY_SECONDS"),
        ({"DISCORD_TOKEN": "t", "HEALTH_INTERVAL_SECONDS": "0"}, "HEALTH_INTERVAL_SECONDS"),
    ],
)
def test_check_config_fails_with_a_clear_message(
    in_process: Callable[..., tuple[int, str, str]], env: dict[str, str], message: str
) -> None:
    code, _, err = in_process("check-config", **env)
    assert code == EXIT_CONFIG
    assert err.startswith("tabula: ") and message in err


def test_check_config_accepts_the_environment_or_a_dotenv_file(
    in_process: Callable[..., tuple[int, str, str]], tmp_path: Path
) -> None:
    assert in_process("check-config", DISCORD_TOKEN="t") == (0, "configuration is valid\n", "")
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-file\nLOG_LEVEL=DEBUG\n", "utf-8")
    assert in_process("check-config")[0] == 0
    other = tmp_path / "elsewhere.env"
    other.write_text("LOG_LEVEL=LOUD\n", "utf-8")
    assert in_process("check-config", "--env-file", str(other))[0] == EXIT_CONFIG


def test_check_config_as_a_process(tmp_path: Path) -> None:
    assert tabula(tmp_path, "check-config", DISCORD_TOKEN="t").returncode == 0
    failed = tabula(tmp_path, "check-config", DISCORD_TOKEN="t", LOG_FORMAT="xml")
    assert failed.returncode == EXIT_CONFIG and "LOG_FORMAT" in failed.stderr


def test_load_settings_in_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in SETTING_NAMES:
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(ConfigError, match="DISCORD_TOKEN is not set"):
        load_settings(tmp_path / "missing.env")
    env_file = tmp_path / "x.env"
    env_file.write_text("DISCORD_TOKEN=abc\nLOG_FORMAT=xml\n", "utf-8")
    with pytest.raises(ConfigError, match="LOG_FORMAT"):
        load_settings(env_file)
    env_file.write_text("DISCORD_TOKEN=abc\n", "utf-8")
    assert load_settings(env_file).discord_token.get_secret_value() == "abc"


def test_migrate_with_an_unusable_database_path_exits_2(tmp_path: Path) -> None:
    path = blocked_path(tmp_path)
    result = tabula(tmp_path, "migrate", DISCORD_TOKEN="t", DATABASE_PATH=str(path))
    assert result.returncode == EXIT_CONFIG
    assert "the database cannot be used" in result.stderr
    assert "cannot create directory" in result.stderr
    assert "Traceback" not in result.stderr


def test_migrate_creates_the_database(tmp_path: Path) -> None:
    path = tmp_path / "data" / "tabula.db"
    result = tabula(tmp_path, "migrate", DISCORD_TOKEN="t", DATABASE_PATH=str(path))
    assert result.returncode == 0, result.stderr
    assert "schema version" in result.stdout and path.is_file()


# ------------------------------------------------------------- against the fake Discord


async def run_bot(fake: FakeDiscord, tmp_path: Path, **env: str) -> tuple[int, str]:
    """The real bot, pointed at ``fake``; returns its exit code and its stderr."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=clean_env(**{**fake.env(), "LOG_LEVEL": "WARNING", **env}),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        _, stderr = await asyncio.wait_for(proc.communicate(), RUN_TIMEOUT)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode is not None
    return proc.returncode, stderr.decode(errors="replace")


@pytest.mark.processes
async def test_a_token_discord_rejects_exits_2(tmp_path: Path) -> None:
    async with FakeDiscord(token="the-right-token") as fake:
        code, stderr = await run_bot(
            fake, tmp_path, DISCORD_TOKEN="a-wrong-token", DATABASE_PATH=str(tmp_path / "t.db")
        )
        assert fake.gateway.count("identify") == 0
    assert code == EXIT_CONFIG, stderr
    assert "Discord rejected DISCORD_TOKEN" in stderr
    assert "Traceback" not in stderr


@pytest.mark.processes
async def test_an_unusable_database_stops_the_bot_with_exit_2(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        code, stderr = await run_bot(fake, tmp_path, DATABASE_PATH=str(blocked_path(tmp_path)))
        # Checked before the bot goes online: it never joined the gateway half-working.
        assert fake.gateway.count("identify") == 0
    assert code == EXIT_CONFIG, stderr
    assert re.search(
        r"tabula: the database cannot be used: cannot open database .*tabula\.db", stderr
    )
    assert "cannot create directory" in stderr
    assert "Traceback" not in stderr


# ------------------------------------------------------------------------- .env.example


def example_lines() -> dict[str, tuple[bool, str, str]]:
    """NAME -> (commented out, value, the comment block above it)."""
    found: dict[str, tuple[bool, str, str]] = {}
    comment: list[str] = []
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    for line in text.splitlines():
        setting = re.fullmatch(r"(# )?([A-Z][A-Z0-9_]*)=(.*)", line)
        if setting:
            found[setting[2]] = (bool(setting[1]), setting[3], " ".join(comment))
        elif line.startswith("#"):
            comment.append(line.lstrip("# "))
            continue
        comment = [] if not setting else comment
        if not line.strip():
            comment = []
    return found


def test_env_example_lists_every_setting_with_a_comment_and_its_default() -> None:
    lines = example_lines()
    assert sorted(lines) == sorted(SETTING_NAMES)
    for name, (commented, value, comment) in lines.items():
        assert comment, f"{name} has no comment in .env.example"
        field = Settings.model_fields[name.lower()]
        if field.is_required():
            assert not commented and value == "", f"{name} is required: an empty, live line"
            continue
        assert commented, f"{name} has a default: show it commented out"
        default = "" if field.default is None else str(field.default)
        assert value == default, f"{name}: .env.example says {value!r}, the default is {default!r}"
