"""Clicks that race each other: the same button twice at once, two different choices of one
turn at once, and a player who clicks the instant a new board appears."""

from __future__ import annotations

import asyncio
import random
import sqlite3

import pytest

from sandbox.fake_model import Channel, Message
from sandbox.fake_rest import RestApi
from tests.driver.boards import Board
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.log_check import check_log
from tests.driver.members import answer, ephemeral_text
from tests.driver.player import Table
from tests.driver.starts import GAMES, new_table
from tests.driver.stored import game_row
from tests.driver.timeouts import ACK_LIMIT, STEP_TIMEOUT
from tests.driver.tokens import click_kind

pytestmark = module_marks(timeout=120)


env = module_bot("races")


async def board_with_two_choices(table: Table, rng: random.Random) -> Board:
    """Play on until the player must choose between at least two moves (not the roll)."""
    board = await table.wait_turn(table.last_version())
    for _ in range(300):
        choices = [t for t in board.tokens if t not in ("roll", "dbl", "undo", "back")]
        if "to move" in board.message.text and len(choices) >= 2:
            return board
        click = await table.click(board, table.choose(board, rng))
        assert click.refusal is None, click.refusal
        board = await table.wait_turn(click.version)
        assert not board.finished, "the game ended before offering a choice"
    raise AssertionError("no board with two choices in 300 clicks")


async def race(table: Table, board: Board, first: str, second: str) -> None:
    """Send both clicks before the bot answers either; exactly one may change the game."""
    before = await game_row(table.env, board.game_id)
    clicks = [await table.click(board, token, wait=False) for token in (first, second)]
    for click in clicks:
        await answer(table.env, click.interaction)
    # The refusal follows the acknowledgement (the click is deferred first, then judged): on a
    # loaded machine it may come a moment after both acknowledgements.
    await table.env.fake.wait_for(
        lambda: any(ephemeral_text(table.env, c.interaction) for c in clicks),
        STEP_TIMEOUT,
        what="the refusal of one of the two clicks",
    )
    for click in clicks:
        await table.settle(click)
    refusals = [c.refusal for c in clicks if c.refusal is not None]
    assert len(refusals) == 1, [c.refusal for c in clicks]
    assert "out of date" in refusals[0]
    assert all(c.interaction.callback_at is not None for c in clicks)
    assert max(table.ack_times()) < ACK_LIMIT
    (applied,) = [c for c in clicks if c.applied]
    await table.wait_turn(applied.version)
    after = await game_row(table.env, board.game_id)
    assert after.version > before.version
    # The applied click is in the log once (if it logs anything); had the refused one been
    # stored too, the log would hold a choice no accepted click made, which check_log rejects.
    matched = await check_log(table.env, table)
    assert (applied in matched) == (click_kind(applied.token) is not None)


@pytest.mark.parametrize("game", GAMES)
async def test_one_button_clicked_twice_at_once_acts_once(env: BotEnv, game: str) -> None:
    table = await new_table(env, game, f"twice-{game}")
    board = await table.wait_turn()
    # Backgammon starts with the opening roll already made: its first button is a checker.
    token = "roll" if "roll" in board.tokens else board.tokens[0]
    await race(table, board, token, token)


@pytest.mark.parametrize("game", GAMES)
async def test_two_moves_of_one_turn_at_once_only_one_counts(env: BotEnv, game: str) -> None:
    table = await new_table(env, game, f"two-moves-{game}")
    board = await board_with_two_choices(table, random.Random(7))
    choices = [t for t in board.tokens if t not in ("roll", "dbl", "undo", "back")]
    await race(table, board, choices[0], choices[1])


async def test_same_move_twice_at_once_in_ur(env: BotEnv) -> None:
    table = await new_table(env, "ur", "same-move")
    board = await board_with_two_choices(table, random.Random(3))
    move = next(t for t in board.tokens if t.startswith("m"))
    await race(table, board, move, move)


class BoardPostTrap:
    """Hold the database's write lock from the moment the bot posts its next board in
    ``channel_id`` until :meth:`release`: the bot has the new message but cannot record it yet,
    which stretches the few milliseconds in which a quick player can click the new board
    before the bot has bookkept it."""

    def __init__(self, env: BotEnv, channel_id: int) -> None:
        self.rest = env.fake.rest
        self.path = env.bot.database_path
        self.channel_id = channel_id
        self.lock: sqlite3.Connection | None = None
        self.rest._note_message = self._note  # type: ignore[method-assign]

    def _note(self, channel: Channel, message: Message) -> None:
        RestApi._note_message(self.rest, channel, message)
        if self.lock is None and channel.id == self.channel_id and message.components:
            del self.rest._note_message  # back to the class's own method
            # Taken inside the fake's request handler: before the bot even gets its answer.
            self.lock = sqlite3.connect(self.path, timeout=5.0, isolation_level=None)
            self.lock.execute("BEGIN IMMEDIATE")

    @property
    def fired(self) -> bool:
        return self.lock is not None

    def release(self) -> None:
        if self.lock is not None:
            self.lock.execute("ROLLBACK")
            self.lock.close()


async def test_click_on_a_board_the_bot_has_only_just_posted(env: BotEnv) -> None:
    """The clicked board must be the one that is updated, and only the newest board may keep
    live buttons, even when the click comes before the bot has recorded that board."""
    table = await new_table(env, "ur", "quick")
    table.patient = False
    rng = random.Random(5)
    board = await table.wait_turn()
    trap = BoardPostTrap(env, table.channel_id)
    try:
        for _ in range(100):  # until the AI hands the turn back with a new board
            if trap.fired:
                break
            click = await table.click(board, table.choose(board, rng))
            board = await table.wait_turn(click.version)
        assert trap.fired and not board.finished
        quick = await table.click(board, table.choose(board, rng), wait=False)
        await env.fake.wait_for(lambda: quick.interaction.acked, 5.0, what="the ack")
        await asyncio.sleep(0.3)  # the bot now handles the click with the game it has cached
    finally:
        trap.release()
    await env.fake.response_of(quick.interaction, timeout=5.0)
    board = await table.wait_turn(quick.version)

    def only_newest_live() -> bool:
        newest = table.current()
        live = [b.message.id for b in table.boards() if b.tokens]
        return newest is not None and live == [newest.message.id]

    await env.fake.wait_for(only_newest_live, 3.0, what="one board with buttons")
