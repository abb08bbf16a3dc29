"""Tutor mode through the fake Discord: ``/play … tutor:on``, a costly move answered with a
private "Are you sure?", Take back leaving the game as it was, Keep storing the move once (a
second Keep is refused), and the review of the game marking which warnings were heeded."""

from __future__ import annotations

import json
import random

from bot.vocabulary.options import TUTOR
from sandbox.fake_model import Message, User
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.forging import old_buttons_shown
from tests.driver.members import answer, confirm_resign, ephemeral_text
from tests.driver.player import Table
from tests.driver.reviews import review_page, wait_review
from tests.driver.starts import start_by_play
from tests.driver.stored import action_log, game_row
from tests.driver.timeouts import STEP_TIMEOUT

pytestmark = module_marks(timeout=300)

# The judge is given all the time a loaded machine needs: the test is about the question, not
# about the bound that lets an unjudged move through (tests/service/test_tutor.py tests that).
env = module_bot("tutor", {"TUTOR_JUDGE_SECONDS": "60"})
GAMES = 6  # the bot's dice are its own: a game may end before two costly moves; then another


async def test_a_costly_move_is_questioned_then_taken_back_or_kept(env: BotEnv) -> None:
    kim = await env.member("kim")
    channel = await env.channel("tutor")
    rng = random.Random(7)
    for _ in range(GAMES):
        table = await start_by_play(env, kim, channel, "ludo", tutor=True)
        if await two_answered(env, kim, table, rng):
            break
    else:
        raise AssertionError(f"no game of {GAMES} had two costly moves to question")


async def two_answered(env: BotEnv, kim: User, table: Table, rng: random.Random) -> bool:
    """Play the tutored game until one costly move was taken back and one kept, then resign
    and read its review; False when the game ended first."""
    row = await game_row(env, table.game_id or "")
    assert json.loads(row.options_json).get(TUTOR) is True and not row.rated
    answered: list[str] = []
    board = await table.wait_turn()
    while len(answered) < 2:
        if board.finished:
            return False
        assert len(table.clicks) < 600, "the game never ended"
        before = await action_log(env, board.game_id)
        click = await table.click(board, table.choose(board, rng))
        replies = env.fake.ephemeral_replies(click.interaction)
        if not replies:  # an ordinary move: stored and shown
            board = await table.wait_turn(click.version)
            continue
        (question,) = replies
        assert question.text.startswith("**Are you sure?**"), question.text
        assert "percentage points of winning chance" in question.text
        keep, back = sorted(question.custom_ids(), key=lambda c: not c.endswith(":yes"))
        assert keep.startswith(f"tabula:tt:{board.game_id}.{board.version}.")
        table.clicks.remove(click)  # nothing of it was stored
        assert await action_log(env, board.game_id) == before
        if not answered:
            answer_click = await env.fake.click(kim, question, back)
            await answer(env, answer_click)
            await wait_edited(env, question, "Taken back")
            # No trace of it: the same log, and the board offers the turn's moves again.
            assert await action_log(env, board.game_id) == before
            answered.append("back")
            board = await table.wait_turn(board.version - 1)  # the same turn, its draft cleared
        else:
            answer_click = await env.fake.click(kim, question, keep)
            await answer(env, answer_click)
            await wait_edited(env, question, "Kept")
            after = await action_log(env, board.game_id)
            assert after[: len(before)] == before and len(after) > len(before)
            # A second Keep (a client still showing the buttons): refused, stored once.
            with old_buttons_shown(env.fake.message(question)):
                again = await env.fake.click(kim, question, keep)
            await answer(env, again)
            assert "answered already" in ephemeral_text(env, again)
            assert (await action_log(env, board.game_id))[: len(after)] == after
            answered.append("keep")
            board = await table.wait_turn(board.version)
    await confirm_resign(env, kim, table.channel_id)
    final = await table.wait_turn(board.version)
    assert final.finished
    click = await env.fake.click(kim, final.message, final.custom_id("review"))
    page = review_page(await wait_review(env, click, "the tutored game's review"))
    assert "**Tutor**: 2 warnings, 1 heeded." in page.text, page.text
    assert "taken back ✓" in page.text and ", kept" in page.text, page.text
    return True


async def wait_edited(env: BotEnv, question: Message, start: str) -> None:
    await env.fake.wait_for(
        lambda: (
            not env.fake.message(question).custom_ids()
            and env.fake.message(question).text.startswith(start)
        ),
        STEP_TIMEOUT,
        what=f"the question answered ({start})",
    )
