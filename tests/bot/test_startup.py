"""Start-up when Discord cannot be reached: the real ``python -m bot`` retries with growing
waits where a retry can help, then says in one paragraph what failed and what to check, and
exits with code 3, without a traceback and in bounded time. A rejected token is not retried."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from aiohttp import web

from sandbox.fake_discord import FakeDiscord
from tests.bot.test_config import EXIT_CONFIG, clean_env
from tests.driver.process import BotProcess

pytestmark = [pytest.mark.processes, pytest.mark.timeout(120)]

EXIT_UNREACHABLE = 3
# Three retries waiting 0.2, 0.4 and 0.8 s: four attempts, at least 1.4 s.
RETRIES = {"CONNECT_RETRIES": "3", "CONNECT_RETRY_SECONDS": "0.2"}
QUIET = {"LOG_LEVEL": "INFO", "EXPERT_WORKERS": "0", "AI_MOVE_DELAY_SECONDS": "0"}
RETRY_LINE = re.compile(r"Discord is not reachable \((.+?)\); attempt (\d) of (\d) failed")
BOUND_SECONDS = 30.0


def closed_port() -> int:
    """A local port nothing listens on (bound once, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


async def run_to_exit(cwd: Path, **env: str) -> tuple[int, str, float]:
    """``python -m bot`` until it exits: (exit code, stdout and stderr together, seconds)."""
    started = time.monotonic()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=cwd,
        env=clean_env(**{**QUIET, "DATABASE_PATH": str(cwd / "t.db"), **env}),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        output, _ = await asyncio.wait_for(proc.communicate(), BOUND_SECONDS * 2)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode is not None
    return proc.returncode, output.decode(errors="replace"), time.monotonic() - started


def paragraph(output: str) -> str:
    (line,) = [line for line in output.splitlines() if line.startswith("tabula: cannot reach")]
    return line


async def test_a_closed_port_is_retried_then_explained(tmp_path: Path) -> None:
    port = closed_port()
    api = f"http://127.0.0.1:{port}/api/v10"
    code, output, seconds = await run_to_exit(
        tmp_path,
        DISCORD_TOKEN="t",
        DISCORD_API_BASE=api,
        DISCORD_GATEWAY_URL=f"ws://127.0.0.1:{port}/gateway",
        **RETRIES,
    )
    assert code == EXIT_UNREACHABLE, output
    assert "Traceback" not in output
    retries = RETRY_LINE.findall(output)
    assert [(attempt, of) for _, attempt, of in retries] == [("1", "4"), ("2", "4"), ("3", "4")]
    assert all("connection refused" in reason for reason, _, _ in retries)
    text = paragraph(output)
    assert f"its REST API at {api} could not be used after 4 attempts" in text
    assert "connection refused" in text
    for what_to_check in ("online", "DISCORD_API_BASE", "DISCORD_GATEWAY_URL", "discordstatus"):
        assert what_to_check in text
    assert 0.2 + 0.4 + 0.8 <= seconds < BOUND_SECONDS


async def test_discord_answering_500_for_a_while_is_waited_for(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        fake.rest.fail_next("GET", r"^/gateway$", 500, count=2)
        bot = BotProcess(
            fake,
            env={**QUIET, **RETRIES},
            database_path=tmp_path / "t.db",
            log_path=tmp_path / "log",
        )
        try:
            await bot.start()  # returns once the bot has IDENTIFYed and synced its commands
            assert bot.running
        finally:
            await bot.kill()
        output = bot.output()
    assert [attempt for _, attempt, _ in RETRY_LINE.findall(output)] == ["1", "2"]
    assert "Discord answered HTTP 500" in output
    assert "Traceback" not in output and "cannot reach Discord" not in output


async def test_an_unreachable_gateway_is_retried_then_explained(tmp_path: Path) -> None:
    gateway = f"ws://127.0.0.1:{closed_port()}/gateway"
    async with FakeDiscord() as fake:
        code, output, seconds = await run_to_exit(
            tmp_path, **{**fake.env(), "DISCORD_GATEWAY_URL": gateway}, CONNECT_RETRIES="1"
        )
        assert fake.gateway.count("identify") == 0
    assert code == EXIT_UNREACHABLE, output
    assert "Traceback" not in output
    assert [attempt for _, attempt, _ in RETRY_LINE.findall(output)] == ["1"]
    text = paragraph(output)
    assert f"its gateway at {gateway} did not accept a connection after 2 attempts" in text
    assert "connection refused" in text and "DISCORD_GATEWAY_URL" in text
    assert seconds < BOUND_SECONDS


@asynccontextmanager
async def greet_once() -> AsyncIterator[str]:
    """A gateway that says HELLO to the first connection (the start-up probe) and answers
    every later one with HTTP 503; yields its URL."""
    connections = 0

    async def handle(request: web.Request) -> web.StreamResponse:
        nonlocal connections
        connections += 1
        if connections > 1:
            return web.Response(status=503)
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        async for _ in ws:
            pass
        return ws

    app = web.Application()
    app.router.add_get("/gateway", handle)
    runner = web.AppRunner(app)
    await runner.setup()
    port = closed_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        yield f"ws://127.0.0.1:{port}/gateway"
    finally:
        await runner.cleanup()


async def test_a_gateway_failing_the_first_real_connection_is_explained(tmp_path: Path) -> None:
    # discord.py cannot retry a first connection (it would crash trying to resume a session
    # it never had), so the bot stops with the paragraph instead.
    async with FakeDiscord() as fake, greet_once() as gateway:
        code, output, seconds = await run_to_exit(
            tmp_path, **{**fake.env(), "DISCORD_GATEWAY_URL": gateway}
        )
    assert code == EXIT_UNREACHABLE, output
    # Not discord.py's crash (an AttributeError in its reconnect loop), not its traceback per
    # failed connection. (Closing this early can also log a storage-layer ROLLBACK race that
    # is not start-up's: it is not asserted on here.)
    assert "AttributeError" not in output and "discord/client.py" not in output
    assert "gateway connection failed (503" in output
    text = paragraph(output)
    assert f"its gateway at {gateway} failed the bot's first connection (503" in text
    assert seconds < BOUND_SECONDS


async def test_a_rejected_token_is_not_retried(tmp_path: Path) -> None:
    async with FakeDiscord(token="the-right-token") as fake:
        code, output, _ = await run_to_exit(
            tmp_path, **{**fake.env(), "DISCORD_TOKEN": "a-wrong-token"}, **RETRIES
        )
        logins = fake.find_requests("GET", "/users/@me")
    assert code == EXIT_CONFIG, output
    assert "Discord rejected DISCORD_TOKEN" in output
    assert len(logins) == 1
    assert not RETRY_LINE.search(output) and "Traceback" not in output
