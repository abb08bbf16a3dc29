"""Command line: ``python -m bot`` and the ``tabula`` console script.

``tabula run`` (the default) runs the bot (``--shards 0-3 --shard-count 8``: only those
gateway shards, see ``bot.shards``); ``tabula migrate`` creates or upgrades the database;
``tabula db copy SRC_URL DST_URL`` copies all data between databases (``bot.db_copy_command``);
``tabula check-config`` validates the settings without connecting; ``tabula health`` reads the
running bot's heartbeat (``bot.health``) for a container health check; ``tabula sandbox``
runs the bot against a local Discord emulator shown as a web page (``sandbox``, its own
options); ``tabula ur-table build`` solves Ur for the ``perfect`` level
(``bot.ur_table_command``, its own options), and a game with a table command of its own
(``GameSpec.table_tool``) is run by its name, e.g. ``tabula <command> build``. Exit codes:
0 fine, 1 unexpected failure (for ``health``: unhealthy), 2 configuration problem (missing or
rejected token, unusable database), 3 Discord could not be reached at start-up (``bot.startup``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import signal
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
import yarl

from bot.config import ConfigError, Settings, database_url, load_settings, shard_plan
from bot.health import check, health_path, max_age_for
from bot.startup import GatewayWatch, OneLineReconnects, Unreachable, describe, wait_for_discord
from bot.storage.database import Database
from bot.storage.errors import StorageError

if TYPE_CHECKING:
    from bot.games.spec import TableTool

EXIT_CONFIG = 2
EXIT_UNREACHABLE = 3
log = logging.getLogger("tabula")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            data["exception"] = self.formatException(record.exc_info)
        return json.dumps(data)


def configure_logging(settings: Settings) -> OneLineReconnects:
    handler = logging.StreamHandler()
    if settings.log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.log_level)
    # Library chatter drowns our own debug lines; their warnings still show.
    logging.getLogger("discord").setLevel(max(logging.INFO, root.level))
    reconnects = OneLineReconnects()
    for name in ("discord.client", "discord.shard"):  # one bot, or a sharded one
        library_log = logging.getLogger(name)
        library_log.filters[:] = [
            f for f in library_log.filters if not isinstance(f, OneLineReconnects)
        ]
        library_log.addFilter(reconnects)
    return reconnects


def point_at_discord(settings: Settings) -> None:
    """Send REST and gateway traffic to ``DISCORD_API_BASE``/``DISCORD_GATEWAY_URL`` if set."""
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


def _fail(message: str, code: int = EXIT_CONFIG) -> int:
    print(f"tabula: {message}", file=sys.stderr)
    return code


async def _serve(settings: Settings, reconnects: OneLineReconnects) -> int:
    from bot.client import create_bot
    from bot.runtime import tune_interpreter

    tune_interpreter()
    bot = create_bot(settings)
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []
    probing = loop.create_task(wait_for_discord(settings))

    def request_stop() -> None:
        probing.cancel()
        if not closing:
            log.info("shutdown requested: finishing in-flight actions")
            closing.append(loop.create_task(bot.close()))

    def on_signal(signum: int, frame: object) -> None:
        # A plain handler, not the loop's add_signal_handler: it stays installed until the
        # process exits, so a repeated SIGTERM during shutdown only asks again (the loop's
        # would put the default handler back when removed or closed, and a second SIGTERM
        # in that moment killed the bot half-way). SIGKILL remains the escalation.
        if not loop.is_closed():
            loop.call_soon_threadsafe(request_stop)

    def give_up() -> None:
        if not closing:
            closing.append(loop.create_task(bot.close()))

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, on_signal)
    watch = GatewayWatch(settings, reconnects, give_up)
    bot.add_listener(watch.on_connect, "on_connect")
    bot.add_listener(watch.on_disconnect, "on_disconnect")
    base = discord.http.Route.BASE
    try:
        try:
            await probing
        except asyncio.CancelledError:
            if probing.cancelled() and closing:
                return 0  # asked to stop while waiting for Discord
            raise
        try:
            async with bot:
                await bot.start(settings.discord_token.get_secret_value())
        except Exception:
            # discord.py fails on its own after a first gateway connection that did not
            # succeed (it cannot resume a session it never had); the reason is the watch's.
            if not watch.gave_up:
                raise
        if watch.gave_up:
            raise watch.error()
    except discord.LoginFailure:
        return _fail("Discord rejected DISCORD_TOKEN. Copy the token again from the portal.")
    except StorageError as error:
        return _fail(f"the database cannot be used: {error}")
    except Unreachable as error:
        return _fail(str(error), EXIT_UNREACHABLE)
    except (aiohttp.ClientError, TimeoutError, ConnectionError, discord.GatewayNotFound) as error:
        # Discord went away between the first contact and the end of the login and sync.
        lost = Unreachable(
            f"its REST API at {base} stopped answering during start-up",
            describe(error),
            attempts=1,
            seconds=0.0,
            settings=settings,
        )
        return _fail(str(lost), EXIT_UNREACHABLE)
    except discord.HTTPException as error:
        # Reachable, but not Discord's API as the bot expects it (a wrong DISCORD_API_BASE
        # path answers 404; an outage that outlasted discord.py's own retries answers 5xx).
        wrong = Unreachable(
            f"its REST API at {base} answered the login with HTTP {error.status}",
            error.text or "no explanation",
            attempts=1,
            seconds=0.0,
            settings=settings,
        )
        return _fail(str(wrong), EXIT_UNREACHABLE)
    finally:
        # start() returns as soon as close() has shut the gateway, while close() still drains
        # and closes the database. Returning now would let asyncio.run cancel it half-way,
        # leaving the database thread alive and the process hanging on exit.
        await asyncio.gather(*closing)
    return 0


async def _migrate(settings: Settings) -> int:
    try:
        # As the bot opens it: a SQLite file a running bot serves is left alone.
        db = await Database.open(database_url(settings), serving=True)
    except StorageError as error:
        return _fail(f"the database cannot be used: {error}")
    print(f"database {db.url} is at schema version {db.schema_version}")
    await db.close()
    return 0


def _health(env_file: str) -> int:
    # Docker reads exit 1 as unhealthy and reserves 2, so every failure here is a 1.
    try:
        settings = load_settings(env_file)
    except ConfigError as error:
        print(f"unhealthy: invalid configuration: {error}")
        return 1
    healthy, reason = check(health_path(settings), max_age_for(settings))
    print(f"{'healthy' if healthy else 'unhealthy'}: {reason}")
    return 0 if healthy else 1


def _sandbox(argv: Sequence[str]) -> int:
    # No settings are read: the sandbox makes up the bot's configuration. Imported here so
    # that running the bot does not load the emulator.
    from sandbox.runner import run_sandbox

    return run_sandbox(argv)


def _table_tool(command: str) -> TableTool | None:
    """The table command a registered game declares under ``command``, if any (the registry
    is read only for a word that is none of the built-in commands)."""
    if command.startswith("-") or command in BUILT_IN:
        return None
    from bot import games

    return next(
        (g.table_tool for g in games.all() if g.table_tool and g.table_tool.command == command),
        None,
    )


def _table_tools_help() -> str | None:
    """The games' own table commands, for ``tabula --help`` (the registry is read only then)."""
    from bot import games

    commands = sorted({g.table_tool.command for g in games.all() if g.table_tool})
    if not commands:
        return None
    return "games' table commands (each with its own --help): " + ", ".join(commands)


BUILT_IN = ("run", "migrate", "check-config", "health", "sandbox", "ur-table", "db", "puzzles")


def run(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["sandbox"]:
        return _sandbox(arguments[1:])
    if arguments[:1] == ["ur-table"]:  # no bot settings needed: its own options
        from bot.ur_table_command import run as ur_table

        return ur_table(arguments[1:])
    if arguments[:1] == ["puzzles"]:  # `tabula puzzles build`: its own options
        from bot.puzzles_command import run as puzzles_command

        return puzzles_command(arguments[1:])
    if arguments[:1] == ["db"]:  # `tabula db copy SRC_URL DST_URL`: its own options
        from bot.db_copy_command import run as db_command

        return db_command(arguments[1:])
    if arguments and (tool := _table_tool(arguments[0])) is not None:
        return tool.run(arguments[1:])
    parser = argparse.ArgumentParser(
        prog="tabula",
        description=__doc__.splitlines()[0],
        epilog=_table_tools_help() if {"-h", "--help"} & set(arguments) else None,
    )
    parser.add_argument(
        "command",
        nargs="?",
        default="run",
        choices=BUILT_IN,
    )
    parser.add_argument("--env-file", default=".env", help="settings file (default: .env)")
    parser.add_argument(
        "--shards", metavar="IDS", help="run only these gateway shards, e.g. 0-3 (SHARD_IDS)"
    )
    parser.add_argument(
        "--shard-count",
        type=int,
        metavar="N",
        help="the number of shards over all processes (SHARD_COUNT)",
    )
    args = parser.parse_args(arguments)
    if args.command == "sandbox":
        return _sandbox([])
    if args.command == "health":
        return _health(args.env_file)
    try:
        settings = load_settings(args.env_file)
        if args.shards is not None or args.shard_count is not None:
            # The command line wins over SHARD_IDS / SHARD_COUNT, each on its own.
            settings = settings.model_copy(
                update={
                    "shard_ids": settings.shard_ids if args.shards is None else args.shards,
                    "shard_count": (
                        settings.shard_count if args.shard_count is None else args.shard_count
                    ),
                }
            )
            shard_plan(settings)
    except ConfigError as error:
        return _fail(str(error))
    reconnects = configure_logging(settings)
    if args.command == "check-config":
        print("configuration is valid")
        return 0
    if args.command == "migrate":
        return asyncio.run(_migrate(settings))
    point_at_discord(settings)
    return asyncio.run(_serve(settings, reconnects))


def main() -> None:
    sys.exit(run())
