"""SIGKILL the bot in the middle of games, start it again on the same database, and play on
with the boards posted before the restart: nothing lost, nothing doubled."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from sandbox.fake_model import Message
from tests.driver.boards import Board
from tests.driver.bots import BotEnv, module_bot, module_marks, start_and_wait_ready
from tests.driver.forging import old_buttons_shown
from tests.driver.log_check import check_finished, check_log
from tests.driver.members import wait_ephemeral
from tests.driver.player import Click, Table, board_history, superseded_boards
from tests.driver.starts import GAMES, new_table
from tests.driver.stored import game_row, wait_board_current
from tests.driver.tokens import click_kind

pytestmark = module_marks(timeout=180, process=True)

REFRESH_TIMEOUT = 30.0


env = module_bot("restart", process=True)


async def wait_refreshed(env: BotEnv, message: Message, since: float) -> None:
    """The bot redraws every active game's board when it starts: wait for that edit."""
    await env.fake.wait_for(
        lambda: bool(message.edited_at) and message.edited_at[-1] >= since,
        REFRESH_TIMEOUT,
        what=f"the board {message.id} to be refreshed after the restart",
    )


older_boards = superseded_boards


async def refuse_stale_board(table: Table, current: Board) -> None:
    """A board from before the restart, as a client that missed its updates still shows it:
    the click is refused with a clear private reply and the game does not move."""
    older = older_boards(table, current)
    assert older, f"no older board to click:\n{board_history(table)}"
    before = await game_row(table.env, current.game_id)
    user = table.player_on_turn(current)
    with old_buttons_shown(older[-1]) as stale_ids:
        interaction = await table.env.fake.click(user, older[-1], stale_ids[0])
    assert "out of date" in await wait_ephemeral(table.env, interaction)
    after = await game_row(table.env, current.game_id)
    assert (after.version, after.action_count) == (before.version, before.action_count)


async def test_sigkill_mid_game_then_finish_every_game_on_boards_from_before(
    env: BotEnv,
) -> None:
    tables = [await new_table(env, game, f"idle-{game}") for game in GAMES]
    rngs = [random.Random(seed) for seed in range(len(tables))]
    await asyncio.gather(
        *(t.play(rng, until_clicks=10) for t, rng in zip(tables, rngs, strict=True))
    )
    boards = [await t.wait_turn(t.last_version()) for t in tables]
    for index, (table, rng) in enumerate(zip(tables, rngs, strict=True)):
        # Sixes keep a Ludo player on turn on one board: play on until the turn has passed.
        while not older_boards(table, boards[index]) and not boards[index].finished:
            boards[index] = await table.play(rng, until_clicks=1)
    # Killed while idle: every game waits for a person, its newest board stored as its own
    # (a board posted a moment before its id is stored is the crash window the adoption
    # tests cover; a loaded machine may still be in it when the board appears).
    for board in boards:
        for _ in range(200):
            if (await game_row(env, board.game_id)).message_id == board.message.id:
                break
            await asyncio.sleep(0.05)

    await env.restart()

    for table, board in zip(tables, boards, strict=True):
        await wait_board_current(env, board.game_id)
        refreshed = table.current()
        assert refreshed is not None and refreshed.message.id == board.message.id
        assert (refreshed.version, refreshed.tokens) == (board.version, board.tokens)
        row = await game_row(env, board.game_id)
        assert row.version == board.version and row.message_id == board.message.id
        await refuse_stale_board(table, refreshed)
        # The board posted before the restart still works...
        first = await table.click(refreshed, refreshed.tokens[0])
        assert first.applied, first.refusal

    # ...and every game is played to its end.
    await asyncio.gather(*(t.play(rng) for t, rng in zip(tables, rngs, strict=True)))
    for table in tables:
        await check_finished(env, table)


async def kill_right_after(env: BotEnv, table: Table, click: Click, moment: str) -> bool:
    """SIGKILL the bot at ``moment`` after ``click`` was sent: at once ('sent'), as soon as it
    was acknowledged ('acked'), or as soon as its effect is in the database ('stored').
    Returns whether the clicked board had already been redrawn when the bot died."""
    if moment == "acked":
        await env.fake.wait_for(lambda: click.interaction.acked, 5.0, what="the ack")
    elif moment == "stored":
        deadline = time.monotonic() + 10.0
        while (await game_row(env, click.game_id)).version <= click.version:
            assert time.monotonic() < deadline, "the click never reached the database"
            await asyncio.sleep(0.001)
    await env.bot.kill()
    click.in_flight = True
    return bool(click.interaction.callback_at) and any(
        t >= (click.interaction.callback_at or 0.0)
        for t in env.fake.message(click.interaction.message_id or 0).edited_at
    )


@pytest.mark.parametrize("game", ["ur", "backgammon"])
@pytest.mark.parametrize("moment", ["sent", "acked", "stored"])
async def test_sigkill_right_after_a_click_loses_or_doubles_nothing(
    env: BotEnv, moment: str, game: str
) -> None:
    table = await new_table(env, game, f"kill-{moment}-{game}")
    rng = random.Random(f"{moment}-{game}")
    board = await table.play(rng, until_clicks=6)
    click = await table.click(board, table.choose(board, rng), wait=False)
    shown = await kill_right_after(env, table, click, moment)

    await env.restart()
    row = await game_row(env, click.game_id)
    assert row.message_id is not None
    await wait_board_current(env, click.game_id)
    if moment == "stored":
        assert row.version > click.version
        if not shown:  # died between storing and drawing: the refresh shows the new state
            current = table.current()
            assert current is not None and current.version > click.version
    if moment == "sent":
        # The fake does not deliver an interaction twice, and the dead bot never answered.
        assert click.interaction.callback_at is None or row.version >= click.version

    # Play on from whatever the refreshed board shows.
    board = await table.wait_turn(click.version - 1)
    await table.play(rng, until_clicks=8)
    matched = await check_log(env, table)
    if moment == "stored":
        # Stored before the kill: an action is in the log once; a draft step (backgammon)
        # has no log entry, but the game moved on from it (asserted above).
        assert (click in matched) == (click_kind(click.token) is not None)


async def test_a_board_posted_just_before_a_crash_is_adopted_when_clicked(env: BotEnv) -> None:
    """The bot died after posting a new board and before storing its id: the stored id still
    names the previous board, which the restart redraws with buttons. A click on the newer
    board works, makes it the game's board, and the previous one loses its buttons."""
    table = await new_table(env, "ur", "adopted")
    rng = random.Random("adopted")
    # Play until the AI has handed the turn back at least once: a new board was posted then.
    while len(table.boards()) < 2:
        await table.play(rng, until_clicks=1)
    newest = await table.wait_turn(table.last_version())
    previous = max(
        (b for b in table.boards() if b.message.id != newest.message.id),
        key=lambda b: b.message.id,
    )
    await env.bot.kill()
    db = await env.db()
    await db.write(
        # As the crash left it: the newest board's id and what it shows were never stored.
        lambda tx: tx.execute(
            "UPDATE games SET message_id = ?, shown_version = NULL WHERE id = ?",
            (previous.message.id, newest.game_id),
        )
    )
    since = time.monotonic()
    await start_and_wait_ready(env.bot)
    await wait_refreshed(env, previous.message, since)
    assert env.fake.message(previous.message.id).custom_ids()  # redrawn with live buttons

    table.patient = False  # two boards carry buttons until the click below settles it
    click = await table.click(newest, newest.tokens[0])
    assert click.applied, click.refusal
    await env.fake.wait_for(
        lambda: not env.fake.message(previous.message.id).custom_ids(),
        REFRESH_TIMEOUT,
        what="the previous board to lose its buttons",
    )
    row = await game_row(env, newest.game_id)
    assert row.message_id != previous.message.id
    table.patient = True
    await table.play(rng, until_clicks=4)
