"""``tabula db copy SRC_URL DST_URL``: move every row from one database to another, checked.

For moving a bot from its SQLite file to PostgreSQL when it outgrows one process, and back:

    tabula db copy sqlite:///data/tabula.db postgresql://tabula@db.internal/tabula

Both databases are opened as the bot opens them (and so migrated to this version's schema);
a SQLite end must not be in use by a running bot (stop it first: the copy would miss what it
writes after). The destination must be empty: the copy never merges. It copies in one read
transaction of the source and one write transaction of the destination (all or nothing,
see :mod:`bot.storage.copy`), then checks:

1. every table has the same number of rows and the same rows (a digest of each table) on
   both sides, and the challenge id counter did not go back;
2. every game's action log replays through its rules engine (the game registry,
   :mod:`bot.games`) to the state stored with it. A game that does not replay in the
   destination is checked in the source too: the same problem there is the source's (it is
   reported, the copy is still exact), a problem only in the destination fails the copy.

Exit codes: 0 copied and verified, 1 the verification failed, 2 bad arguments, a database
that cannot be opened, or a destination that is not empty.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from bot import games
from bot.engines.common import EngineError, replay
from bot.storage import ActionRow, Database, GameRow, StorageError, load_actions, load_game
from bot.storage.copy import (
    TABLES,
    DestinationNotEmpty,
    SchemaMismatch,
    compare,
    copy_and_summarise,
    games_with_logs,
    summarise,
)
from bot.storage.database import locate
from bot.vocabulary.options import engine_options

EXIT_UNVERIFIED = 1
EXIT_USAGE = 2
REPORT_EVERY = 1000  # games replayed between progress lines
PROGRESS_ROWS = 100_000


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tabula db", description="Database maintenance.")
    commands = parser.add_subparsers(dest="action", required=True)
    copy = commands.add_parser(
        "copy",
        help="copy every row into an empty database and verify the copy",
        description=(
            "Copy games with their action logs, challenges, results, ratings, reviews and "
            "settings from SRC_URL into the empty DST_URL, then verify it (row counts and "
            "digests per table; every game's log replays to its stored state)."
        ),
    )
    copy.add_argument("source", metavar="SRC_URL", help="sqlite:///PATH or postgresql://...")
    copy.add_argument("destination", metavar="DST_URL", help="sqlite:///PATH or postgresql://...")
    return parser


def run(argv: Sequence[str]) -> int:
    args = _parser().parse_args(list(argv))
    return asyncio.run(copy_command(args.source, args.destination))


def _say(message: str) -> None:
    print(message, flush=True)


def _fail(message: str, code: int) -> int:
    print(f"tabula db copy: {message}", file=sys.stderr, flush=True)
    return code


async def copy_command(source_url: str, destination_url: str) -> int:
    """The whole command; returns its exit code."""
    try:
        source_at, destination_at = locate(source_url), locate(destination_url)
    except StorageError as error:
        return _fail(str(error), EXIT_USAGE)
    if source_at == destination_at:
        return _fail("the source and the destination are the same database", EXIT_USAGE)
    try:
        source = await Database.open(source_url, serving=True)
    except StorageError as error:
        return _fail(f"the source cannot be used: {error}", EXIT_USAGE)
    try:
        try:
            destination = await Database.open(destination_url, serving=True)
        except StorageError as error:
            return _fail(f"the destination cannot be used: {error}", EXIT_USAGE)
        try:
            return await _copy_and_verify(source, destination)
        finally:
            await destination.close()
    finally:
        await source.close()


async def _copy_and_verify(source: Database, destination: Database) -> int:
    _say(f"copying {source.url} -> {destination.url}")
    started = time.monotonic()
    shown: dict[str, int] = {}

    def progress(table: str, rows: int) -> None:
        if rows // PROGRESS_ROWS > shown.get(table, 0):  # a line per 100,000 rows of a table
            shown[table] = rows // PROGRESS_ROWS
            _say(f"  {table}: {rows:,} rows ...")

    try:
        done = await copy_and_summarise(source, destination, progress=progress)
    except (DestinationNotEmpty, SchemaMismatch) as error:
        return _fail(str(error), EXIT_USAGE)
    except StorageError as error:
        return _fail(f"the copy failed and nothing was written: {error}", EXIT_UNVERIFIED)
    width = max(len(t.name) for t in TABLES)
    for table in TABLES:
        _say(f"  {table.name:<{width}} {done.rows[table.name]:>10,} rows")
    _say(f"copied in {time.monotonic() - started:.1f} s; verifying")

    # The source's side comes from the snapshot the copy read (not a second reading, which
    # would see what running bots wrote since and fail a copy that is right).
    comparison = compare(done.source, await summarise(destination))
    for problem in comparison.problems:
        _say(f"  MISMATCH {problem}")
    if comparison.ok:
        _say("  every table has the same rows on both sides")

    checked, broken = await _replay_all(source, destination)
    _say(f"  {checked:,} games replayed")
    copy_faults = [line for line, in_source_too in broken if not in_source_too]
    for line, in_source_too in broken:
        where = "in the source too: not the copy's fault" if in_source_too else "COPY FAULT"
        _say(f"  game {line} ({where})")
    if not comparison.ok or copy_faults:
        return _fail("the copy does not match its source (see above)", EXIT_UNVERIFIED)
    _say("verified")
    return 0


async def _replay_all(
    source: Database, destination: Database
) -> tuple[int, list[tuple[str, bool]]]:
    """(games checked, [(game and problem, whether the source has the same problem)])."""
    checked = 0
    broken: list[tuple[str, bool]] = []
    async for game, actions in games_with_logs(destination):
        checked += 1
        if checked % REPORT_EVERY == 0:
            _say(f"  {checked:,} games replayed ...")
        problem = replay_problem(game, actions)
        if problem is None:
            continue
        original = await load_game(source, game.id)
        in_source = (
            original is not None
            and replay_problem(original, await load_actions(source, game.id)) == problem
        )
        broken.append((f"{game.id}: {problem}", in_source))
    return checked, broken


def replay_problem(game: GameRow, actions: Sequence[ActionRow]) -> str | None:
    """Why ``actions`` do not rebuild ``game``'s stored state through its rules, or None."""
    try:
        rules = games.get(game.game).rules
    except games.UnknownGame:
        return f"its game {game.game!r} is not registered here (TABULA_EXTRA_GAMES?)"
    if [a.seq for a in actions] != list(range(1, game.action_count + 1)):
        return f"its log is not actions 1..{game.action_count}"
    try:
        stored: Any = json.loads(game.state_json)["engine"]
        options = engine_options(json.loads(game.options_json))
        rebuilt = replay(rules, options, [a.notation for a in actions])
    except (EngineError, ValueError, KeyError, TypeError) as error:
        return f"its log does not replay: {error!r}"
    if rules.dump_state(rebuilt) != stored:
        return "its log replays to another state than the one stored"
    return None
