"""Shared helpers for the end-to-end tests of the real bot (``python -m bot``) on the fake Discord.

- :func:`running_bot` starts a FakeDiscord and the bot on a fresh database and yields a
  :class:`BotEnv` (restart, the database read through ``bot.storage``, members, channels).
- :class:`Table` follows one game in one channel the way a player does: it reads the newest
  board message (text, image, buttons), clicks an offered button as the player named on turn,
  and records every click with the bot's answer, so a test can compare the clicks with the
  action log the bot stored.
- :func:`check_log_matches_clicks` is that comparison: every click the bot accepted appears
  exactly once in the log, in order, and the log replays to the stored state.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import random
import re
import time
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from PIL import Image

from bot import games
from bot import storage as store
from bot.engines.common import Phase, replay
from bot.i18n import available_locales, tr
from bot.vocabulary.options import engine_options
from sandbox.fake_discord import FakeDiscord, InteractionResponse
from sandbox.fake_limits import DISCORD_LIMITS
from sandbox.fake_model import (
    Channel,
    Interaction,
    Json,
    Message,
    MessageFlag,
    User,
    walk_components,
)
from sandbox.fake_rest import RequestRecord
from tests.e2e.harness import BotProcess
from tests.e2e.in_process import BotInProcess

BOT_ENV = {
    "AI_MOVE_DELAY_SECONDS": "0",
    "EXPERT_WORKERS": "0",  # bgsage workers: only the review test starts them
    "LOG_LEVEL": "INFO",  # DEBUG is verbose: slower, and the log is read back
}
GAMES = ("ur", "ludo", "backgammon")  # the built-in games, quickest to play first
READY_LINE = "bot.client: connected as"
STEP_TIMEOUT = 30.0  # one click or one AI turn; generous for a loaded 2-core CI machine
# Seconds from a click to the bot's first response: what the tests hold the bot to is
# Discord's deadline (past it the user sees "This interaction failed"), read on the fake's
# clock in the test process, which a loaded CI machine stalls too. How far under it the bot
# answers (tens of milliseconds at p99) is a figure of the load benchmark, not a test.
ACK_LIMIT = DISCORD_LIMITS.ack_deadline
# Until a person is on turn again: at a Ludo table up to three AI seats play in a row, each
# an AI turn of STEP_TIMEOUT at most.
TURN_TIMEOUT = 3 * STEP_TIMEOUT
# What the bot answers when the database did not answer a click in time, in every language:
# nothing was changed, and the person is asked to click again (``Table.click`` does).
TRY_AGAIN = frozenset(tr("error.database_unavailable", locale) for locale in available_locales())
TRIES = 5
STUCK_START_SECONDS = 3.0  # an easy AI's first move takes milliseconds; seconds mean never

# Boards are in the server's language, any shipped one: "-# game `id` · move 12" and its
# translations ("-# partie `id` · coup 12", "-# गेम `id` · चाल 12").
FOOTER = re.compile(r"-# [^`\n]+ `([0-9a-f]{8})` · (?:[^·\n]+ · )?[^\d·\n]+ (\d+)")
# The board's version (its buttons carry it too): in the picture's name, ``ur-12.png``.
PICTURE = re.compile(r"-(\d+)\.png$")
# The status line names the seat on turn, "name (colour)", whatever the phase asks of it.
ON_TURN = re.compile(r"➡️ (.+?) \([^()]+\)[ :]")
CUSTOM_ID = re.compile(r"^tabula:([0-9a-f]{8}):(\d+):(.+)$")
LINK = re.compile(r"https://discord\.com/channels/(?:\d+|@me)/(\d+)(?:/(\d+))?")

# Tokens whose click becomes an engine action (logged); the others only change the draft.
ROLL_TOKENS = {"roll"}
CUBE_TOKENS = {"dbl", "take", "drop"}
MOVE_TOKEN = re.compile(r"^(m\d+|t\d+\.\d+|pl\d+|ok)$")
UR_MOVE = re.compile(r"^m(\d+)$")
LUDO_MOVE = re.compile(r"^t(\d+)\.(\d+)$")
# Players pick among offered buttons at random, but lean away from the ones that undo
# progress or end a game early, so whole games stay short enough for CI.
CLICK_WEIGHTS = {"undo": 0.1, "back": 0.1, "dbl": 0.05, "drop": 0.3}


# ------------------------------------------------------------------------------ the bot


@dataclass
class BotEnv:
    """A running bot on a fake Discord, with its database file."""

    fake: FakeDiscord
    bot: BotProcess | BotInProcess
    workdir: Path
    _db: store.Database | None = None
    _members: dict[str, User] = field(default_factory=dict)
    # Members who turned automatic rolls off (/prefs): their every roll is a click.
    manual_rollers: set[int] = field(default_factory=set)

    async def set_auto_roll(self, user: User, on: bool, channel: Channel | None = None) -> None:
        """``/prefs auto_roll:on|off`` as ``user`` (in ``channel``: one of their server's)."""
        chosen = {"auto_roll": "on" if on else "off"}
        asked = await self.fake.slash(user, "prefs", chosen, channel=channel)
        reply = await self.fake.response_of(asked, timeout=STEP_TIMEOUT)
        assert reply.ephemeral and "Saved" in reply.text, reply.text
        (self.manual_rollers.discard if on else self.manual_rollers.add)(user.id)

    async def member(self, name: str) -> User:
        """A guild member called ``name`` (made on first use; names are unique per env)."""
        if name not in self._members:
            self._members[name] = await self.fake.add_member(name)
        return self._members[name]

    async def channel(self, name: str) -> Channel:
        """A fresh text channel, so that tests sharing one bot do not meet."""
        return await self.fake.add_channel(name)

    async def db(self) -> store.Database:
        """The bot's database, opened once by the test (WAL: reads do not block the bot)."""
        if self._db is None:
            self._db = await store.Database.open(self.bot.database_path)
        return self._db

    async def restart(self, *, kill: bool = True) -> float:
        """Stop the bot (SIGKILL by default) and start it again on the same database.

        Returns the monotonic time of the new start, to tell refreshed messages apart.
        """
        if isinstance(self.bot, BotInProcess):
            raise RuntimeError("an in-process bot cannot be killed: module_bot(process=True)")
        if kill:
            await self.bot.kill()
        else:
            await self.bot.terminate()
        started = time.monotonic()
        await start_and_wait_ready(self.bot)
        return started

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None
        await self.bot.kill()
        if isinstance(self.bot, BotInProcess):
            self.bot.detach_log()


async def start_and_wait_ready(
    bot: BotProcess | BotInProcess,
    timeout: float = 40.0,  # noqa: ASYNC109
) -> None:
    """Start the bot and wait for ``on_ready`` (its log line), when it refreshes old boards.

    The harness returns at IDENTIFY and command sync; discord.py fires ``on_ready`` about two
    seconds later, after the guilds arrived.
    """
    seen = bot.output().count(READY_LINE)
    await bot.start(timeout=timeout)
    await bot.fake.wait_for(
        lambda: bot.output().count(READY_LINE) > seen or not bot.running,
        timeout,
        what="the bot's on_ready",
    )
    if not bot.running:
        raise RuntimeError(f"the bot exited:\n{bot.output_tail()}")


def bot_process(
    fake: FakeDiscord,
    workdir: Path,
    env: Mapping[str, str] | None = None,
    *,
    name: str = "bot",
    database: str = "tabula.sqlite3",
) -> BotProcess:
    """``python -m bot`` (not started) with the tests' settings and ``env``, its SQLite
    ``database`` and its log (``<name>.log``) in ``workdir``. Like every bot of ``fake``'s, it
    keeps the fake's time (``TEST_CLOCK_FILE`` from ``fake.env()``): ``fake.advance`` moves
    its clock."""
    return BotProcess(
        fake,
        "bot",
        env={**BOT_ENV, **(env or {})},
        database_path=workdir / database,
        log_path=workdir / f"{name}.log",
    )


@asynccontextmanager
async def running_bot(
    workdir: Path, env: Mapping[str, str] | None = None, *, process: bool = False
) -> AsyncIterator[BotEnv]:
    """A fake Discord and the bot on a new database in ``workdir``: in the test's own process
    (the end-to-end lane), or as ``python -m bot`` where ``process`` (the process lane: the
    test kills, restarts or signals it, or sets what only a process reads)."""
    async with FakeDiscord() as fake:
        bot: BotProcess | BotInProcess
        if process:
            bot = bot_process(fake, workdir, env)
        else:
            bot = BotInProcess(
                fake,
                env={**BOT_ENV, **(env or {})},
                database_path=workdir / "tabula.sqlite3",
                log_path=workdir / "bot.log",
            )
        bot_env = BotEnv(fake, bot, workdir)
        try:
            await start_and_wait_ready(bot)
            yield bot_env
        finally:
            await bot_env.close()
            # pytest shows this only for a failing test (module fixtures: at teardown).
            print(f"--- {bot.log_path} (no access lines) ---\n{log_tail(bot)}")
        # A request cut off by SIGKILL mid-upload is logged by the fake as its own failure;
        # it is the client's doing, so only other errors count here.
        failures = [e for e in fake.server_errors if "Connection lost" not in e]
        assert not failures, "the fake Discord failed:\n" + "\n".join(failures)


def module_marks(timeout: float, *, process: bool = False) -> list[pytest.MarkDecorator]:
    """``pytestmark`` of a module whose tests share one running bot: end-to-end (or the
    process lane, where ``process``), one event loop for the whole module, and ``timeout``
    seconds a test."""
    lane = pytest.mark.processes if process else pytest.mark.e2e
    return [lane, pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(timeout)]


def module_bot(
    folder: str, settings: Mapping[str, str] | None = None, *, process: bool = False
) -> Any:
    """The ``env`` fixture of a module: one bot with ``settings`` on a fresh database in a
    new ``folder``, shared by all the module's tests (``env = module_bot("races")``); a
    ``python -m bot`` process where ``process`` (see :func:`running_bot`)."""

    @pytest_asyncio.fixture(scope="module", loop_scope="module", name="env")
    async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
        workdir = tmp_path_factory.mktemp(folder)
        async with running_bot(workdir, settings, process=process) as bot_env:
            yield bot_env

    return env


def log_tail(bot: BotProcess | BotInProcess, lines: int = 80) -> str:
    """The end of the bot's log without the one-line-per-click access log."""
    kept = [line for line in bot.output().splitlines() if "tabula.access" not in line]
    return "\n".join(kept[-lines:])


def problems_in_log(bot: BotProcess | BotInProcess) -> list[str]:
    """Errors and tracebacks the bot logged (warnings such as slow renders are not counted)."""
    return [
        line
        for line in bot.output().splitlines()
        if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback")
    ]


# ------------------------------------------------------------------------------ answers


async def answer(
    env: BotEnv,
    interaction: Interaction,
    timeout: float = STEP_TIMEOUT,  # noqa: ASYNC109
) -> InteractionResponse:
    """The bot's settled answer to ``interaction`` (a defer must be followed by content)."""
    return await env.fake.response_of(interaction, timeout=timeout)


async def wait_embed(env: BotEnv, interaction: Interaction, what: str) -> Message:
    """The embed the bot edits into its deferred answer to ``interaction`` (a review: made
    in a worker, so it may take a few steps' time)."""
    response = await env.fake.wait_for(
        lambda: (
            (r := env.fake.snapshot(interaction)).original is not None
            and r.original.embeds
            and r.original
        ),
        STEP_TIMEOUT * 4,
        what=what,
    )
    assert isinstance(response, Message)
    return response


async def wait_review(env: BotEnv, interaction: Interaction, what: str) -> Message:
    """The review page the bot edits into its deferred answer to ``interaction``: a
    Components V2 message (its "working" line before it is plain content)."""
    response = await env.fake.wait_for(
        lambda: (
            (r := env.fake.snapshot(interaction)).original is not None
            and r.original.flags & MessageFlag.IS_COMPONENTS_V2
            and r.original.components
            and r.original
        ),
        STEP_TIMEOUT * 4,
        what=what,
    )
    assert isinstance(response, Message)
    return response


@dataclass(frozen=True)
class ReviewPage:
    """A review page as a person reads it: the text displays, and each picture's alt text."""

    text: str
    descriptions: list[str]
    accent: int | None


def review_page(message: Message) -> ReviewPage:
    """The checks every review page passes: V2 (no content, no embeds), one container
    holding text displays and galleries whose items each describe their picture (an
    attachment of the message), within Discord's limits."""
    assert message.flags & MessageFlag.IS_COMPONENTS_V2, message.flags
    assert message.content == "" and not message.embeds
    (container,) = message.components
    assert container["type"] == 17, container
    every = list(walk_components(message.components))
    assert len(every) <= 40
    texts = [c["content"] for c in every if c["type"] == 10]
    assert texts and sum(len(t) for t in texts) <= 4000
    items = [item for c in every if c["type"] == 12 for item in c["items"]]
    assert 1 <= len(items) <= 10
    names = {a.filename for a in message.attachments}
    descriptions = []
    for item in items:
        assert item["media"]["url"].rsplit("/", 1)[-1] in names, item["media"]
        description = item.get("description") or ""
        assert 20 <= len(description) <= 1024, description
        descriptions.append(description)
    assert len(items) == len(names)
    return ReviewPage(message.text, descriptions, container.get("accent_color"))


def ephemeral_text(env: BotEnv, interaction: Interaction) -> str:
    """Everything the bot said privately to the user about ``interaction``."""
    return "\n".join(m.text for m in env.fake.ephemeral_replies(interaction))


async def wait_ephemeral(
    env: BotEnv,
    interaction: Interaction,
    timeout: float = STEP_TIMEOUT,  # noqa: ASYNC109
) -> str:
    replies = await env.fake.wait_for(
        lambda: env.fake.ephemeral_replies(interaction),
        timeout,
        what=f"an ephemeral reply to {interaction.name!r}",
    )
    return "\n".join(m.text for m in replies)


async def ask_to_resign(env: BotEnv, user: User, channel_id: int) -> Message:
    """``/resign`` as ``user``: the private question with its Resign and Cancel buttons."""
    command = await env.fake.slash(user, "resign", channel=channel_id)
    await answer(env, command)
    replies = env.fake.ephemeral_replies(command)
    assert replies and replies[0].custom_ids(), ephemeral_text(env, command)
    return replies[0]


async def confirm_resign(env: BotEnv, user: User, channel_id: int) -> str:
    """``/resign`` and its confirmation as ``user``; the bot's private answer."""
    question = await ask_to_resign(env, user, channel_id)
    (confirm,) = [c for c in question.custom_ids() if c.endswith(":yes")]
    asked = question.text
    click = await env.fake.click(user, question, confirm)
    await answer(env, click)
    await env.fake.wait_for(
        lambda: (
            not env.fake.message(question).custom_ids()
            and (env.fake.message(question).text != asked or ephemeral_text(env, click))
        ),
        STEP_TIMEOUT,
        what="the answer to the resignation",
    )
    return "\n".join([env.fake.message(question).text, ephemeral_text(env, click)]).strip()


def ack_seconds(interaction: Interaction) -> float:
    """Seconds from the click (or command) to the bot's first response, from the fake's clock."""
    assert interaction.callback_at is not None, f"{interaction.name!r} was never acknowledged"
    return interaction.callback_at - interaction.created


def parse_link(text: str) -> tuple[int, int | None]:
    """(channel id, message id or None) of the first Discord jump link in ``text``."""
    found = LINK.search(text)
    assert found is not None, f"no jump link in {text!r}"
    return int(found[1]), int(found[2]) if found[2] else None


def decode_png(data: bytes) -> tuple[int, int]:
    """Decode fully with Pillow (not only the header); return the size."""
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        image.load()
        return image.size


# ------------------------------------------------------------------------------ forging


def button_row(custom_ids: Iterable[str]) -> list[dict[str, Any]]:
    """One action row of plain buttons, as a message's ``components``."""
    return [
        {"type": 1, "components": [{"type": 2, "style": 2, "label": c[:80], "custom_id": c}]}
        for c in custom_ids
    ][:5]


def fabricate_bot_message(env: BotEnv, channel: Channel, custom_ids: Iterable[str]) -> Message:
    """A message 'from the bot' carrying any buttons: a forged or a long-cached client view."""
    world = env.fake.world
    message = Message(
        id=world.ids.next(),
        channel_id=channel.id,
        guild_id=channel.guild_id,
        author_id=world.bot.id,
        content="a board as some client still shows it",
        components=button_row(custom_ids),
    )
    world.messages[message.id] = message
    return message


@contextlib.contextmanager
def old_buttons_shown(message: Message) -> Iterator[list[str]]:
    """Show the buttons ``message`` had before its last edits, as a client that missed those
    edits still does (Discord lets it click them); yields their custom_ids. The message is put
    back afterwards, so that only the one click sees the old view."""
    current = message.components
    for snapshot in reversed(message.versions):
        buttons = any("custom_id" in c for c in walk_components(snapshot["components"]))
        if buttons and snapshot["components"] != current:
            message.components = snapshot["components"]
            break
    else:
        shown = "\n".join(f"  {button_ids(v)}" for v in [*message.versions, message.snapshot()])
        raise AssertionError(f"message {message.id} never had other buttons:\n{shown}")
    try:
        yield message.custom_ids()
    finally:
        message.components = current


# ------------------------------------------------------------------------------ a game table


@dataclass(frozen=True)
class Board:
    """The newest game message as a player reads it."""

    message: Message
    game_id: str
    version: int
    tokens: tuple[str, ...]
    on_turn: str | None  # the display name before the seat colour, e.g. "alice"
    finished: bool

    def custom_id(self, token: str) -> str:
        return f"tabula:{self.game_id}:{self.version}:{token}"


@dataclass
class Click:
    user_id: int
    game_id: str
    version: int
    token: str
    interaction: Interaction
    refusal: str | None = None  # the ephemeral reply when the bot said no
    in_flight: bool = False  # the bot was killed before it answered: fate unknown

    @property
    def applied(self) -> bool:
        return self.refusal is None and not self.in_flight


def board_version(message: Message) -> int | None:
    """The game version a board shows, from its buttons or its picture's name (the footer's
    move number counts turns, not versions)."""
    for custom_id in message.custom_ids():
        parsed = CUSTOM_ID.match(custom_id)
        if parsed is not None:
            return int(parsed[2])
    for attachment in message.attachments:
        named = PICTURE.search(attachment.filename)
        if named is not None:
            return int(named[1])
    return None


# Discord shows a backslash before punctuation as the character alone: names (and notation)
# reach the message escaped (``bot.vocabulary.markup``) and read as typed.
ESCAPED = re.compile(r"\\([^0-9A-Za-z\s])")


def as_shown(text: str) -> str:
    """``text`` as Discord shows it: Markdown's backslash escapes read as their characters."""
    return ESCAPED.sub(r"\1", text)


def read_board(message: Message) -> Board | None:
    footer = FOOTER.search(message.text)
    version = board_version(message)
    if footer is None or version is None:
        return None
    game_id = footer[1]
    tokens = []
    for custom_id in message.custom_ids():
        parsed = CUSTOM_ID.match(custom_id)
        assert parsed is not None, f"foreign custom_id {custom_id!r} on a board"
        assert parsed[1] == game_id and int(parsed[2]) == version, (
            f"board of game {game_id} at version {version}, button says {custom_id}"
        )
        tokens.append(parsed[3])
    on_turn = ON_TURN.search(message.text)
    return Board(
        message=message,
        game_id=game_id,
        version=version,
        tokens=tuple(tokens),
        on_turn=as_shown(on_turn[1]) if on_turn else None,
        finished="🏁" in message.text,
    )


class Table:
    """One game in one channel, played through the fake Discord by its human players."""

    def __init__(self, env: BotEnv, channel_id: int, players: Sequence[User]) -> None:
        self.env = env
        self.fake = env.fake
        self.channel_id = channel_id
        self.players = {p.name: p for p in players}
        # How a board may name a player besides the display name: the bot falls back on the
        # raw user id when it cannot look a member up (see test_challenge_boards_name_players).
        self.aliases = {str(p.id): p for p in players}
        self.game_id: str | None = None
        self.clicks: list[Click] = []
        self.images_checked: set[tuple[int, int]] = set()  # (message id, version)

    # -- reading ----------------------------------------------------------------------------

    def boards(self) -> list[Board]:
        found = []
        for message in self.fake.messages(self.channel_id):
            if message.author_id != self.fake.bot_user.id:
                continue
            board = read_board(message)
            if board is not None and (self.game_id is None or board.game_id == self.game_id):
                found.append(board)
        return found

    def current(self) -> Board | None:
        """The board of the newest version (the newest message if two show the same)."""
        boards = self.boards()
        return max(boards, key=lambda b: (b.version, b.message.id)) if boards else None

    patient = True  # wait for the bot to strip the previous board before clicking

    def _ready(self, after_version: int) -> Board | None:
        board = self.current()
        if board is None or board.version <= after_version:
            return None
        if board.finished:
            return board
        if self.seat_holder(board) is None or not board.tokens:
            return None  # the AI is on turn: its move is on the way
        if self.patient and any(b.tokens and b.version < board.version for b in self.boards()):
            # The bot strips the old board's buttons right after it recorded the new board;
            # a person is never that fast, and clicking earlier races the bot (see the
            # instant-click test).
            return None
        return board

    async def wait_turn(
        self,
        after_version: int = -1,
        timeout: float = TURN_TIMEOUT,  # noqa: ASYNC109
    ) -> Board:
        """The first board newer than ``after_version`` that a person must act on (or the end)."""
        began = self._describe()
        try:
            board = await self.fake.wait_for(
                lambda: self._ready(after_version),
                timeout,
                what=f"a board of game {self.game_id} after move {after_version} "
                f"(newest when the wait began: {began})",
            )
        except TimeoutError as error:
            raise TimeoutError(f"{error}\n{self._diagnosis()}") from None
        assert board is not None  # wait_for returns only a truthy value
        if self.game_id is None:
            self.game_id = board.game_id
        self.check_image(board)
        return board

    def _describe(self) -> str:
        board = self.current()
        if board is None:
            return "none"
        text = board.message.text.replace("\n", " | ")
        return f"move {board.version} {list(board.tokens)}: {text[:300]}"

    def _diagnosis(self) -> str:
        """Every board of the game as it stands now, and the bot's log lines about it: what
        a wait that ran out needs to tell a stuck game from a board left with buttons."""
        lines = ["Boards now (message id, move, buttons):"]
        lines += [f"  {b.message.id} move {b.version} {list(b.tokens)}" for b in self.boards()]
        ids = {self.game_id} if self.game_id is not None else {b.game_id for b in self.boards()}
        output = self.env.bot.output().splitlines()
        for game_id in sorted(ids):
            said = [line for line in output if game_id in line]
            lines.append(f"The bot's last lines about game {game_id} ({self.env.bot.log_path}):")
            lines += [f"  {line}" for line in said[-40:]]
        return "\n".join(lines)

    def check_image(self, board: Board) -> None:
        (png,) = self.fake.attachments_png(board.message)
        width, height = decode_png(png)
        assert width > 100 and height > 100
        self.images_checked.add((board.message.id, board.version))

    def players_by_id(self) -> dict[int, str]:
        return {user.id: name for name, user in self.players.items()}

    # -- acting -----------------------------------------------------------------------------

    def seat_holder(self, board: Board) -> User | None:
        """The person the board names as on turn (None: the AI, or nobody)."""
        if board.on_turn is None:
            return None
        return self.players.get(board.on_turn) or self.aliases.get(board.on_turn)

    def player_on_turn(self, board: Board) -> User:
        user = self.seat_holder(board)
        assert user is not None, f"no person is on turn: {board.message.text!r}"
        return user

    async def click(
        self,
        board: Board,
        token: str,
        user: User | None = None,
        *,
        wait: bool = True,
    ) -> Click:
        """Click ``token`` on ``board`` (as the player on turn unless ``user`` is given).
        Refused because the database did not answer in time (a loaded machine: the bot
        keeps to Discord's deadline and changes nothing), the click is made again, as the
        refusal asks a person to, up to ``TRIES`` times."""
        clicker = user or self.player_on_turn(board)
        for _ in range(TRIES):
            interaction = await self.fake.click(clicker, board.message, board.custom_id(token))
            click = Click(clicker.id, board.game_id, board.version, token, interaction)
            self.clicks.append(click)
            if not wait:
                return click
            await self.settle(click)
            if click.refusal not in TRY_AGAIN:
                return click
            self.clicks.remove(click)  # changed nothing: the game's record is the next try
        return click

    async def settle(self, click: Click) -> Click:
        await answer(self.env, click.interaction)
        text = ephemeral_text(self.env, click.interaction)
        click.refusal = text or None
        return click

    def choose(self, board: Board, rng: random.Random) -> str:
        tokens = [t for t in board.tokens if t not in ("rematch", "claim", "share", "follow")]
        weights = [CLICK_WEIGHTS.get(t, 1.0) for t in tokens]
        return rng.choices(tokens, weights)[0]

    async def play(
        self,
        rng: random.Random,
        *,
        max_clicks: int = 2000,
        until_clicks: int | None = None,
    ) -> Board:
        """Click random offered buttons as whoever is on turn until the game ends (or until
        ``until_clicks`` clicks were made by this table); return the last board."""
        board = await self.wait_turn(self.last_version())
        made = 0
        while not board.finished:
            if until_clicks is not None and made >= until_clicks:
                return board
            assert made < max_clicks, f"game {self.game_id} not over after {made} clicks"
            click = await self.click(board, self.choose(board, rng))
            made += 1
            assert click.refusal is None, (
                f"the bot refused an offered button {click.token!r} at move {click.version}: "
                f"{click.refusal}"
            )
            board = await self.wait_turn(click.version)
        return board

    def last_version(self) -> int:
        applied = [c.version for c in self.clicks if c.applied]
        return max(applied) if applied else -1

    def ack_times(self) -> list[float]:
        return [ack_seconds(c.interaction) for c in self.clicks if not c.in_flight]


async def start_by_play(
    env: BotEnv,
    user: User,
    channel: Channel,
    game: str,
    *,
    difficulty: str = "easy",
    retry_stuck_start: bool = False,
) -> Table:
    """``/play`` against the AI at ``difficulty``; returns the table in the game's thread (or
    channel) at its first board.

    ``retry_stuck_start``: when the AI should move first but does not (test_bot_ai_start.py
    is about that), resign that game and start another, so a test about something else can
    go on regardless.
    """
    for _ in range(12):
        interaction = await env.fake.slash(
            user, "play", {"game": game, "difficulty": difficulty}, channel=channel
        )
        response = await answer(env, interaction)
        assert response.ephemeral, response
        assert "ready" in response.text or "bereit" in response.text, response.text
        channel_id, _ = parse_link(response.text)
        table = Table(env, channel_id, [user])
        if not retry_stuck_start:
            await table.wait_turn()
            return table
        try:
            await table.wait_turn(timeout=STUCK_START_SECONDS)
            return table
        except TimeoutError:
            assert "resigned" in await confirm_resign(env, user, channel_id)
    raise AssertionError(f"no {game} game got going in 12 tries")


async def new_table(env: BotEnv, game: str, name: str) -> Table:
    """Member ``name`` against the AI at ``game`` (``/play``), from a new channel ``name``."""
    return await start_by_play(env, await env.member(name), await env.channel(name), game)


async def start_by_challenge(
    env: BotEnv,
    challenger: User,
    invitees: Sequence[User],
    channel: Channel,
    game: str,
    options: Mapping[str, Any] | None = None,
) -> Table:
    """``/challenge`` and Accept by every invitee; the table at the game's first board."""
    names = ("opponent", "opponent2", "opponent3")
    chosen: dict[str, Any] = {"game": game, **(options or {})}
    chosen.update({names[i]: user for i, user in enumerate(invitees)})
    command = await env.fake.slash(challenger, "challenge", chosen, channel=channel)
    invitation = await answer(env, command)
    assert not invitation.ephemeral, ephemeral_text(env, command)
    message = invitation.original
    assert message is not None
    for user in invitees:
        assert f"<@{user.id}>" in message.text
    accept = next(c for c in message.custom_ids() if c.endswith(":accept"))
    for index, user in enumerate(invitees):
        click = await env.fake.click(user, message, accept)
        await answer(env, click)
        if index < len(invitees) - 1:
            assert "Accepted" in await wait_ephemeral(env, click)
            # Nobody plays before everyone invited has accepted.
            assert not env.fake.threads(channel)
            assert "Challenge accepted" not in message.text
    await env.fake.wait_for(lambda: "Challenge accepted" in message.text, STEP_TIMEOUT)
    channel_id, _ = parse_link(message.text)
    table = Table(env, channel_id, [challenger, *invitees])
    await table.wait_turn()
    return table


# ------------------------------------------------------------------------------ the database


async def first_hint(env: BotEnv, game: str, channel_name: str) -> tuple[Table, Board, str]:
    """A game of ``game`` between fay and gus, who both agreed to hints, and the answer to
    /hint of the one on turn; checks that the other is refused (not their turn) and that the
    game is not rated."""
    fay, gus = await env.member("fay"), await env.member("gus")
    channel = await env.channel(channel_name)
    table = await start_by_challenge(env, fay, [gus], channel, game, {"hints": "on"})
    board = await table.wait_turn()
    on_turn = table.player_on_turn(board)
    other = gus if on_turn.id == fay.id else fay
    asked = await env.fake.slash(on_turn, "hint", channel=table.channel_id)
    text = await wait_ephemeral(env, asked, STEP_TIMEOUT * 2)
    refused = await env.fake.slash(other, "hint", channel=table.channel_id)
    assert "not your turn" in (await wait_ephemeral(env, refused)).lower()
    assert not (await game_row(env, board.game_id)).rated
    return table, board, text


async def game_row(env: BotEnv, game_id: str) -> store.GameRow:
    row = await store.load_game(await env.db(), game_id)
    assert row is not None, f"no game {game_id} in the database"
    return row


async def action_log(env: BotEnv, game_id: str) -> list[store.ActionRow]:
    return await store.load_actions(await env.db(), game_id)


async def results_of(env: BotEnv, row: store.GameRow) -> list[store.ResultRow]:
    return await store.results_of_game(await env.db(), row.id)


def superseded_boards(table: Table, current: Board) -> list[Message]:
    """Earlier board messages of ``current``'s game that carried its buttons at some point
    (a superseded board collapses to a summary line: found by its history, not its text; a
    board the AI played on had no buttons, though its footer names the game)."""
    return [
        m
        for m in table.fake.messages(table.channel_id)
        if m.author_id == table.fake.bot_user.id
        and m.id != current.message.id
        and any(current.game_id in button for v in m.versions for button in button_ids(v))
    ]


def button_ids(snapshot: Json) -> list[str]:
    """The custom_ids of a message's state (``Message.snapshot()``)."""
    return [c["custom_id"] for c in walk_components(snapshot["components"]) if "custom_id" in c]


def board_history(table: Table) -> str:
    """Every bot message of the table's channel, state by state (its buttons and first line):
    what a failed assertion about older boards prints."""
    lines = []
    for message in table.fake.messages(table.channel_id):
        if message.author_id != table.fake.bot_user.id:
            continue
        states = []
        for snapshot in [*message.versions, message.snapshot()]:
            ids = button_ids(snapshot)
            texts = [
                str(c.get("content") or "")
                for c in walk_components(snapshot["components"])
                if c.get("type") == 10
            ]
            first = (texts[0] if texts else snapshot["content"]).split("\n")[0][:70]
            states.append(f"[{len(ids)} buttons{' ' + ids[0] if ids else ''}] {first!r}")
        lines.append(f"{message.id}:\n    " + "\n -> ".join(states))
    return "\n".join(lines)


async def wait_board_current(env: BotEnv, game_id: str, timeout: float = 30.0) -> Board:  # noqa: ASYNC109
    """Wait until the game's board message shows the stored version (after a restart the bot
    redraws only the boards that are behind); returns that board."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        row = await game_row(env, game_id)
        message = env.fake.world.messages.get(row.message_id or 0)
        board = read_board(message) if message is not None and not message.deleted else None
        if board is not None and board.version == row.version:
            return board
        if loop.time() > deadline:
            raise AssertionError(f"the board of game {game_id} never showed move {row.version}")
        await asyncio.sleep(0.05)


async def wait_stored_version(env: BotEnv, game_id: str, version: int) -> store.GameRow:
    """Poll until the game reaches ``version`` in the database."""
    deadline = time.monotonic() + STEP_TIMEOUT
    while True:
        row = await game_row(env, game_id)
        if row.version >= version or time.monotonic() > deadline:
            return row
        await asyncio.sleep(0.05)


@dataclass(frozen=True)
class Decision:
    """One logged action a person chose (not played for them), for matching with clicks."""

    seq: int
    user_id: int
    kind: str  # roll | move | cube
    notation: str
    action: Any


def replay_log(
    row: store.GameRow,
    log: Sequence[store.ActionRow],
    manual_rollers: Iterable[int] = (),
) -> list[Decision]:
    """Replay the log through the engine: check it rebuilds the stored state exactly, and return
    the actions people chose. A move is played for the player (not a choice) exactly when it
    was the only legal action, which is when the service applies it without asking; a roll
    is rolled for them when the turn offered nothing else (no double), unless they are among
    ``manual_rollers`` (automatic rolls off)."""
    manual = set(manual_rollers)
    rules = games.get(row.game).rules
    options = engine_options(json.loads(row.options_json))  # without the table's own options
    stored = json.loads(row.state_json)["engine"]
    rebuilt = replay(rules, options, [a.notation for a in log])
    assert rules.dump_state(rebuilt) == stored, f"game {row.id}: the log does not replay to it"
    assert [a.seq for a in log] == list(range(1, len(log) + 1)), "the log has holes"
    state = rules.new_game(options)
    decisions = []
    for entry in log:
        action = rules.parse(state, entry.notation)
        forced = state.phase == Phase.MOVE and len(rules.legal_actions(state)) == 1
        if entry.kind == "roll" and state.phase == Phase.ROLL:
            forced = not rules.legal_actions(state) and entry.user_id not in manual
        if entry.user_id is not None and entry.kind in ("roll", "move", "cube") and not forced:
            decisions.append(Decision(entry.seq, entry.user_id, entry.kind, entry.notation, action))
        state = rules.apply(state, action)
    return decisions


def click_kind(token: str) -> str | None:
    """What a clicked token logs: roll, move or cube; None for a draft-only click."""
    if token in ROLL_TOKENS:
        return "roll"
    if token in CUBE_TOKENS:
        return "cube"
    if MOVE_TOKEN.match(token):
        return "move"
    return None


def _agrees(click: Click, decision: Decision) -> bool:
    if (click.user_id, click_kind(click.token)) != (decision.user_id, decision.kind):
        return False
    action, token = decision.action, click.token
    if ur_move := UR_MOVE.match(token):  # the piece on that square moved
        return bool(action.source == int(ur_move[1]))
    if ludo_move := LUDO_MOVE.match(token):  # that die moved that token
        return bool((action.die, action.token) == (int(ludo_move[1]), int(ludo_move[2])))
    return True


def stored_fate(click: Click, later: Sequence[Click]) -> bool | None:
    """Whether a click the bot died on was stored: True, False, or None when nothing tells.

    While a person is on turn nothing else moves the game, so the next click the bot accepted
    was made on the same version exactly when the lost click changed nothing."""
    for other in later:
        if other.applied and other.game_id == click.game_id:
            return other.version > click.version
    return None


def check_log_matches_clicks(clicks: Sequence[Click], decisions: Sequence[Decision]) -> list[Click]:
    """Every accepted click appears exactly once in the log, in order; nothing else a person
    chose does. A click whose fate is unknown (the bot was killed before answering) appears
    once if the game moved on from it, not at all otherwise. Returns the clicks in the log."""
    matched: list[Click] = []
    d = 0
    for index, click in enumerate(clicks):
        if click_kind(click.token) is None or not (click.applied or click.in_flight):
            continue
        fate = stored_fate(click, clicks[index + 1 :]) if click.in_flight else True
        if fate is False:
            continue  # lost before it was stored: the player saw no answer and clicked again
        if d < len(decisions) and _agrees(click, decisions[d]):
            matched.append(click)
            d += 1
        elif fate is None:
            continue  # the bot died on the last click and nothing shows it was stored
        else:
            found = decisions[d] if d < len(decisions) else None
            raise AssertionError(
                f"click {click.token!r} at move {click.version} by {click.user_id} is not the "
                f"next chosen action in the log (next: {found})"
            )
    assert d == len(decisions), f"log entries no click made: {list(decisions[d:])}"
    return matched


async def check_log(env: BotEnv, table: Table) -> list[Click]:
    """Compare the stored log with the table's clicks (call it while a person is on turn, so
    no AI move changes the game between the two reads); returns the clicks found in it."""
    assert table.game_id is not None
    row = await game_row(env, table.game_id)
    decisions = replay_log(row, await action_log(env, row.id), env.manual_rollers)
    return check_log_matches_clicks(table.clicks, decisions)


async def check_finished(env: BotEnv, table: Table) -> store.GameRow:
    """The game is finished in the database, with one result per seat and a matching log."""
    assert table.game_id is not None
    row = await game_row(env, table.game_id)
    assert row.status == store.GameStatus.FINISHED, row.status
    results = await results_of(env, row)
    assert sorted(r.seat for r in results) == [s.seat for s in row.seats]
    assert sorted(r.place for r in results)[0] == 1
    await check_log(env, table)
    return row


def is_ephemeral(message: Message) -> bool:
    return bool(message.flags & MessageFlag.EPHEMERAL)


async def settle_quietly(env: BotEnv, quiet: float = 0.4) -> None:
    """Wait until the bot stops talking to Discord (its AI turns and board edits are done)."""
    with contextlib.suppress(TimeoutError):
        await env.fake.idle(quiet=quiet, timeout=STEP_TIMEOUT)


BOT_TOKEN = "bot_token"


def bot_token_requests(env: BotEnv, since: float) -> list[RequestRecord]:
    """The requests made with the bot token since ``since`` (the fake's counters)."""
    return [r for r in env.fake.requests if r.at >= since and r.budget == BOT_TOKEN]


def describe(records: list[RequestRecord]) -> str:
    """Requests counted by route, the most first: an assertion's message."""
    counts: dict[str, int] = {}
    for r in records:
        key = f"{r.method} {r.route}"
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(f"{k}: {n}" for k, n in sorted(counts.items(), key=lambda kv: -kv[1]))
