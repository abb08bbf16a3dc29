"""``tabula puzzles build``: generate the built-in puzzle sets shipped in the package.

For every game with puzzles (or the ones named with ``--game``) the game's own generator
(``GameSpec.puzzles.generate``) plays and judges games: backgammon self-play judged by the
expert engine, Ur from the solved table (``UR_TABLE_PATH``, as the bot finds it), Ludo by the
hard AI's search. Nothing is downloaded. The sets are written to ``bot/games/puzzle_sets/``
(``--out`` elsewhere), with how many, the seed and the CPU time they took. Exit code 2 when a
game's generator cannot run here (the expert engine or the table missing).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from pathlib import Path

from pydantic import SecretStr

from bot import games
from bot.config import Settings
from bot.games import puzzles

EXIT_USAGE = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tabula puzzles", description=__doc__.splitlines()[0])
    parser.add_argument("--env-file", default=".env", help="settings file (default: .env)")
    commands = parser.add_subparsers(dest="action", required=True)
    build = commands.add_parser("build", help="generate the built-in puzzle sets")
    build.add_argument("--count", type=int, default=150, help="puzzles per game (default 150)")
    build.add_argument("--seed", type=int, default=34, help="random seed (default 34)")
    build.add_argument("--game", action="append", help="only this game (repeatable)")
    build.add_argument("--out", type=Path, help="folder to write to (default: the package's)")
    return parser


def run(argv: Sequence[str]) -> int:
    args = _parser().parse_args(list(argv))
    settings = Settings(discord_token=SecretStr("unused"), _env_file=args.env_file)  # type: ignore[call-arg]
    if args.out is not None:
        puzzles.DATA = args.out
    chosen = [g for g in games.all() if g.puzzles is not None]
    if args.game:
        chosen = [g for g in chosen if g.kind in args.game]
    for game in chosen:
        source = game.puzzles
        assert source is not None
        release = game.start(settings) if game.start is not None else None
        started = time.process_time()
        try:
            found = source.generate(args.count, random.Random(f"{args.seed}:{game.kind}"))
        except Exception as error:  # the engine or the table is missing here
            print(f"{game.title}: cannot generate puzzles here: {error}")
            return EXIT_USAGE
        finally:
            if release is not None:
                release()
        cpu = time.process_time() - started
        how = {"count": len(found), "seed": args.seed, "cpu_seconds": round(cpu, 1)}
        path = puzzles.write_set(game.kind, found, how)
        print(f"{game.title}: {len(found)} puzzles in {cpu:.1f} s of CPU -> {path}")
    return 0
