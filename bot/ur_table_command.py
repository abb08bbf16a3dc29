"""``tabula ur-table``: build or check the solved Ur table (see :mod:`bot.ai.ur_solver`), or
the table of another of Ur's rule sets (:mod:`bot.ai.ur_sets_solver`).

``tabula ur-table build [--game KIND] [--pieces N] [--out PATH] [--threads T]`` solves the
game and writes the table (Finkel's: ``UR_TABLE_PATH``, else ``ur-table.bin`` beside the
database; a rule set's: ``<kind>-table.bin`` beside Finkel's, see
:func:`bot.config.ur_set_table_path`), showing its progress, and prints the first player's
winning chance from the start to 10 significant digits. ``tabula ur-table check [--game KIND]
[PATH]`` reads a table's header and checksum. ``--game`` takes Finkel's game or any game of
the registry played under a :class:`~bot.engines.ur_sets.RuleSet`. Neither needs a bot token.
Exit codes: 0 fine, 1 a damaged table, 2 the solver extra missing or bad options.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from bot import games
from bot.ai import ur_sets_table, ur_table
from bot.config import TablePaths, ur_set_table_path, ur_table_path
from bot.engines.ur import GAME as FINKEL
from bot.engines.ur import PIECES
from bot.engines.ur_sets import RuleSet

EXIT_BAD = 1
EXIT_USAGE = 2
REPORT_EVERY_SECONDS = 10.0


def rule_sets() -> dict[str, RuleSet]:
    """The registry's games played under a rule set of :mod:`bot.engines.ur_sets`, by kind."""
    found = {}
    for game in games.all():
        rules = getattr(game.rules, "RULES", None)
        if isinstance(rules, RuleSet):
            found[game.kind] = rules
    return found


def _add_game(command: argparse.ArgumentParser, kinds: Sequence[str]) -> None:
    command.add_argument(
        "--game",
        default=FINKEL,
        choices=(FINKEL, *kinds),
        help=f"the rule set's game (default {FINKEL}, Finkel's rules)",
    )


def _parser(kinds: Sequence[str]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tabula ur-table", description="The solved Royal Game of Ur tables."
    )
    parser.add_argument("--env-file", default=".env", help="settings file (default: .env)")
    commands = parser.add_subparsers(dest="action", required=True)
    build = commands.add_parser("build", help="solve the game and write the table")
    _add_game(build, kinds)
    build.add_argument(
        "--pieces",
        type=int,
        metavar="N",
        help=f"pieces a side, 1 to the game's (default: the game's, {PIECES} for Finkel's; "
        "fewer for tests)",
    )
    build.add_argument(
        "--out",
        type=Path,
        help="where to write it (default: UR_TABLE_PATH, or <kind>-table.bin beside it)",
    )
    build.add_argument(
        "--threads",
        type=int,
        default=1,
        help="group pairs solved side by side (default 1; 2 helps on an idle 2-core machine)",
    )
    check = commands.add_parser("check", help="read a table's header and verify its checksum")
    _add_game(check, kinds)
    check.add_argument("path", nargs="?", type=Path, help="the table (default: as build's)")
    return parser


def run(argv: Sequence[str]) -> int:
    sets = rule_sets()
    parser = _parser(sorted(sets))
    args = parser.parse_args(list(argv))
    paths = TablePaths(_env_file=args.env_file)  # type: ignore[call-arg]
    rules = sets.get(args.game)
    default = ur_table_path(paths) if rules is None else ur_set_table_path(paths, args.game)
    if args.action == "check":
        target = args.path or default
        return _check(target) if rules is None else _check_set(target, rules)
    most = PIECES if rules is None else rules.pieces
    pieces = most if args.pieces is None else args.pieces
    if not 1 <= pieces <= most:
        parser.error(f"--pieces: {args.game} has 1 to {most} pieces a side")
    target = args.out or default
    if rules is None:
        return _build(target, pieces, max(1, args.threads))
    return _build_set(target, rules, pieces, max(1, args.threads))


class _Reporter:
    """Prints a progress line every ten seconds (and at the end) with a rough time left."""

    def __init__(self) -> None:
        self.last = 0.0

    def __call__(self, done: int, total: int, seconds: float) -> None:
        if seconds - self.last < REPORT_EVERY_SECONDS and done < total:
            return
        self.last = seconds
        share = done / total
        # Early groups are the end of the game: small and quick, so the estimate starts low.
        left = seconds / share * (1 - share) if share > 0.0 else 0.0
        print(
            f"  {100 * share:5.1f}% of {total:,} positions solved · {_duration(seconds)} "
            f"so far · about {_duration(left)} left",
            flush=True,
        )


def _duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes}m {rest:02d}s" if minutes else f"{rest}s"


def _no_solver(error: ImportError) -> int:
    print(
        f"tabula: the solver needs numpy and numba ({error}). Install them with "
        "`pip install 'tabula[solver]'` (the Docker image has them).",
        file=sys.stderr,
    )
    return EXIT_USAGE


def _report(path: Path, size_bytes: int, start_chance: float, started: float) -> None:
    """What a finished build wrote, how long it took, and the start's value."""
    peak = _peak_memory_mb()
    print(f"Wrote {path} ({size_bytes / 1e6:.1f} MB) in "
          f"{_duration(time.perf_counter() - started)}"
          + (f", peak memory {peak:,.0f} MB." if peak else "."))  # fmt: skip
    print(
        f"First player's winning chance from the start: {start_chance:.10g} "
        f"({100 * start_chance:.8g}%)"
    )


def _build(target: Path, pieces: int, threads: int) -> int:
    try:
        from bot.ai import ur_solver
    except ImportError as error:
        return _no_solver(error)
    positions = ur_table.layout(pieces).positions
    print(
        f"Solving the Royal Game of Ur (Finkel rules), {pieces} pieces a side: "
        f"{positions:,} positions, {threads} thread{'s' if threads > 1 else ''}. "
        f"The full game takes about half an hour and 2.4 GB of memory.",
        flush=True,
    )
    started = time.perf_counter()
    result = ur_solver.build(target, pieces, threads=threads, progress=_Reporter())
    _report(result.path, result.size_bytes, result.start_chance, started)
    return 0


def _build_set(target: Path, rules: RuleSet, pieces: int, threads: int) -> int:
    try:
        from bot.ai import ur_sets_solver
    except ImportError as error:
        return _no_solver(error)
    positions = ur_sets_table.layout(rules, pieces).positions
    print(
        f"Solving the Royal Game of Ur ({rules.name} rules, {rules.game}), {pieces} pieces a "
        f"side: {positions:,} positions, {threads} thread{'s' if threads > 1 else ''}, about "
        f"{_memory_mb(positions):,.0f} MB of memory for the values.",
        flush=True,
    )
    started = time.perf_counter()
    result = ur_sets_solver.build(target, rules, pieces, threads=threads, progress=_Reporter())
    _report(result.path, result.size_bytes, result.start_chance, started)
    return 0


def _memory_mb(positions: int) -> float:
    # float64 values and an int32 map from index to group slot, for every position.
    return 12 * positions / 1e6


def _peak_memory_mb() -> float:
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


def _check(target: Path) -> int:
    try:
        table = ur_table.open(target)
        table.verify()
    except ur_table.TableError as error:
        print(f"tabula: {error}", file=sys.stderr)
        return EXIT_BAD
    kind = "the full game" if table.complete else f"{table.pieces} pieces a side (a test table)"
    print(
        f"{target}: {table.positions:,} positions, {kind}, checksum correct; first player's "
        f"winning chance from the start {table.start_chance:.10g}"
    )
    return 0


def _check_set(target: Path, rules: RuleSet) -> int:
    try:
        table = ur_sets_table.open(target, rules)
        table.verify()
    except ur_sets_table.TableError as error:
        print(f"tabula: {error}", file=sys.stderr)
        return EXIT_BAD
    kind = (
        "the full game"
        if table.complete
        else f"{table.pieces} of {rules.pieces} pieces a side (the end of the game)"
    )
    print(
        f"{target}: {rules.name} rules ({rules.game}), {table.positions:,} positions, {kind}, "
        f"checksum correct; first player's winning chance from the start "
        f"{table.start_chance:.10g}"
    )
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run(sys.argv[1:] or ["--help"]))
