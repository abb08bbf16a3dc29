"""The player: :class:`Table` follows one game in one channel the way a person does. It reads
the newest board message (text, image, buttons), clicks an offered button as the player named
on turn, and records every click with the bot's answer, so that a test can compare the clicks
with the action log the bot stored (:mod:`tests.driver.log_check`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import available_locales, tr
from sandbox.fake_model import Interaction, Message, User, walk_components
from tests.driver.boards import Board, button_ids, decode_png, read_board
from tests.driver.bots import BotEnv
from tests.driver.members import ack_seconds, answer, ephemeral_text
from tests.driver.timeouts import TURN_TIMEOUT
from tests.driver.tokens import CLICK_WEIGHTS

# What the bot answers when the database did not answer a click in time, in every language:
# nothing was changed, and the person is asked to click again (``Table.click`` does).
TRY_AGAIN = frozenset(tr("error.database_unavailable", locale) for locale in available_locales())
TRIES = 5


@dataclass
class Click:
    """One click a :class:`Table` made, and what became of it."""

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
        tokens = [t for t in board.tokens if board.is_game_action(t)]
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
