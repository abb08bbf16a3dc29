"""What every Ur rule-set game shows through the real bot and the fake Discord, run by that
game's own module (``test_bot_ur_<set>.py``, which owns the bot and says what differs): offered
by the commands next to Ur, its rules in words, a whole game against the AI with /play, and a
whole game between two people with /challenge reviewed by the hard AI, each replayed from the
stored log by the game's own rules."""

from __future__ import annotations

import random
from types import ModuleType

from bot import games
from bot.engines.common import replay
from tests.driver.boards import decode_png
from tests.driver.bots import BotEnv, problems_in_log
from tests.driver.log_check import check_finished
from tests.driver.members import answer
from tests.driver.player import Table
from tests.driver.reviews import review_page, wait_review
from tests.driver.starts import start_by_challenge, start_by_play
from tests.driver.stored import action_log


async def replayed(env: BotEnv, table: Table, engine: ModuleType, pieces: int) -> None:
    """The stored log, replayed by the game's rules, ends where the game ended."""
    assert table.game_id is not None
    log = await action_log(env, table.game_id)
    final = replay(engine, None, [a.notation for a in log])
    assert (
        final.outcome is not None
        and final.position.borne_off(final.outcome.winner or 0, engine.RULES.off) == pieces
    )


async def offered_next_to_ur(
    env: BotEnv, engine: ModuleType, after_ur: int, name: str, words: tuple[str, str]
) -> None:
    kind = engine.GAME
    synced = next(c for c in env.fake.commands() if c.name == "rules")
    option = next(o for o in synced.body["options"] if o["name"] == "game")
    values = [choice["value"] for choice in option["choices"]]
    assert values == list(games.kinds()) and values.index(kind) == values.index("ur") + after_ur
    player = await env.member(f"{name}-reader")
    rules = await env.fake.slash(player, "rules", {"game": kind}, channel=await env.channel("r"))
    shown = (await answer(env, rules)).original
    assert shown is not None and games.get(kind).title in shown.text
    assert words[0] in shown.text and words[1] in shown.text


async def a_whole_game_against_the_ai(
    env: BotEnv, engine: ModuleType, name: str, pieces: int, seed: int
) -> None:
    eve = await env.member(f"{name}-eve")
    table = await start_by_play(env, eve, await env.channel(f"{name}-play"), engine.GAME)
    final = await table.play(random.Random(seed))
    assert final.finished and "wins" in final.message.text
    row = await check_finished(env, table)
    assert row.game == engine.GAME
    await replayed(env, table, engine, pieces)


async def a_whole_game_between_two_people_with_its_review(
    env: BotEnv, engine: ModuleType, name: str, pieces: int, seed: int
) -> None:
    ann, ben = await env.member(f"{name}-ann"), await env.member(f"{name}-ben")
    channel = await env.channel(f"{name}-challenge")
    table = await start_by_challenge(env, ann, [ben], channel, engine.GAME)
    final = await table.play(random.Random(seed))
    assert final.finished and "wins" in final.message.text
    row = await check_finished(env, table)
    assert row.game == engine.GAME
    await replayed(env, table, engine, pieces)

    assert "review" in final.tokens
    click = await env.fake.click(ben, final.message, final.custom_id("review"))
    response = await wait_review(env, click, "the review")
    page = review_page(response)
    assert "Review of game" in page.text and "hard AI" in page.text, page.text
    pictures = env.fake.attachments_png(response)
    assert pictures and all(decode_png(p)[0] > 100 for p in pictures)
    assert problems_in_log(env.bot) == []
