"""Ur (Masters) through the real bot and the fake Discord: offered by the commands from the
registry next to Ur, its rules in words, a whole game against the AI with /play and a whole
game between two people with /challenge, replayed from the stored log by Masters's rules, and
the people's game reviewed by the hard AI."""

from __future__ import annotations

import random

from bot import games
from bot.engines import ur_masters
from bot.engines.common import replay
from tests.driver.boards import decode_png
from tests.driver.bots import BotEnv, module_bot, module_marks, problems_in_log
from tests.driver.log_check import check_finished
from tests.driver.members import answer
from tests.driver.player import Table
from tests.driver.reviews import review_page, wait_review
from tests.driver.starts import start_by_challenge, start_by_play
from tests.driver.stored import action_log

pytestmark = module_marks(timeout=300)

KIND = ur_masters.GAME

env = module_bot(KIND)


async def replayed(env: BotEnv, table: Table) -> None:
    """The stored log, replayed by Masters's rules, ends where the game ended."""
    assert table.game_id is not None
    log = await action_log(env, table.game_id)
    final = replay(ur_masters, None, [a.notation for a in log])
    assert (
        final.outcome is not None
        and final.position.borne_off(final.outcome.winner or 0, ur_masters.RULES.off) == 7
    )


async def test_the_commands_offer_it_next_to_ur(env: BotEnv) -> None:
    synced = next(c for c in env.fake.commands() if c.name == "rules")
    option = next(o for o in synced.body["options"] if o["name"] == "game")
    values = [choice["value"] for choice in option["choices"]]
    assert values == list(games.kinds()) and values.index(KIND) == values.index("ur") + 3
    player = await env.member("masters-reader")
    rules = await env.fake.slash(player, "rules", {"game": KIND}, channel=await env.channel("r"))
    shown = (await answer(env, rules)).original
    assert shown is not None and "Ur (Masters)" in shown.text
    assert "Masters path" in shown.text and "seven" in shown.text


async def test_a_whole_game_against_the_ai(env: BotEnv) -> None:
    eve = await env.member("masters-eve")
    table = await start_by_play(env, eve, await env.channel("masters-play"), KIND)
    final = await table.play(random.Random(41))
    assert final.finished and "wins" in final.message.text
    row = await check_finished(env, table)
    assert row.game == KIND
    await replayed(env, table)


async def test_a_whole_game_between_two_people_with_its_review(env: BotEnv) -> None:
    ann, ben = await env.member("masters-ann"), await env.member("masters-ben")
    channel = await env.channel("masters-challenge")
    table = await start_by_challenge(env, ann, [ben], channel, KIND)
    final = await table.play(random.Random(42))
    assert final.finished and "wins" in final.message.text
    row = await check_finished(env, table)
    assert row.game == KIND
    await replayed(env, table)

    assert "review" in final.tokens
    click = await env.fake.click(ben, final.message, final.custom_id("review"))
    response = await wait_review(env, click, "the review")
    page = review_page(response)
    assert "Review of game" in page.text and "hard AI" in page.text, page.text
    pictures = env.fake.attachments_png(response)
    assert pictures and all(decode_png(p)[0] > 100 for p in pictures)
    assert problems_in_log(env.bot) == []
