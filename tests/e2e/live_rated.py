"""No engine on a live rated position, as people try it through the fake Discord: the
position on the board of a game, pasted as a GNU ID and as an XGID into ``/analyze`` by
its players and by anyone else, and Share position on its board (``test_bot_live_rated``,
``test_shard_live_rated``)."""

from __future__ import annotations

import json
import random

from bot import games
from bot.engines.backgammon_setup import SharedIds, ids_of
from sandbox.fake_model import Channel, User
from tests.driver.boards import Board
from tests.driver.bots import BotEnv
from tests.driver.members import ack_seconds, answer, ephemeral_text, wait_ephemeral
from tests.driver.player import Table
from tests.driver.reviews import wait_embed
from tests.driver.starts import start_by_challenge
from tests.driver.stored import game_row

REFUSED = "is on the board of a rated game being played right now"
OPENS = "analysis opens when that game ends"
SHARE_REFUSED = "its position IDs are given when it ends"
DEADLINE = 3.0  # Discord's: the first answer within 3 s of the command


async def match_under_way(
    env: BotEnv, a: User, b: User, channel: Channel, *, rated: bool, seed: int
) -> tuple[Table, Board]:
    """A three-point backgammon match between ``a`` and ``b`` (rated, or with hints on:
    unrated), a few clicks in, at a board a person must act on."""
    options = {"game": "backgammon", "points": 3, **({} if rated else {"hints": "on"})}
    table = await start_by_challenge(env, a, [b], channel, "backgammon", options)
    board = await table.play(random.Random(seed), until_clicks=4)
    assert not board.finished
    assert (await game_row(env, board.game_id)).rated is rated
    return table, board


async def ids_on_board(env: BotEnv, board: Board) -> SharedIds:
    """The IDs of the position the board shows (as Share position would print them)."""
    row = await game_row(env, board.game_id)
    assert row.version == board.version, "the board is the stored game's newest"
    state = games.get(row.game).rules.load_state(json.loads(row.state_json)["engine"])
    return ids_of(state)


async def analyze(env: BotEnv, user: User, text: str, channel: Channel | int) -> str:
    """``/analyze`` refused: the private reply, which came within Discord's 3 s."""
    command = await env.fake.slash(user, "analyze", {"position": text}, channel=channel)
    await answer(env, command)
    reply = await wait_ephemeral(env, command)
    assert ack_seconds(command) < DEADLINE
    original = env.fake.snapshot(command).original
    assert original is None or not original.embeds, "no verdict beside the refusal"
    return reply


async def refused_everywhere(
    env: BotEnv, people: list[User], ids: SharedIds, channel: Channel | int
) -> None:
    """Each of ``people`` pastes the GNU ID and the XGID: each is refused, saying why."""
    for user in people:
        for text in (ids.gnubg, ids.xgid):
            reply = await analyze(env, user, text, channel)
            assert REFUSED in reply and OPENS in reply, (user.name, text, reply)


async def answered(env: BotEnv, user: User, text: str, channel: Channel | int) -> None:
    """``/analyze`` gives its verdict on ``text`` (as before rated positions were guarded)."""
    command = await env.fake.slash(user, "analyze", {"position": text}, channel=channel)
    response = await wait_embed(env, command, f"the analysis of {text}")
    assert response.embeds[0]["title"] == "Position analysis"
    assert not ephemeral_text(env, command)


async def share_refused(env: BotEnv, table: Table, board: Board, users: list[User]) -> None:
    """Share position on the live rated board, by a player and by anyone: no IDs."""
    for user in users:
        click = await table.click(board, "share", user)
        assert click.refusal is not None and SHARE_REFUSED in click.refusal, click.refusal
        assert "XGID" not in click.refusal and "Position ID" not in click.refusal
        assert ack_seconds(click.interaction) < DEADLINE


async def share_given(table: Table, board: Board, user: User, ids: SharedIds) -> None:
    click = await table.click(board, "share", user)
    assert click.refusal is not None and f"XGID: `{ids.xgid}`" in click.refusal, click.refusal
