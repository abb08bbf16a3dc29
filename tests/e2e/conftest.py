"""Fixtures: a running FakeDiscord, and bot processes that are always stopped afterwards."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.sandbox.fake_discord import FakeDiscord
from tests.e2e.harness import BotProcess

SpawnBot = Callable[..., BotProcess]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        yield server
    assert not server.server_errors, "the fake Discord itself failed:\n" + "\n".join(
        server.server_errors
    )


@pytest.fixture
async def http(fake: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    """Raw HTTP to the fake, authorised as the bot."""
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(base_url=fake.base_url, headers=headers) as session:
        yield session


@pytest.fixture
async def spawn_bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[SpawnBot]:
    """Make (not start) bot processes sharing one database; all are killed at teardown."""
    made: list[BotProcess] = []

    def make(module: str | Path = "bot", **options: Any) -> BotProcess:
        options.setdefault("database_path", tmp_path / "tabula.sqlite3")
        options.setdefault("log_path", tmp_path / f"bot-{len(made)}.log")
        process = BotProcess(fake, module, **options)
        made.append(process)
        return process

    try:
        yield make
    finally:
        for process in made:
            await process.kill()
            # Shown by pytest only when the test failed.
            print(f"--- {process.log_path} ---\n{process.output_tail(200)}")


@pytest.fixture
async def minibot(spawn_bot: SpawnBot) -> BotProcess:
    process = spawn_bot("tests.e2e.minibot")
    await process.start()
    return process
