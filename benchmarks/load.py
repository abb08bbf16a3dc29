"""Load test: N games at once, played through the fake Discord by simulated players.

    python benchmarks/load.py [--games 200] [--duration 60] [--think 2 6] [--ai-delay 1.2]
        [--restart] [--py-spy FILE [--py-spy-gil]] [--bot-dir DIR --bot-python PYTHON]
        [--database sqlite --database postgresql://root@127.0.0.1/postgres] [--processes N]

Starts the fake Discord (tests/e2e) and the real bot (``python -m bot``) on a fresh database,
opens one game per channel with ``/play`` (ur, ludo and backgammon in turn; each game gets a
thread), and lets one simulated player per game click a random offered button after a think
time, for ``--duration`` seconds once every game is running. A finished game is followed by a
new one in the same channel, so N games stay in play.

Prints p50/p95/p99/max of click -> acknowledgement (the interaction callback) and of
click -> new board (the first message edit or post with the new image in the game's channel),
both from the fake's clock, plus the bot's peak memory (VmHWM) and CPU time. Targets on the
2-core reference machine: ack p99 <= 30 ms, new board p99 <= 150 ms with 200 games.

Also printed: the bot's own account of each click from its access log (ack, store, render,
edit/post: where the time went), and a calibration time of fixed Python work, since a shared
machine's speed drifts by half within hours; ``--py-spy FILE`` profiles the bot meanwhile
(``.txt`` gives collapsed stacks per thread; ``--py-spy-gil`` samples only the thread holding
the interpreter lock, so waits for it do not show as work). ``--restart`` ends the run with a
SIGKILL under load and times how long after the restarted bot's READY every board shows its
stored version.

``--reviews N`` measures the skill record's background reviews under the load: before the
bot starts, N finished rated backgammon games (two people clicking at random, through the
game service) are stored in the SQLite database, and the bot runs with one expert worker and
one background review worker, so its reviewer works through them while the players click;
``--reviews 0`` is the same bot with the background reviews off (the comparison). The run
ends with the queue's counts.

``--database`` runs the same load on each store given, one after the other, and ends with a
table comparing them; ``--processes N`` runs N bot processes, one gateway shard each, on
one PostgreSQL database, with the games spread over N servers (one per shard).

The fake Discord enforces Discord's limits (``sandbox.fake_limits``: 50 bot-token
requests a second for the whole bot, all processes together, interaction routes exempt;
5 posts in 5 s per channel; route buckets; 15-minute interaction tokens). The run reports the
requests by kind and by budget (bot token, interaction), per interaction, the bot token's
requests a second (mean and the peak within any second), the busiest channel's posts within
any 5 s, and the 429s Discord would have answered, by scope (``--no-limits``: a Discord that
never says no, as every figure before issue 27 was measured).

Only loopback traffic; every wait is bounded, and the bot is killed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sandbox.fake_discord import FakeDiscord  # noqa: E402
from sandbox.fake_limits import DISCORD_LIMITS, NO_RATE_LIMITS, TrafficReport  # noqa: E402
from sandbox.fake_model import Channel, Interaction, Message, User  # noqa: E402
from sandbox.fake_rest import RequestRecord  # noqa: E402
from tests.driver.boards import Board, read_board  # noqa: E402
from tests.driver.bots import BOT_ENV, start_and_wait_ready  # noqa: E402
from tests.driver.members import parse_link  # noqa: E402
from tests.driver.process import BotProcess  # noqa: E402
from tests.driver.tokens import CLICK_WEIGHTS  # noqa: E402

GAMES = ("ur", "ludo", "backgammon")
START_CONCURRENCY = 8  # /play commands in flight while the games are being opened
# The player's game showed no newer board in this long: stuck; resign and start another game.
# A game that moves counts as alive however long its player waits for a choice (a Ludo person
# whose automatic rolls bring no six watches three AI seats go round for minutes).
STUCK_SECONDS = 90.0
ANSWER_SECONDS = 30.0


# ------------------------------------------------------------------------------ watching


class Watch:
    """Wakes the players of a channel whenever a bot message there is created or edited.

    The fake's own ``wait_for`` wakes every waiter on every request, which costs O(players)
    per request; this keeps per-channel events and the time each board message appeared.
    """

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.events: dict[int, asyncio.Event] = {}
        self.boards: dict[int, list[Message]] = {}  # channel -> bot messages, oldest first
        self.posted_at: dict[int, float] = {}
        self.png_bytes: list[int] = []
        original = fake.gateway.message_event

        def hook(event: str, message: Message) -> None:
            original(event, message)
            if message.author_id != fake.bot_user.id:
                return
            if message.attachments:
                self.png_bytes.append(len(message.attachments[0].data))
            if event == "MESSAGE_CREATE":
                self.posted_at[message.id] = time.monotonic()
                self.boards.setdefault(message.channel_id, []).append(message)
            self.event(message.channel_id).set()

        fake.gateway.message_event = hook  # type: ignore[method-assign]

    def event(self, channel_id: int) -> asyncio.Event:
        return self.events.setdefault(channel_id, asyncio.Event())

    def newest_board(self, channel_id: int, game_id: str | None) -> Board | None:
        best: Board | None = None
        for message in reversed(self.boards.get(channel_id, [])[-6:]):
            board = read_board(message)
            if board is None or (game_id is not None and board.game_id != game_id):
                continue
            if best is None or board.version > best.version:
                best = board
        return best

    def first_board_after(self, channel_id: int, clicked: Message, since: float) -> float | None:
        """When the first new picture appeared after ``since``: an edit of the clicked board
        or a new board message in the channel."""
        times = [t for t in clicked.edited_at if t >= since]
        times += [
            self.posted_at[m.id]
            for m in self.boards.get(channel_id, [])[-4:]
            if self.posted_at.get(m.id, 0.0) >= since and m.attachments
        ]
        return min(times) if times else None


# ------------------------------------------------------------------------------ players


@dataclass
class Stats:
    acks: list[float] = field(default_factory=list)
    boards: list[float] = field(default_factory=list)
    refused: int = 0
    unanswered: int = 0
    finished: int = 0
    stuck: int = 0
    started: int = 0
    start_acks: list[float] = field(default_factory=list)
    # (when the click was made, its click -> new board time), for the cold-start figure
    timeline: list[tuple[float, float]] = field(default_factory=list)
    stuck_boards: list[str] = field(default_factory=list)


@dataclass
class Player:
    user: User
    parent: Channel
    game: str
    rng: random.Random
    channel_id: int = 0
    game_id: str | None = None
    version: int = -1


async def open_game(fake: FakeDiscord, watch: Watch, player: Player, stats: Stats) -> None:
    command = await fake.slash(
        player.user, "play", {"game": player.game, "difficulty": "easy"}, channel=player.parent
    )
    reply = await fake.response_of(command, timeout=ANSWER_SECONDS)
    assert command.callback_at is not None
    stats.start_acks.append(command.callback_at - command.created)
    player.channel_id, _ = parse_link(reply.content)
    player.game_id, player.version = None, -1
    stats.started += 1


def describe_stuck(watch: Watch, player: Player) -> str:
    board = watch.newest_board(player.channel_id, player.game_id)
    if board is None:
        return f"{player.game} {player.game_id}: no board"
    first_line = board.message.content.splitlines()[0] if board.message.content else ""
    return (
        f"{player.game} {board.game_id} v{board.version} (player saw v{player.version}) "
        f"on turn {board.on_turn!r} tokens {board.tokens} | {first_line[:80]}"
    )


async def wait_my_turn(watch: Watch, player: Player, timeout: float) -> Board | None:  # noqa: ASYNC109
    """The player's next board with a choice (or the end); None when the game showed nothing
    newer for ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    event = watch.event(player.channel_id)
    seen = -1
    while True:
        event.clear()
        board = watch.newest_board(player.channel_id, player.game_id)
        if board is not None and board.version > player.version:
            player.game_id = board.game_id
            if board.finished or (board.on_turn == player.user.name and board.tokens):
                return board
        if board is not None and board.version > seen:
            seen = board.version
            deadline = time.monotonic() + timeout
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), min(remaining, 1.0))


async def measure(
    fake: FakeDiscord, watch: Watch, player: Player, clicked: Message, ix: Interaction, stats: Stats
) -> None:
    """Wait (bounded) for the ack and the new board of one click, then record both."""
    deadline = ix.created + ANSWER_SECONDS
    event = watch.event(player.channel_id)
    while time.monotonic() < deadline:
        refused = bool(ix.followup_ids)
        shown = watch.first_board_after(player.channel_id, clicked, ix.created)
        if ix.callback_at is not None and (shown is not None or refused):
            stats.acks.append(ix.callback_at - ix.created)
            if refused:
                stats.refused += 1
            else:
                stats.boards.append(shown - ix.created)  # type: ignore[operator]
                stats.timeline.append((ix.created, shown - ix.created))  # type: ignore[operator]
            return
        event.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), 0.05)
    stats.unanswered += 1


async def play_forever(
    fake: FakeDiscord,
    watch: Watch,
    player: Player,
    stats: Stats,
    think: tuple[float, float],
    stop: asyncio.Event,
    measuring: asyncio.Event,
) -> None:
    while not stop.is_set():
        board = await wait_my_turn(watch, player, STUCK_SECONDS)
        if board is None or board.finished:
            if board is None:
                stats.stuck += 1
                stats.stuck_boards.append(describe_stuck(watch, player))
                resign = await fake.slash(player.user, "resign", channel=player.channel_id)
                with contextlib.suppress(TimeoutError):
                    await fake.response_of(resign, timeout=ANSWER_SECONDS)
            else:
                stats.finished += 1
            await open_game(fake, watch, player, stats)
            continue
        await asyncio.sleep(player.rng.uniform(*think))
        if stop.is_set():
            return
        tokens = [t for t in board.tokens if board.is_game_action(t)]
        token = player.rng.choices(tokens, [CLICK_WEIGHTS.get(t, 1.0) for t in tokens])[0]
        ix = await fake.click(player.user, board.message, board.custom_id(token))
        player.version = board.version
        if measuring.is_set():
            await measure(fake, watch, player, board.message, ix, stats)


# ------------------------------------------------------------------------------ the run


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def describe(name: str, values: list[float]) -> str:
    if not values:
        return f"{name}: no samples"
    ms = [v * 1000 for v in values]
    return (
        f"{name}: n={len(ms)} p50={percentile(ms, 50):.1f} ms p95={percentile(ms, 95):.1f} ms "
        f"p99={percentile(ms, 99):.1f} ms max={max(ms):.1f} ms mean={statistics.fmean(ms):.1f} ms"
    )


ACCESS_PHASES = re.compile(r" (\w+)_ms=([\d.]+)")


def bot_phases(log: str, since: float) -> dict[str, list[float]]:
    """Where the bot says each answered click's time went (its access-log lines, written from
    ``since`` on): latency, ack, store, render, edit/post; in seconds."""
    phases: dict[str, list[float]] = {}
    for line in log.splitlines():
        if "tabula.access" not in line or "outcome=ok" not in line:
            continue
        try:
            stamp = time.mktime(time.strptime(line[:19], "%Y-%m-%d %H:%M:%S"))
        except ValueError:
            continue
        if stamp < since:
            continue
        for name, ms in ACCESS_PHASES.findall(line):
            phases.setdefault(name, []).append(float(ms) / 1000)
    return phases


def calibration_ms() -> float:
    """Median time of a fixed piece of pure-Python work: how fast this machine is right now.
    Shared machines vary by half from hour to hour; compare load figures only at similar
    calibration times."""
    times = []
    for _ in range(7):
        start = time.perf_counter()
        total = 0
        for i in range(300_000):
            total += i * i % 7
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def proc_status(pid: int, key: str) -> str:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return line.split(":", 1)[1].strip()
    return "?"


def cpu_seconds(pid: int, tid: int | None = None) -> float:
    """CPU time of process ``pid``, or of its thread ``tid`` only."""
    stat = f"/proc/{pid}/stat" if tid is None else f"/proc/{pid}/task/{tid}/stat"
    fields = Path(stat).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Cpu:
    """The bot's CPU time, split into its event loop (the main thread, whose thread id is the
    process id) and every other thread (renders, the database thread, AI, the gateway's
    keep-alive)."""

    total: float
    loop: float

    @classmethod
    def read(cls, pid: int) -> Cpu:
        return cls(cpu_seconds(pid), cpu_seconds(pid, pid))

    def __sub__(self, other: Cpu) -> Cpu:
        return Cpu(self.total - other.total, self.loop - other.loop)


def cpu_lines(cpu: Cpu, wall: float, clicks: int, boards: int, calibration: float) -> list[str]:
    """CPU per click (everything the bot did in the window, AI moves and their boards
    included, divided by the players' clicks) and that figure over the calibration time, so
    runs on machines or days of different speed compare."""
    per_click = 1000 * cpu.total / max(clicks, 1)
    return [
        f"bot: CPU {cpu.total:.1f} s in {wall:.1f} s ({100 * cpu.total / wall:.0f}% of one core): "
        f"event loop {cpu.loop:.1f} s, other threads {cpu.total - cpu.loop:.1f} s",
        f"CPU per click {per_click:.2f} ms (event loop {1000 * cpu.loop / max(clicks, 1):.2f}, "
        f"other threads {1000 * (cpu.total - cpu.loop) / max(clicks, 1):.2f}); "
        f"{boards} boards drawn, {1000 * cpu.total / max(boards, 1):.2f} ms per board; "
        f"per click / calibration = {per_click / calibration:.3f}",
    ]


def start_profiler(
    pid: int, seconds: float, out: Path, gil: bool = False
) -> subprocess.Popen[bytes] | None:
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        print("py-spy is not installed: no profile")
        return None
    command = [spy, "record", "-p", str(pid), "-d", str(int(seconds)), "-o", str(out)]
    formats = {".json": "speedscope", ".txt": "raw"}  # raw: collapsed stacks, one per thread
    command += ["--format", formats.get(out.suffix, "flamegraph"), "--threads"]
    if gil:  # only the thread holding the interpreter: Python's CPU, not its waits for the GIL
        command.append("--gil")
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)


class CheckoutBot(BotProcess):
    """The bot run from a given checkout with a given interpreter, so an older commit (a git
    worktree with its own virtual environment) can be measured in the same session as this
    one: machine speed drifts too much for figures from different days to compare."""

    python = sys.executable

    def command(self) -> list[str]:
        return [self.python, "-m", "bot"]

    def environment(self) -> dict[str, str]:
        # The real time, as in production: this run moves no clock, and the tests' clock
        # (TEST_CLOCK_FILE) costs a stat() per reading, about ten a click, each of which lets
        # the render threads take the interpreter lock from the event loop (measured: 7-8 %
        # of the CPU per click and half the board p99 at 200 games).
        env = super().environment()
        env.pop("TEST_CLOCK_FILE", None)
        return env


@dataclass
class Outcome:
    """One run's figures, for the table that compares runs."""

    label: str
    calibration: float
    stats: Stats
    wall: float
    cpu: list[Cpu]
    boards: int
    traffic: TrafficReport | None = None


async def fresh_postgres(url: str) -> tuple[str, str]:
    """A new, empty database on the server of ``url``: (its URL, its name)."""
    import asyncpg  # only PostgreSQL runs need it

    name = f"tabula_load_{os.getpid()}_{random.randrange(1 << 30)}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}", name


async def drop_postgres(url: str, name: str) -> None:
    import asyncpg

    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


async def run(args: argparse.Namespace) -> None:
    outcomes = []
    for database in args.database or ["sqlite"]:
        outcomes.append(await run_once(args, database))
    if len(outcomes) > 1:
        print()
        print(comparison_table(outcomes))


def comparison_table(outcomes: list[Outcome]) -> str:
    def p(values: list[float], q: float) -> str:
        return f"{percentile([v * 1000 for v in values], q):.1f}" if values else "-"

    lines = [
        "| store | processes | calibration | ack p50/p95/p99 ms | board p50/p95/p99 ms "
        "| clicks/s | CPU per click (each process) ms | bot-token req/s mean / peak "
        "| 429s global / route |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for o in outcomes:
        st = o.stats
        clicks = max(len(st.acks), 1)
        per_process = " / ".join(f"{1000 * c.total / clicks * len(o.cpu):.2f}" for c in o.cpu)
        lines.append(
            f"| {o.label} | {len(o.cpu)} | {o.calibration:.1f} ms "
            f"| {p(st.acks, 50)} / {p(st.acks, 95)} / {p(st.acks, 99)} "
            f"| {p(st.boards, 50)} / {p(st.boards, 95)} / {p(st.boards, 99)} "
            f"| {len(st.acks) / o.wall:.1f} | {per_process} "
            f"| {budget_cells(o.traffic)} |"
        )
    lines.append(
        "CPU per click of a process: its CPU over the clicks of its own servers (total clicks "
        "divided by the number of processes, which split the servers evenly)."
    )
    return "\n".join(lines)


def budget_cells(traffic: TrafficReport | None) -> str:
    if traffic is None:
        return "- | -"
    limited = traffic.rate_limited
    return (
        f"{traffic.bot_token_rate_mean:.1f} / {traffic.bot_token_rate_peak} "
        f"| {limited.get('global', 0)} / {limited.get('user', 0) + limited.get('shared', 0)}"
    )


async def run_once(args: argparse.Namespace, database: str) -> Outcome:
    workdir = Path(tempfile.mkdtemp(prefix="tabula-load-"))
    calibration = calibration_ms()
    processes = args.processes
    pg_name = ""
    if database.startswith("postgres"):
        url, pg_name = await fresh_postgres(database)
        label = "PostgreSQL"
    else:
        if processes > 1:
            raise SystemExit("--processes above 1 needs a PostgreSQL --database")
        url, label = f"sqlite:///{workdir / 'tabula.sqlite3'}", "SQLite"
    limits = NO_RATE_LIMITS if args.no_limits else DISCORD_LIMITS
    async with FakeDiscord(ack_deadline=3.0, shard_count=processes, limits=limits) as fake:
        env = {**BOT_ENV, "AI_MOVE_DELAY_SECONDS": str(args.ai_delay)}
        if args.reviews is not None:
            if pg_name:
                raise SystemExit("--reviews seeds the SQLite database only")
            await seed_reviews(workdir / "tabula.sqlite3", args.reviews)
            env["EXPERT_WORKERS"] = "1"
            env["BACKGROUND_REVIEW_WORKERS"] = "1" if args.reviews else "0"
        if pg_name:  # SQLite: the harness's DATABASE_PATH, which older checkouts know too
            env["DATABASE_URL"] = url
        bots = []
        for index in range(processes):
            shard_env = (
                {"SHARD_IDS": str(index), "SHARD_COUNT": str(processes)} if processes > 1 else {}
            )
            bot = CheckoutBot(
                fake,
                "bot",
                env={**env, **shard_env},
                database_path=workdir / "tabula.sqlite3",
                log_path=workdir / f"bot{index}.log",
                cwd=args.bot_dir or ROOT,
            )
            bot.python = args.bot_python or sys.executable
            bots.append(bot)
        watch = Watch(fake)
        stats = Stats()
        try:
            for bot in bots:
                await start_and_wait_ready(bot)
            rng = random.Random(args.seed)
            guilds = (
                [
                    await fake.add_guild(f"server-{i}", shard=(i, processes))
                    for i in range(processes)
                ]
                if processes > 1
                else [fake.guild]
            )
            players = []
            for i in range(args.games):
                guild = guilds[i % len(guilds)]
                players.append(
                    Player(
                        await fake.add_member(f"player{i}", guild=guild),
                        await fake.add_channel(f"table-{i}", guild=guild),
                        GAMES[i % len(GAMES)],
                        random.Random(rng.random()),
                    )
                )
            opened = time.monotonic()
            gate = asyncio.Semaphore(START_CONCURRENCY)

            async def open_one(player: Player) -> None:
                async with gate:
                    await open_game(fake, watch, player, stats)

            await asyncio.gather(*(open_one(p) for p in players))
            print(f"{label}: {args.games} games opened in {time.monotonic() - opened:.1f} s")

            stop, measuring = asyncio.Event(), asyncio.Event()
            tasks = [
                asyncio.create_task(
                    play_forever(fake, watch, p, stats, tuple(args.think), stop, measuring)
                )
                for p in players
            ]
            await asyncio.sleep(args.warmup)  # let the think times spread out
            measuring.set()
            opening = fake.traffic.report()  # the bot's start, the games' openings
            fake.traffic.reset()
            measured_from = time.time()
            pids = [bot.pid for bot in bots if bot.pid is not None]
            cpu_before, wall_before = [Cpu.read(pid) for pid in pids], time.monotonic()
            boards_before = len(watch.png_bytes)
            profiler = (
                start_profiler(pids[0], args.duration, Path(args.py_spy), args.py_spy_gil)
                if args.py_spy
                else None
            )
            await asyncio.sleep(args.duration)
            cpu = [Cpu.read(pid) - before for pid, before in zip(pids, cpu_before, strict=True)]
            wall = time.monotonic() - wall_before
            requests = requests_by_kind(fake, wall_before, wall_before + wall)
            traffic = fake.traffic.report()
            window = [r for r in fake.requests if wall_before <= r.at <= wall_before + wall]
            boards_drawn = len(watch.png_bytes) - boards_before
            peaks = [proc_status(pid, "VmHWM") for pid in pids]  # before --restart ends them
            restart_line = await restart_under_load(bots, url, stats, fake) if args.restart else ""
            stop.set()
            measuring.clear()
            await asyncio.wait(tasks, timeout=ANSWER_SECONDS)
            for task in tasks:
                task.cancel()
            if profiler is not None:
                profiler.wait(timeout=60)
                print(f"profile written to {args.py_spy}")

            log = "".join(bot.output() for bot in bots)
            slow = log.count("slow render")
            print(
                f"--- {label}, {processes} process(es), {args.games} games, "
                f"{args.duration:.0f} s measured, think {args.think} s,"
            )
            print(f"    AI delay {args.ai_delay} s; machine calibration {calibration:.1f} ms")
            print(describe("click -> ack      ", stats.acks))
            print(describe("click -> new board", stats.boards))
            print(describe("/play -> ack      ", stats.start_acks))
            print("inside the bot (its access log: click received -> board shown):")
            for name, values in bot_phases(log, measured_from).items():
                print("  " + describe(f"{name:<8}", values))
            print(
                f"clicks measured {len(stats.acks)} ({len(stats.acks) / wall:.1f}/s), "
                f"refused {stats.refused}, unanswered {stats.unanswered}, "
                f"games started {stats.started}, finished {stats.finished}, stuck {stats.stuck}"
            )
            for index, (peak, used) in enumerate(zip(peaks, cpu, strict=True)):
                print(
                    f"bot {index}: peak RSS (VmHWM) {peak}, "
                    f"slow-render warnings {slow if processes == 1 else '-'}"
                )
                share = max(len(stats.acks) // processes, 1)
                for line in cpu_lines(used, wall, share, boards_drawn // processes, calibration):
                    print("  " + line)
            per_click = ", ".join(
                f"{kind} {count / max(len(stats.acks), 1):.2f}" for kind, count in requests.items()
            )
            total = sum(requests.values()) / max(len(stats.acks), 1)
            print(f"Discord requests per click: {total:.2f} ({per_click})")
            for line in budget_lines(traffic, window, limits.rate_limits):
                print(line)
            print(
                f"before measuring (start-up, {args.games} /play with their threads and first "
                f"boards): {opening.requests.get('bot_token', 0)} bot-token requests, peak "
                f"{opening.bot_token_rate_peak} within one second; 429s by scope: "
                + (", ".join(f"{k} {n}" for k, n in sorted(opening.rate_limited.items())) or "none")
            )
            own = resource.getrusage(resource.RUSAGE_SELF)
            print(
                f"boards: mean PNG {statistics.fmean(watch.png_bytes or [0]) / 1024:.0f} KiB; "
                f"this process (fake Discord + players) used "
                f"{own.ru_utime + own.ru_stime:.1f} s CPU in all"
            )
            if restart_line:
                print(restart_line)
            if args.reviews is not None:
                print(await review_counts(workdir / "tabula.sqlite3"))
            for line in stats.stuck_boards[:10]:
                print(f"stuck: {line}")
            print(f"bot logs: {workdir}")
            return Outcome(label, calibration, stats, wall, cpu, boards_drawn, traffic)
        finally:
            for bot in bots:
                await bot.kill()
            if pg_name:
                await drop_postgres(database, pg_name)


def requests_by_kind(fake: FakeDiscord, start: float, end: float) -> dict[str, int]:
    """The bot's REST requests to the fake Discord between ``start`` and ``end`` (monotonic),
    counted by what they do: each costs the bot's event loop a request built and sent and an
    answer parsed."""
    kinds = {
        ("POST", "/interactions/{interaction_id}/{token}/callback"): "acknowledgements",
        ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}"): "interaction edits",
        ("POST", "/webhooks/{app_id}/{token}"): "follow-ups",
        ("PATCH", "/channels/{channel_id}/messages/{message_id}"): "bot-token edits",
        ("POST", "/channels/{channel_id}/messages"): "bot-token posts",
    }
    counted: dict[str, int] = {}
    for record in fake.requests:
        if start <= record.at <= end:
            kind = kinds.get((record.method, record.route), "other")
            counted[kind] = counted.get(kind, 0) + 1
    return counted


CALLBACK = "/interactions/{interaction_id}/{token}/callback"
CHANNEL_POST = "/channels/{channel_id}/messages"
CHANNEL_WINDOW = 5.0  # Discord's per-channel figure: about 5 posts in 5 seconds


def most_within(times: list[float], seconds: float) -> int:
    """The most of ``times`` within any ``seconds``."""
    ordered, best, first = sorted(times), 0, 0
    for last, at in enumerate(ordered):
        while at - ordered[first] >= seconds:
            first += 1
        best = max(best, last - first + 1)
    return best


def budget_lines(traffic: TrafficReport, window: list[RequestRecord], limited: bool) -> list[str]:
    """The requests of the measured window by budget, per interaction, the bot token's rate,
    the busiest channel's posts within any 5 s, and the 429s by scope."""
    interactions = sum(1 for r in window if r.route == CALLBACK)
    bot_token = traffic.requests.get("bot_token", 0)
    posts: dict[str, list[float]] = {}
    for r in window:
        if r.budget == "bot_token" and r.method == "POST" and r.route == CHANNEL_POST:
            posts.setdefault(r.path, []).append(r.at)
    busiest = max((most_within(times, CHANNEL_WINDOW) for times in posts.values()), default=0)
    limited_by = ", ".join(f"{scope} {n}" for scope, n in sorted(traffic.rate_limited.items()))
    top = sorted(((n, route) for route, n in traffic.by_route.items() if n), reverse=True)[:6]
    return [
        f"Discord's limits {'ON' if limited else 'OFF'}: requests by budget "
        + ", ".join(f"{b} {n}" for b, n in sorted(traffic.requests.items())),
        f"interactions {interactions}; bot-token requests per interaction "
        f"{bot_token / max(interactions, 1):.3f}",
        f"bot-token requests a second: mean {traffic.bot_token_rate_mean:.1f}, peak "
        f"{traffic.bot_token_rate_peak} within one second (Discord's global limit: 50, all "
        f"processes together)",
        f"busiest channel: {busiest} bot-token posts within {CHANNEL_WINDOW:.0f} s (limit 5)",
        f"429s by scope: {limited_by or 'none'}",
        "routes: " + ", ".join(f"{route} {n}" for n, route in top),
    ]


async def stored_versions(url: str) -> list[tuple[int, int | None]]:
    """(version, board message id) of every active game, read from the bot's database."""
    query = "SELECT version, message_id FROM games WHERE status = 'active'"
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            return [(int(v), m) for v, m in db.execute(query).fetchall()]
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return [(int(r[0]), r[1]) for r in await conn.fetch(query)]
    finally:
        await conn.close()


async def boards_behind(url: str, fake: FakeDiscord) -> tuple[int, int]:
    """(active games, those whose board message does not show the stored version)."""
    rows = await stored_versions(url)
    behind = 0
    for version, message_id in rows:
        message = fake.world.messages.get(message_id or 0)
        board = read_board(message) if message is not None else None
        if board is None or board.version != version:
            behind += 1
    return len(rows), behind


FIRST_CLICKS = 20  # clicks after a restart whose boards measure the cold start


async def restart_under_load(
    bots: list[CheckoutBot], url: str, stats: Stats, fake: FakeDiscord
) -> str:
    """SIGKILL the bot while the players click, start it again, and time (1) the boards of the
    first clicks after its gateway READY (the cold start: a restarted process must draw
    them as fast as a warm one) and (2) how long until every board shows its game's stored
    version again, with the bot token's requests and the 429s meanwhile (the refresh of the
    boards a crash left behind is the bot token's biggest burst). With several processes the
    first is restarted; the others play on, spending the same global budget."""
    bot = bots[0]
    await bot.kill()
    killed = time.monotonic()
    fake.traffic.reset()
    await start_and_wait_ready(bot)
    ready = time.monotonic()  # on_ready's log line seen (polled: up to ~50 ms late)
    active, behind_at_ready = await boards_behind(url, fake)
    behind = behind_at_ready
    while behind and time.monotonic() - ready < 120:
        await asyncio.sleep(0.05)
        _, behind = await boards_behind(url, fake)
    done = time.monotonic()
    during = fake.traffic.report()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if sum(1 for at, _ in stats.timeline if at >= ready) >= FIRST_CLICKS:
            break
        await asyncio.sleep(0.1)
    first = sorted((at, board) for at, board in stats.timeline if at >= ready)[:FIRST_CLICKS]
    status = "all boards current" if not behind else f"{behind} boards STILL behind"
    lines = [
        f"restart under load: {active} active games, {behind_at_ready} boards behind at READY; "
        f"{status} {done - ready:.2f} s after READY ({done - killed:.2f} s after the SIGKILL)",
        f"  meanwhile: {during.requests.get('bot_token', 0)} bot-token requests, peak "
        f"{during.bot_token_rate_peak} within one second; 429s by scope: "
        + (", ".join(f"{k} {n}" for k, n in sorted(during.rate_limited.items())) or "none"),
    ]
    if first:
        boards = [board * 1000 for _, board in first]
        lines.append(
            f"cold start: the first {len(first)} clicks after READY (the first "
            f"{1000 * (first[0][0] - ready):.0f} ms after it): click -> new board "
            f"first {boards[0]:.0f} ms, p50 {statistics.median(boards):.0f} ms, "
            f"max {max(boards):.0f} ms; the first board "
            f"{1000 * (first[0][0] + first[0][1] - ready):.0f} ms after READY"
        )
    return "\n".join(lines)


async def seed_reviews(path: Path, count: int) -> None:
    """``count`` finished rated backgammon games between people, waiting for review."""
    from bot import storage
    from bot.service.games import GameService
    from bot.service.models import SeatInfo

    db = await storage.Database.open(path)
    try:
        games = GameService(db)
        rng = random.Random(count)
        for n in range(count):
            seats = (SeatInfo(0, 10_000 + 2 * n, "ann"), SeatInfo(1, 10_001 + 2 * n, "bob"))
            game = await games.start(
                game="backgammon",
                guild_id=1,
                channel_id=900_000 + n,
                parent_channel_id=None,
                seats=seats,
            )
            while not game.finished:
                choice = rng.choice(game.choices())
                user = game.seat_on_turn.user_id
                assert user is not None
                result = await games.act(
                    game.id, user, game.version, choice.token, channel_id=900_000 + n
                )
                game = result.after
    finally:
        await db.close()
    print(f"{count} finished rated games stored for the background reviews")


async def review_counts(path: Path) -> str:
    from bot import storage
    from bot.storage.skill import queue_counts

    db = await storage.Database.open(path)
    try:
        c = await queue_counts(db)
    finally:
        await db.close()
    return (
        f"background reviews: done {c.done}, failed {c.failed}, "
        f"claimed {c.claimed}, waiting {c.queued}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games in play at once")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    parser.add_argument(
        "--think",
        type=float,
        nargs=2,
        default=(2.0, 6.0),
        metavar=("MIN", "MAX"),
        help="a player's think time before each click, uniform in seconds",
    )
    parser.add_argument(
        "--ai-delay", type=float, default=1.2, help="AI_MOVE_DELAY_SECONDS for the bot"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-limits",
        action="store_true",
        help="a fake Discord without rate limits (how the figures before issue 27 were made)",
    )
    parser.add_argument(
        "--restart",
        action="store_true",
        help="at the end, SIGKILL the bot under load, restart it, time the board refresh",
    )
    parser.add_argument(
        "--database",
        action="append",
        metavar="URL",
        help="sqlite (the default) or a PostgreSQL server URL (a fresh database is created on "
        "it and dropped); give it twice to run the same load on both and compare",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="bot processes, one shard each, sharing the (PostgreSQL) database",
    )
    parser.add_argument(
        "--bot-dir",
        metavar="DIR",
        help="run the bot from this checkout (e.g. `git worktree add /tmp/old <commit>`)",
    )
    parser.add_argument(
        "--bot-python", metavar="PYTHON", help="the interpreter for --bot-dir (its own venv)"
    )
    parser.add_argument(
        "--py-spy",
        metavar="FILE",
        help="profile the bot with py-spy while measuring (.svg/.json/.txt)",
    )
    parser.add_argument(
        "--reviews",
        type=int,
        metavar="N",
        help="N finished rated games for the background reviews to work through (0: off)",
    )
    parser.add_argument(
        "--py-spy-gil",
        action="store_true",
        help="profile only the thread holding the GIL (where Python's CPU goes)",
    )
    args = parser.parse_args()
    if args.bot_dir:
        args.bot_dir = Path(args.bot_dir).resolve()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
