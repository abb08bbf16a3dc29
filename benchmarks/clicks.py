"""Clicks per backgammon game with automatic rolls on and off, through the fake Discord.

    python benchmarks/clicks.py [--games 6] [--cube on|off|both]

Starts the fake Discord and the real bot (``python -m bot``) on a fresh database, and plays
``--games`` one-point backgammon games between two members for each setting of ``/prefs
auto_roll`` (off: every roll is a click, as before automatic rolls), each player clicking a
random offered button (the end-to-end tests' weights, click seeds 0, 1, ...). The dice come
from each game's own secret seed, so the two settings play different games: compare means.

Prints, per setting, the mean clicks per game, how many of them were Roll, how many boards
offered Roll and nothing else, and the mean turns. Only loopback traffic; the bot is killed
at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.driver.bots import BotEnv, running_bot  # noqa: E402
from tests.driver.starts import start_by_challenge  # noqa: E402


@dataclass(frozen=True)
class Played:
    clicks: int
    rolls: int  # Roll clicks
    roll_only: int  # boards whose one choice was Roll
    turns: int


async def one_game(env: BotEnv, name: str, *, auto: bool, cube: str, seed: int) -> Played:
    ada, ben = await env.member(f"{name}-ada"), await env.member(f"{name}-ben")
    for user in (ada, ben):
        await env.set_auto_roll(user, auto)
    table = await start_by_challenge(
        env, ada, [ben], await env.channel(name), "backgammon", {"cube": cube}
    )
    rng = random.Random(seed)
    board = await table.wait_turn()
    roll_only = turns = 0
    on_turn = None
    while not board.finished:
        if board.on_turn != on_turn:
            turns, on_turn = turns + 1, board.on_turn
        roll_only += "roll" in board.tokens and "dbl" not in board.tokens
        click = await table.click(board, table.choose(board, rng))
        assert click.refusal is None, click.refusal
        board = await table.wait_turn(click.version)
    rolls = sum(c.token == "roll" for c in table.clicks)
    return Played(len(table.clicks), rolls, roll_only, turns)


async def run(games: int, cubes: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="tabula-clicks-") as workdir:
        async with running_bot(Path(workdir)) as env:
            for cube in cubes:
                for auto in (False, True):
                    played = [
                        await one_game(env, f"{cube}-{auto}-{i}", auto=auto, cube=cube, seed=i)
                        for i in range(games)
                    ]
                    mean = statistics.fmean
                    print(
                        f"cube {cube:3} automatic rolls {'on ' if auto else 'off'}: "
                        f"{mean(p.clicks for p in played):6.1f} clicks a game "
                        f"({mean(p.rolls for p in played):5.1f} Roll, "
                        f"{mean(p.roll_only for p in played):5.1f} boards with Roll alone), "
                        f"{mean(p.turns for p in played):5.1f} turns with a person's board, "
                        f"{mean((p.clicks - p.rolls) / p.turns for p in played):4.2f} other "
                        "clicks a turn",
                        flush=True,
                    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--cube", choices=("on", "off", "both"), default="both")
    args = parser.parse_args()
    cubes = ["on", "off"] if args.cube == "both" else [args.cube]
    asyncio.run(run(args.games, cubes))


if __name__ == "__main__":
    main()
