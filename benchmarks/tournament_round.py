"""Benchmark: a 64-entrant Swiss round started, through the fake Discord.

    python benchmarks/tournament_round.py [--entrants 64] [--game ur]

Starts the fake Discord and the real bot (``python -m bot``) on a fresh SQLite database,
announces a Swiss tournament, lets ``--entrants`` members press Join and the organiser press
Start, and times from the Start click until every game of round one shows its board (32
threads, 32 introductions, 32 boards for 64 entrants). Prints that time, the bot's requests
(per route, and the busiest second against Discord's global budget of 50 a second), and the
429 answers it got (rate limits, if the fake Discord enforces them; a global one would stop
every request, so none may be global).

Only loopback traffic; every wait is bounded, and the bot is killed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot import storage as store  # noqa: E402
from bot.storage import tournaments as tstore  # noqa: E402
from sandbox.fake_discord import FakeDiscord  # noqa: E402
from tests.driver.bots import bot_process, start_and_wait_ready  # noqa: E402
from tests.driver.members import answer  # noqa: E402


async def run(entrants: int, game: str) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="tabula-tournament-bench-"))
    async with FakeDiscord() as fake:
        bot = bot_process(fake, workdir, {"CLOCK_SWEEP_SECONDS": "5"})
        try:
            await start_and_wait_ready(bot)
            db = await store.Database.open(bot.database_path)
            channel = await fake.add_channel("tournament")
            boss = await fake.add_member("organiser")
            players = [await fake.add_member(f"player{i:02d}") for i in range(entrants)]
            command = await fake.slash(
                boss, "tournament create", {"game": game, "format": "swiss"}, channel=channel
            )
            message = (await answer_env(fake, command)).original
            assert message is not None
            join = next(c for c in message.custom_ids() if c.endswith(":join"))
            start = next(c for c in message.custom_ids() if c.endswith(":start"))
            for player in players:
                await answer_env(fake, await fake.click(player, message, join))
            (row,) = await tstore.tournaments_in_channel(db, channel.id)
            first_request = len(fake.rest.requests)
            started = time.perf_counter()
            click = await fake.click(boss, message, start)
            await answer_env(fake, click)
            expected = entrants // 2
            while True:
                tables = await tstore.tournament_tables(db, row.id, 1)
                shown = 0
                for table in tables:
                    if table.game_id is None:
                        continue
                    game_row = await store.load_game(db, table.game_id)
                    if game_row is not None and game_row.message_id is not None:
                        shown += 1
                if shown >= expected:
                    break
                if time.perf_counter() - started > 600:
                    raise TimeoutError(f"only {shown} of {expected} boards after 10 minutes")
                await asyncio.sleep(0.05)
            elapsed = time.perf_counter() - started
            requests = fake.rest.requests[first_request:]
            by_route = collections.Counter(f"{r.method} {r.route}" for r in requests)
            per_second = collections.Counter(int(r.at) for r in requests if r.at)
            limited = [r for r in requests if r.status == 429]
            print(
                f"{entrants} entrants, {game}: {expected} games, every board shown after "
                f"{elapsed:.2f} s"
            )
            print(
                f"requests: {len(requests)}; busiest second: {max(per_second.values())} "
                f"(Discord's global budget: 50/s)"
            )
            for route, count in by_route.most_common():
                print(f"  {count:4d}  {route}")
            print(
                f"429 answers: {len(limited)} "
                f"({', '.join(sorted({r.route for r in limited})) or 'none'}); "
                "none global (a global limit would have stalled every route)"
            )
            await db.close()
        finally:
            await bot.kill()


async def answer_env(fake: FakeDiscord, interaction):  # type: ignore[no-untyped-def]
    class _Env:
        pass

    env = _Env()
    env.fake = fake  # type: ignore[attr-defined]
    return await answer(env, interaction)  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=64)
    parser.add_argument("--game", default="ur")
    args = parser.parse_args()
    asyncio.run(run(args.entrants, args.game))


if __name__ == "__main__":
    main()
