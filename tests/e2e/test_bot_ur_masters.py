"""Ur (Masters) through the real bot and the fake Discord: offered by the commands from the
registry next to Ur, its rules in words, a whole game against the AI with /play and a whole
game between two people with /challenge, replayed from the stored log by Masters's rules, and
the people's game reviewed by the hard AI (``ur_sets_bot_checks``, run on this game)."""

from __future__ import annotations

from bot.engines import ur_masters as engine
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.e2e import ur_sets_bot_checks as checks

pytestmark = module_marks(timeout=300)

KIND = engine.GAME
PIECES = 7

env = module_bot(KIND)


async def test_the_commands_offer_it_next_to_ur(env: BotEnv) -> None:
    await checks.offered_next_to_ur(env, engine, 3, "masters", ("Masters path", "seven"))


async def test_a_whole_game_against_the_ai(env: BotEnv) -> None:
    await checks.a_whole_game_against_the_ai(env, engine, "masters", PIECES, seed=41)


async def test_a_whole_game_between_two_people_with_its_review(env: BotEnv) -> None:
    await checks.a_whole_game_between_two_people_with_its_review(
        env, engine, "masters", PIECES, seed=42
    )
