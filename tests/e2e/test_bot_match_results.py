"""A backgammon match shows each game's result on a board of its own before the next game's
opening roll, and who won the match (or that it was resigned, with the score) at the end."""

from __future__ import annotations

import json
import random
import re

from bot.engines import backgammon
from renderers.backgammon import result_banner
from sandbox.fake_model import Message
from tests.driver.boards import as_shown
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.members import confirm_resign
from tests.driver.player import Table
from tests.driver.starts import start_by_challenge
from tests.driver.stored import game_row

pytestmark = module_marks(timeout=300)

RESULT = re.compile(r"Game (\d+): .*wins .* · Match score (\S+) (\d+) – (\S+) (\d+) \(to (\d+)\)")


env = module_bot("matches")


def result_boards(table: Table) -> list[Message]:
    return [
        m
        for m in table.fake.messages(table.channel_id)
        if m.author_id == table.fake.bot_user.id and RESULT.search(m.text)
    ]


async def new_match(env: BotEnv, name: str, points: int) -> Table:
    alice = await env.member(f"{name}-a")
    bob = await env.member(f"{name}-b")
    channel = await env.channel(name)
    return await start_by_challenge(
        env, alice, [bob], channel, "backgammon", {"points": points, "cube": "on"}
    )


async def play_until(table: Table, rng: random.Random, results: int) -> None:
    """Click until ``results`` game results have been shown or the match is over."""
    board = await table.wait_turn(table.last_version())
    for _ in range(3000):
        if board.finished or len(result_boards(table)) >= results:
            return
        click = await table.click(board, table.choose(board, rng))
        assert click.refusal is None, click.refusal
        board = await table.wait_turn(click.version)
    raise AssertionError("no game ended in 3000 clicks")


async def test_every_game_of_a_match_shows_its_result_then_the_match_winner(
    env: BotEnv,
) -> None:
    for seed in range(6):  # a cubed gammon can win a whole 3-point match in one game
        table = await new_match(env, f"match-three-{seed}", 3)
        rng = random.Random(seed)
        await play_until(table, rng, 1)
        if result_boards(table):
            break
        current = table.current()
        if current is not None and not current.finished:
            await confirm_resign(env, next(iter(table.players.values())), table.channel_id)
    (first,) = result_boards(table)
    found = RESULT.search(first.text)
    assert found is not None
    assert found[1] == "1" and found[6] == "3"
    assert int(found[3]) + int(found[5]) >= 1  # somebody scored
    assert env.fake.attachments_png(first), "the result board has its own picture"
    assert not first.custom_ids()
    # The next game starts on a new board below the result.
    newest = await table.wait_turn(table.last_version())
    assert newest.message.id > first.id
    assert "Game 2" in newest.message.text or "game 2" in newest.message.text.lower()
    # Play the match out: every game before the last gets a result board, numbered in order.
    final = await table.play(rng)
    assert final.finished
    numbers = [int(RESULT.search(m.text)[1]) for m in result_boards(table)]  # type: ignore[index]
    assert numbers == list(range(1, len(numbers) + 1))
    row = await game_row(env, final.game_id)
    assert row.status == "finished"
    assert "wins the match" in final.message.text, final.message.text


async def test_a_resigned_match_says_so_with_one_score(env: BotEnv) -> None:
    for seed in range(6):  # a dropped double or a cubed gammon may end a 3-point match at once
        table = await new_match(env, f"match-resigned-{seed}", 3)
        await play_until(table, random.Random(seed), 1)
        board = await table.wait_turn(table.last_version())
        if not board.finished:
            break
    assert not board.finished, "every first game ended the whole match"
    player = table.player_on_turn(board)
    assert "resigned" in (await confirm_resign(env, player, table.channel_id)).lower()
    final = await table.wait_turn(board.version)
    assert final.finished
    text = as_shown(final.message.text)  # names as Discord shows them
    # One score, the winner's first, in the headline, the result line and the picture.
    said = re.search(r"(\S+) wins the match (\d+)–(\d+) \((\S+) resigned\)", text)
    assert said is not None, text
    winner, won, lost, loser = said[1], int(said[2]), int(said[3]), said[4]
    assert loser == player.name and winner != loser
    headline = text.splitlines()[0]
    assert f"match to 3 won by {winner} {won}–{lost}" in headline, headline
    assert len(re.findall(r"\d+–\d+", text)) == 2, text  # the headline's and the result's
    row = await game_row(env, final.game_id)
    state = backgammon.load_state(json.loads(row.state_json)["engine"])
    names = [s.display_name for s in row.seats]
    assert result_banner(state, names) == [
        f"{winner} wins the match {won}–{lost}",
        f"{loser} resigned",
    ]
