"""Fixtures: a running FakeDiscord, and bot processes that are always stopped afterwards.

Every E2E test also checks its own traffic: each request the bot sent to any FakeDiscord
during the test must be valid by Discord's OpenAPI description and documented limits
(``tests/e2e/discord_spec.py``), or the test fails at teardown with the list.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from sandbox.fake_discord import FakeDiscord
from tests.driver.process import BotProcess
from tests.e2e.discord_spec import RAW_TEST_AGENT, check_traffic, load_spec

SpawnBot = Callable[..., BotProcess]

# Every fake started in this test process: how far its request log has been checked, the
# callbacks seen so far, and what was found since the last test's teardown read it.
_CHECKED: weakref.WeakKeyDictionary[FakeDiscord, int] = weakref.WeakKeyDictionary()
_ANSWERED: weakref.WeakKeyDictionary[FakeDiscord, set[str]] = weakref.WeakKeyDictionary()
_FOUND: weakref.WeakKeyDictionary[FakeDiscord, list[str]] = weakref.WeakKeyDictionary()
_CHECKERS: weakref.WeakKeyDictionary[FakeDiscord, asyncio.Task[None]] = weakref.WeakKeyDictionary()
# The requests are judged as they come, every so often on the loop that serves the fake: a
# module's bot sends thousands, and judging them all at a test's teardown held the loop (and
# with it the interactions of games still running in the background) past Discord's 3 s.
CHECK_EVERY = 0.2
UNANSWERED_SECONDS = 10.0


def _check_new(fake: FakeDiscord) -> None:
    spec = load_spec()
    if spec is None:
        return
    since = _CHECKED.get(fake, 0)
    records = list(fake.requests)
    # Only requests the fake has answered (one still arriving has no body yet), or that it
    # never will (a client that hung up): the check must not stop at one of those.
    now = time.monotonic()
    done = next(
        (
            i
            for i in range(since, len(records))
            if records[i].status == 0 and now - records[i].at < UNANSWERED_SECONDS
        ),
        len(records),
    )
    records = records[:done]
    if len(records) == since:
        return
    _CHECKED[fake] = len(records)
    answered = _ANSWERED.setdefault(fake, set())
    found = check_traffic(spec, records, interaction_kind(fake), since=since, answered=answered)
    _FOUND.setdefault(fake, []).extend(str(v) for v in found)


async def _keep_checking(fake: FakeDiscord) -> None:
    while True:
        await asyncio.sleep(CHECK_EVERY)
        _check_new(fake)


def _started(fake: FakeDiscord) -> None:
    _CHECKED.setdefault(fake, 0)
    if load_spec() is not None:
        _CHECKERS[fake] = asyncio.get_running_loop().create_task(_keep_checking(fake))


def _stopped(fake: FakeDiscord) -> None:
    checker = _CHECKERS.pop(fake, None)
    if checker is not None:
        checker.cancel()


FakeDiscord.started_hooks.append(_started)
FakeDiscord.stopped_hooks.append(_stopped)


def interaction_kind(fake: FakeDiscord) -> Callable[[int], tuple[int, bool] | None]:
    def kind(interaction_id: int) -> tuple[int, bool] | None:
        found = fake.world.interactions.get(interaction_id)
        return None if found is None else (int(found.type), found.message_id is not None)

    return kind


@pytest.fixture(autouse=True)
def discord_spec_check() -> Iterator[None]:
    """Fail the test if the bot sent Discord a request its spec or documented limits forbid.
    Without the spec file (``shared/discord-api-spec`` beside the checkout) nothing is checked;
    tests/e2e/test_discord_spec.py says so as a skip."""
    spec = load_spec()
    # Fakes that end within the test are kept alive until they are checked.
    during: list[FakeDiscord] = []
    FakeDiscord.started_hooks.append(during.append)
    try:
        yield
    finally:
        FakeDiscord.started_hooks.remove(during.append)
    if spec is None:
        return
    problems: list[str] = []
    for fake in {*_CHECKED.keys(), *during}:
        _check_new(fake)  # what came since the last look
        problems.extend(_FOUND.pop(fake, []))
    if problems:
        shown = "\n".join(problems[:40])
        more = f"\n... and {len(problems) - 40} more" if len(problems) > 40 else ""
        pytest.fail(f"requests Discord would refuse or its docs forbid:\n{shown}{more}")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        yield server
    assert not server.server_errors, "the fake Discord itself failed:\n" + "\n".join(
        server.server_errors
    )


@pytest.fixture
async def http(fake: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    """Raw HTTP to the fake, authorised as the bot (not judged by the spec check: tests send
    wrong requests on purpose)."""
    headers = {"Authorization": f"Bot {fake.token}", "User-Agent": RAW_TEST_AGENT}
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
