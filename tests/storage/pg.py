"""The real PostgreSQL server for the tests: a database of its own per test, dropped after.

``TABULA_TEST_POSTGRES_URL`` names the server (default
``postgresql://postgres@127.0.0.1:5432/postgres``); the tests connect to the database in it
only to create and drop their own, ``tabula_t_<random>``. When the server cannot be reached
the PostgreSQL tests are skipped on a developer's machine and FAIL when ``CI`` is set: CI
must never pass by not testing half of the storage.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import cache
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
PREFIX = "tabula_t_"


def server_url() -> str:
    return os.environ.get("TABULA_TEST_POSTGRES_URL") or DEFAULT_URL


def with_database(url: str, name: str) -> str:
    """``url`` pointing at the database ``name`` instead."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


async def _admin() -> asyncpg.Connection:
    return await asyncpg.connect(server_url(), timeout=5)


@cache
def unreachable() -> str | None:
    """Why the server cannot be used, or None (asked once per test process)."""

    async def probe() -> None:
        conn = await _admin()
        await conn.close()

    try:
        # In a thread of its own: the caller may be inside a running event loop.
        with ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, probe()).result()
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as error:
        return f"PostgreSQL at {server_url()} is unreachable: {error!r}"
    return None


def require_postgres() -> None:
    """Skip (or, with ``CI`` set, fail) the calling test when there is no server."""
    reason = unreachable()
    if reason is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: the PostgreSQL tests must run)", pytrace=False)
    pytest.skip(reason)


async def create_database(*, template: str | None = None) -> str:
    """A new database, empty or a copy of the database ``template``; returns its URL."""
    name = PREFIX + secrets.token_hex(6)
    copy = f' TEMPLATE "{template}"' if template is not None else ""
    conn = await _admin()
    try:
        await conn.execute(f'CREATE DATABASE "{name}"{copy}')
    finally:
        await conn.close()
    return with_database(server_url(), name)


async def drop_database(url: str) -> None:
    name = urlsplit(url).path.lstrip("/")
    assert name.startswith(PREFIX), name  # never anything but a test's own
    conn = await _admin()
    try:
        # FORCE: a connection a failed test left open must not keep the database alive.
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


@asynccontextmanager
async def fresh_database() -> AsyncIterator[str]:
    """A new empty database for the block; its URL."""
    require_postgres()
    url = await create_database()
    try:
        yield url
    finally:
        await drop_database(url)
