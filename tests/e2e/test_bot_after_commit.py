"""A stored change whose board cannot be shown: the player hears the truth, the game goes on.

The move is in the database before the bot talks to Discord again. When showing it fails
(permissions taken away mid-game, the board deleted by a moderator, Discord answering 5xx or
429), the reply must say that the move was made, the board comes back where the bot can post,
AI seats keep moving, and a click on the board left behind is refused as out of date.

A click's board goes through the click's own interaction, which needs no channel permission;
the permission tests therefore age the click's token past its 15 minutes right after its
acknowledgement (on Discord's side only: ``FakeDiscord.age_interactions``), so that the
board takes the bot token's way, as it does for a game left idle for longer than a token
lives.
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from bot import games
from bot.engines.common import Phase
from bot.storage import GameRow
from sandbox.fake_model import MessageFlag, Perm
from tests.driver.boards import Board
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.forging import fabricate_bot_message
from tests.driver.members import ack_seconds, answer, wait_ephemeral
from tests.driver.player import Click, Table
from tests.driver.starts import GAMES, new_table
from tests.driver.stored import action_log, game_row
from tests.driver.timeouts import ACK_LIMIT, STEP_TIMEOUT

pytestmark = module_marks(timeout=180)

APOLOGY = "Nothing was changed"
MADE = "was made and saved"
TOKEN_LIFETIME = 15 * 60
# Reads of the stored game, 50 ms apart, before a state waited for counts as never coming:
# a bound for a loaded machine (two copies of the suite at once), not a wait.
REST_POLLS = 1200


env = module_bot("after-commit")


def parent_of(env: BotEnv, table: Table) -> int:
    channel = env.fake.world.channels[table.channel_id]
    return channel.parent_id if channel.is_thread and channel.parent_id else channel.id


async def ai_moves_after(env: BotEnv, game_id: str, seq: int) -> None:
    """Wait until an AI seat has logged an action after action ``seq`` (or the game ended)."""

    async def moved() -> bool:
        row = await game_row(env, game_id)
        log = await action_log(env, game_id)
        ai_seats = {s.seat for s in row.seats if s.user_id is None}
        return row.status != "active" or any(a.seq > seq and a.seat in ai_seats for a in log)

    for _ in range(REST_POLLS):
        if await moved():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"no AI seat moved in game {game_id} after action {seq}")


async def click_and_read_reply(env: BotEnv, table: Table, board: Board, rng: random.Random) -> str:
    """Click an offered button of ``board``; return the bot's private reply."""
    click = await table.click(board, table.choose(board, rng), wait=False)
    await answer(env, click.interaction)
    assert ack_seconds(click.interaction) < ACK_LIMIT
    return await wait_ephemeral(env, click.interaction)


async def click_as_if_idle(env: BotEnv, table: Table, board: Board, rng: random.Random) -> Click:
    """Click, then age every interaction token past its lifetime as soon as the click is
    acknowledged (woken by the callback itself, before the bot hears back): its board then
    goes through the bot token."""
    click = await table.click(board, table.choose(board, rng), wait=False)
    await env.fake.wait_for(lambda: click.interaction.acked, STEP_TIMEOUT, what="the ack")
    env.fake.age_interactions(TOKEN_LIFETIME + 60)
    return click


async def channel_quiet(env: BotEnv, channel_id: int, quiet: float = 0.3) -> None:
    """Wait (at most 10 s) until the bot has sent nothing to ``channel_id`` for ``quiet`` s."""
    marker = f"/channels/{channel_id}/"
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    seen, since = -1, loop.time()
    while loop.time() < deadline:
        count = sum(1 for r in env.fake.rest.requests if marker in r.path)
        if count != seen:
            seen, since = count, loop.time()
        elif loop.time() - since >= quiet:
            return
        await asyncio.sleep(0.05)


async def ai_acted_after(env: BotEnv, game_id: str, seq: int) -> bool:
    """Whether an AI seat has logged an action after action ``seq``."""
    row = await game_row(env, game_id)
    ai_seats = {s.seat for s in row.seats if s.user_id is None}
    return any(a.seq > seq and a.seat in ai_seats for a in await action_log(env, game_id))


async def at_rest(env: BotEnv, game_id: str) -> bool:
    """Wait until a person is on turn in the game or it ended; True when it ended."""
    for _ in range(REST_POLLS):
        row = await game_row(env, game_id)
        if not ai_on_turn(row):
            return row.status != "active"
        await asyncio.sleep(0.05)
    raise AssertionError(f"the AI kept the turn in game {game_id}")


def ai_on_turn(row: GameRow) -> bool:
    rules = games.get(row.game).rules
    state = rules.load_state(json.loads(row.state_json)["engine"])
    if state.phase == Phase.FINISHED:
        return False
    return row.seats[state.turn].user_id is None


async def fail_showing_until_the_ai_is_on_turn(
    env: BotEnv, table: Table, status: int, count: int
) -> None:
    """Make the board fail to show after a click (Discord answers ``status`` ``count`` times)
    until a click that hands the turn to an AI seat; then the AI must move all the same."""
    rng = random.Random(status)
    for _ in range(30):
        await bring_board_up_to_date(env, table)
        board = await table.wait_turn(table.last_version())
        before = await game_row(env, board.game_id)
        # The faults must meet the click's own board edit, not the tail of the previous
        # change (collapsing the board it replaced), which a loaded machine may still be sending.
        await channel_quiet(env, table.channel_id)
        for method, path in (("PATCH", "/messages/"), ("POST", "/messages$")):
            env.fake.rest.fail_next(method, rf"/channels/{table.channel_id}{path}", status, count)
        # The click's board is an edit through its interaction's webhook (its replies are
        # posts there, left alone).
        env.fake.rest.fail_next("PATCH", r"/webhooks/.*/messages/", status, count)
        text = await click_and_read_reply(env, table, board, rng)
        env.fake.rest.faults.clear()
        assert MADE in text and str(status) in text and "/board" in text, text
        assert APOLOGY not in text
        after = await game_row(env, board.game_id)
        assert after.version > before.version
        # A click on the board left at the old version is refused as stale, as always.
        player = table.player_on_turn(board)
        stale = await env.fake.click_stale(player, board.message, board.custom_id(board.tokens[0]))
        assert "out of date" in await wait_ephemeral(env, stale)
        # The AI moves as soon as the change is stored, without waiting for the reply to be
        # read: by now it may be on turn, or have moved already.
        if ai_on_turn(after) or await ai_acted_after(env, board.game_id, before.action_count):
            await ai_moves_after(env, board.game_id, before.action_count)
            return
        if after.status != "active":
            return
    raise AssertionError("the turn never passed to an AI seat")


@pytest.mark.parametrize("game", GAMES)
async def test_discord_5xx_after_the_commit(env: BotEnv, game: str) -> None:
    """A 5xx to the board's edit through the interaction is tried again (discord.py's webhook
    client waits a second): the board comes late, nothing was lost, the game goes on."""
    table = await new_table(env, game, f"fivexx-{game}")
    board = await table.wait_turn()
    await channel_quiet(env, table.channel_id)
    fault = env.fake.rest.fail_next("PATCH", r"/webhooks/.*/messages/", 503, 1)
    click = await table.click(board, table.choose(board, random.Random(7)))
    assert click.refusal is None, click.refusal
    assert fault.count == 0
    await finish_a_few_moves(env, table)


@pytest.mark.parametrize("game", GAMES)
async def test_rate_limited_beyond_retries(env: BotEnv, game: str) -> None:
    table = await new_table(env, game, f"ratelimit-{game}")
    # discord.py retries a 429 five times; the sixth answer is still 429.
    await fail_showing_until_the_ai_is_on_turn(env, table, 429, 6)
    await finish_a_few_moves(env, table)


@pytest.mark.parametrize("game", GAMES)
async def test_attach_files_taken_away_mid_game(env: BotEnv, game: str) -> None:
    table = await new_table(env, game, f"noattach-{game}")
    board = await table.wait_turn()
    parent = parent_of(env, table)
    await env.fake.set_permissions(parent, deny=Perm.ATTACH_FILES)
    click = await click_as_if_idle(env, table, board, random.Random(3))
    await table.settle(click)
    assert click.refusal is None, click.refusal  # shown without a picture: nothing to explain

    def text_board() -> bool:
        message = env.fake.message(table.current().message) if table.current() else None
        return message is not None and "No picture" in message.text

    table.patient = False
    await env.fake.wait_for(text_board, 10, what="a board without a picture")
    current = table.current()
    assert current is not None and not current.message.attachments
    await env.fake.set_permissions(parent)  # given back: pictures return with the next board
    table.patient = True
    table.check_image = lambda b: None  # type: ignore[method-assign]
    await finish_a_few_moves(env, table)
    newest = table.current()
    assert newest is not None and newest.message.attachments


@pytest.mark.parametrize("game", GAMES)
async def test_no_access_to_the_channel_mid_game(env: BotEnv, game: str) -> None:
    table = await new_table(env, game, f"noaccess-{game}")
    board = await table.wait_turn()
    player = table.player_on_turn(board)
    parent = parent_of(env, table)
    await env.fake.set_permissions(parent, deny=Perm.VIEW_CHANNEL)
    # A click's board goes back through its interaction, which needs no channel permission.
    click = await table.click(board, table.choose(board, random.Random(4)))
    assert click.refusal is None, click.refusal
    board = await table.wait_turn(click.version)
    if board.finished:
        return
    # The bot token's way (a game idle for longer than a token lives) is refused; the move
    # stands all the same (nobody can be told: the click's token is too old to answer).
    before = await game_row(env, board.game_id)
    refusal = f"could not show the board of game {board.game_id}"
    seen = env.bot.output().count(refusal)
    await click_as_if_idle(env, table, board, random.Random(5))
    for _ in range(REST_POLLS):
        stored = await game_row(env, board.game_id)
        if stored.version > before.version:
            break
        await asyncio.sleep(0.05)
    assert stored.version > before.version
    await env.fake.wait_for(lambda: env.bot.output().count(refusal) > seen, 10, what="the refusal")
    # The AI's whole turn (an Ur rosette, a Ludo six: more than one step), so that /board
    # shows a person's buttons.
    if await at_rest(env, board.game_id):
        return
    # /board brings the board back as the command's followup: through its interaction, which
    # needs no channel permission either.
    command = await env.fake.slash(player, "board", channel=table.channel_id)
    assert "current board" in (await answer(env, command)).content
    reposted = await env.fake.wait_for(
        lambda: [env.fake.message(m) for m in command.followup_ids], 10, what="the board"
    )
    assert not reposted[0].ephemeral and env.fake.attachments_png(reposted[0])
    assert reposted[0].flags & MessageFlag.IS_COMPONENTS_V2  # the board's own layout
    assert reposted[0].custom_ids()
    await env.fake.set_permissions(parent)
    command = await env.fake.slash(player, "board", channel=table.channel_id)
    assert "current board" in await wait_ephemeral(env, command)
    await finish_a_few_moves(env, table)


@pytest.mark.parametrize("game", GAMES)
async def test_board_deleted_by_a_moderator(env: BotEnv, game: str) -> None:
    table = await new_table(env, game, f"deleted-{game}")
    board = await table.wait_turn()
    player = table.player_on_turn(board)
    await env.fake.delete_message(board.message)
    command = await env.fake.slash(player, "board", channel=table.channel_id)
    await wait_ephemeral(env, command)
    reposted = await table.wait_turn(-1)
    assert reposted.message.id != board.message.id
    # /board answers first and posts the board after (its followup); its id is stored then.
    for _ in range(100):
        row = await game_row(env, board.game_id)
        if row.message_id == reposted.message.id:
            break
        await asyncio.sleep(0.05)
    assert row.message_id == reposted.message.id
    await finish_a_few_moves(env, table, clicks=3)
    # Deleted again; the next click (from a client still showing the board) posts a new one.
    current = await table.wait_turn(table.last_version())
    await env.fake.delete_message(current.message)
    elsewhere = fabricate_bot_message(env, env.fake.world.channels[table.channel_id], [])
    token = table.choose(current, random.Random(5))
    click = await env.fake.click_stale(player, elsewhere, current.custom_id(token))
    await env.fake.wait_for(lambda: click.callback_at is not None, 10, what="the ack")
    following = await table.wait_turn(current.version)
    assert following.message.id not in (current.message.id, elsewhere.id)
    table.clicks.append(Click(player.id, current.game_id, current.version, token, click))
    await finish_a_few_moves(env, table)


async def bring_board_up_to_date(env: BotEnv, table: Table) -> None:
    """/board when the newest board fell behind the stored game (after a failure)."""
    row = await game_row(env, table.game_id or "")
    newest = table.current()
    if row.status == "active" and (newest is None or newest.version < row.version):
        if ai_on_turn(row):
            return  # the AI's move redraws it
        player = next(iter(table.players.values()))
        command = await env.fake.slash(player, "board", channel=table.channel_id)
        await wait_ephemeral(env, command)


async def finish_a_few_moves(env: BotEnv, table: Table, clicks: int = 6) -> None:
    """The game goes on from the newest board (after /board where the board fell behind)."""
    row = await game_row(env, table.game_id or "")
    if row.status != "active":
        return
    await bring_board_up_to_date(env, table)
    rng = random.Random(len(table.clicks))
    board = await table.wait_turn(row.version - 1)
    for _ in range(clicks):
        if board.finished:
            return
        click = await table.click(board, table.choose(board, rng))
        assert click.refusal is None, click.refusal
        board = await table.wait_turn(click.version)
