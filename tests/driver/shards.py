"""Several bot processes, each on its own gateway shards, sharing one PostgreSQL database and
one fake Discord: the set-up of the sharding tests (``tests/e2e/test_shard_*.py``).

- ``tests.storage.pg.fresh_database`` gives each test a PostgreSQL database of its own and
  drops it afterwards (``TABULA_TEST_POSTGRES_URL`` names the server; without one the tests
  are skipped, or fail when ``CI`` is set).
- :class:`Cluster` starts ``python -m bot`` processes with ``SHARD_IDS``/``SHARD_COUNT`` and
  ``DATABASE_URL``, and makes servers (guilds) on chosen shards.
- :class:`ServerEnv` is one server of the cluster seen as the rest of the driver sees a bot
  (``tests.driver.bots.BotEnv``): members and channels are made in that server, the database
  is the cluster's, so ``Table``, ``start_by_play`` and ``check_finished`` work unchanged.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bot import storage as store
from sandbox.fake_discord import FakeDiscord
from sandbox.fake_model import Channel, Guild, User
from tests.driver.bots import BotEnv, bot_process, log_tail, start_and_wait_ready
from tests.driver.process import BotProcess
from tests.storage.pg import fresh_database

ACCESS_GAME = re.compile(r"tabula\.access: interaction game=([0-9a-f]{8})")


# PostgreSQL connections of each bot process and of a test's reader: two copies of the suite
# at once, each with shards and twins on PostgreSQL beside the storage tests, ran the server
# out of its 100 connections with the bot's default of 8.
BOT_POOL = 4
READER_POOL = 2


def with_pool_size(url: str, size: int) -> str:
    """``url`` with ``pool_size`` (the bot's own URL parameter) set, unless it names one."""
    if "pool_size=" in url:
        return url
    return f"{url}{'&' if '?' in url else '?'}pool_size={size}"


@dataclass
class ServerEnv(BotEnv):
    """One server of a :class:`Cluster`, with the process that owns its shard as ``bot``."""

    guild: Guild | None = None
    url: str = ""

    async def member(self, name: str) -> User:
        if name not in self._members:
            self._members[name] = await self.fake.add_member(name, guild=self.guild)
        return self._members[name]

    async def channel(self, name: str) -> Channel:
        return await self.fake.add_channel(name, guild=self.guild)

    async def db(self) -> store.Database:
        if self._db is None:
            self._db = await store.Database.open(self.url, pool_size=READER_POOL)
        return self._db

    async def close(self) -> None:
        """The database only: the processes belong to the cluster."""
        if self._db is not None:
            await self._db.close()
            self._db = None


@dataclass
class Cluster:
    fake: FakeDiscord
    url: str
    workdir: Path
    shard_count: int
    env: Mapping[str, str] = field(default_factory=dict)
    processes: dict[str, BotProcess] = field(default_factory=dict)
    servers: list[ServerEnv] = field(default_factory=list)

    def process(self, name: str, shard_ids: str, **env: str) -> BotProcess:
        """A bot process (not started) running ``shard_ids`` of the cluster's shards."""
        process = bot_process(
            self.fake,
            self.workdir,
            {
                **self.env,
                "DATABASE_URL": with_pool_size(self.url, BOT_POOL),
                "SHARD_IDS": shard_ids,
                "SHARD_COUNT": str(self.shard_count),
                "HEALTH_FILE": str(self.workdir / f"{name}.health"),
                **env,
            },
            name=name,
            database=f"{name}-unused.sqlite3",
        )
        self.processes[name] = process
        return process

    async def start(self, *processes: BotProcess) -> None:
        """Start each (one after the other) and wait for its ``on_ready``."""
        for process in processes:
            await start_and_wait_ready(process)

    async def server(self, name: str, shard: int, owner: BotProcess) -> ServerEnv:
        """A new server on ``shard`` (the bot in it), played through ``owner``'s eyes."""
        guild = await self.fake.add_guild(name, shard=(shard, self.shard_count))
        server = ServerEnv(self.fake, owner, self.workdir, guild=guild, url=self.url)
        self.servers.append(server)
        return server

    async def close(self) -> None:
        for server in self.servers:
            await server.close()
        for name, process in self.processes.items():
            await process.kill()
            # pytest shows this only for a failing test.
            print(f"--- {name}: {process.log_path} (no access lines) ---\n{log_tail(process)}")


@asynccontextmanager
async def running_cluster(
    workdir: Path, *, shard_count: int = 2, env: Mapping[str, str] | None = None
) -> AsyncIterator[Cluster]:
    """A fake Discord recommending ``shard_count`` shards and a fresh PostgreSQL database;
    the test adds the processes and servers."""
    async with (
        fresh_database() as url,
        FakeDiscord(shard_count=shard_count, max_concurrency=shard_count) as fake,
    ):
        cluster = Cluster(fake, url, workdir, shard_count, dict(env or {}))
        try:
            yield cluster
        finally:
            await cluster.close()
        # A request cut off by SIGKILL mid-upload is logged by the fake as its own failure;
        # it is the client's doing, so only other errors count here.
        failures = [e for e in fake.server_errors if "Connection lost" not in e]
        assert not failures, "the fake Discord failed:\n" + "\n".join(failures)


def games_answered_by(process: BotProcess, *, since: int = 0) -> set[str]:
    """The ids of the games whose clicks ``process`` answered (its access log), reading its
    output from character ``since`` on."""
    return set(ACCESS_GAME.findall(process.output()[since:]))


def log_lines(process: BotProcess, needle: str, *, since: int = 0) -> list[str]:
    return [line for line in process.output()[since:].splitlines() if needle in line]
