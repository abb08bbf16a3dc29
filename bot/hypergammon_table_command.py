"""``tabula hyper-table``: build or check Hypergammon's solved table (see
:mod:`bot.ai.hypergammon_solver`), Hypergammon's own command (``GameSpec.table_tool``).

``tabula hyper-table build [--checkers N] [--out PATH]`` solves the game and writes the table
(default: ``hypergammon-table.bin`` in ``GAME_TABLES``, else beside the database), showing
each sweep, and prints the positions, the file's size, the time, the largest Bellman
residual and the starting position's equities. ``tabula hyper-table check [PATH]`` reads a
table's header, verifies its checksum and prints the same figures. Neither needs a bot
token. Exit codes: 0 fine, 1 a damaged table (or a residual above 1e-9), 2 the solver extra
missing or bad options.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from bot.ai import hypergammon_table as table
from bot.config import TablePaths, game_table_path

EXIT_BAD: Final = 1
EXIT_USAGE: Final = 2
COMMAND: Final = "hyper-table"
MAX_RESIDUAL: Final = 1e-9
START: Final = (22, 23, 24)  # each side's checkers at the start (the table's numbering)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"tabula {COMMAND}", description="Hypergammon's solved table."
    )
    parser.add_argument("--env-file", default=".env", help="settings file (default: .env)")
    commands = parser.add_subparsers(dest="action", required=True)
    build = commands.add_parser("build", help="solve the game and write the table")
    build.add_argument(
        "--checkers",
        type=int,
        default=table.CHECKERS,
        choices=range(1, table.CHECKERS + 1),
        metavar="N",
        help=f"checkers a side, 1-{table.CHECKERS} (default {table.CHECKERS}; fewer for tests)",
    )
    build.add_argument("--out", type=Path, help="where to write it (default: in GAME_TABLES)")
    check = commands.add_parser("check", help="verify a table and print its figures")
    check.add_argument("path", nargs="?", type=Path, help="the table (default: in GAME_TABLES)")
    return parser


def default_path(env_file: str) -> Path:
    return game_table_path(TablePaths(_env_file=env_file), table.FILE)  # type: ignore[call-arg]


def run(argv: Sequence[str]) -> int:
    args = _parser().parse_args(list(argv))
    if args.action == "build":
        return _build(args.out or default_path(args.env_file), args.checkers)
    return _check(args.path or default_path(args.env_file))


def opening_equity(found: table.HyperTable) -> tuple[float, float]:
    """The opening roll's winner's equity, averaged over the 15 rolls an opening can be:
    (cubeless, cubeful with the cube centred), each after its best play."""
    from bot.ai.hypergammon import scored_plays
    from bot.engines import backgammon as bg
    from bot.engines.common import Roll

    side = {point: 1 for point in START[-found.checkers :]}
    first = bg.new_game(
        {"match_length": 0, "start": bg.Position.from_points(side, side).position_id()}
    )
    rolls = [(a, b) for a in range(1, 7) for b in range(1, a)]
    scored = [scored_plays(bg.apply(first, Roll(roll)), found) for roll in rolls]
    cubeless = sum(max(s.cubeless for s in plays) for plays in scored) / len(rolls)
    return cubeless, sum(plays[0].cubeful for plays in scored) / len(rolls)


def _start_line(found: table.HyperTable) -> str:
    start = START[-found.checkers :]
    values = found.values(start, start)
    centred, _owned, _theirs = table.cube_values(values)
    opening, opening_cubeful = opening_equity(found)
    return (
        f"the start, for the side to roll: cubeless equity {values.cubeless:+.9f}, "
        f"cubeful (cube centred) {centred:+.9f}; the opening roll's winner, after its best "
        f"play: cubeless {opening:+.9f}, cubeful {opening_cubeful:+.9f}"
    )


def _build(target: Path, checkers: int) -> int:
    try:
        from bot.ai import hypergammon_solver as solver
    except ImportError as missing:
        print(f"the solver needs the solver extra (pip install 'tabula[solver]'): {missing}")
        return EXIT_USAGE

    def progress(sweep: int, change: float, seconds: float) -> None:
        print(f"sweep {sweep}: largest change {change:.3e} ({seconds:.0f} s)", flush=True)

    print(f"solving Hypergammon with {checkers} checkers a side into {target}", flush=True)
    result = solver.build(target, checkers, progress)
    solved = result.solved
    print(
        f"{solved.live:,} positions with a game to play and {solved.terminal:,} finished, "
        f"{solved.sweeps} sweeps in {solved.seconds:.0f} s; "
        f"largest Bellman residual {solved.residual:.3e}; {result.size:,} bytes"
    )
    found = table.HyperTable(target)
    try:
        print(_start_line(found))
    finally:
        found.close()
    return 0 if solved.residual <= MAX_RESIDUAL else EXIT_BAD


def _check(target: Path) -> int:
    try:
        found = table.HyperTable(target)
    except table.TableError as error:
        print(error, file=sys.stderr)
        return EXIT_BAD
    try:
        if not found.verify():
            print(f"{target}: the values do not match the checksum", file=sys.stderr)
            return EXIT_BAD
        print(
            f"{target}: {found.checkers} checkers a side, {found.count:,} indices, "
            f"{found.sweeps} sweeps, largest Bellman residual {found.residual:.3e}"
        )
        print(_start_line(found))
        return 0 if found.residual <= MAX_RESIDUAL else EXIT_BAD
    finally:
        found.close()
