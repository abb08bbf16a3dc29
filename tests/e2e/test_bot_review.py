"""The expert level and the Review button through the fake Discord (bgsage workers on)."""

from __future__ import annotations

import random

import pytest

from tests.driver.boards import decode_png
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.members import confirm_resign, wait_ephemeral
from tests.driver.reviews import review_page, wait_review
from tests.driver.starts import first_hint, start_by_play

pytest.importorskip("bgsage")
pytestmark = module_marks(timeout=240)


env = module_bot("review", {"EXPERT_WORKERS": "1"})


async def test_expert_game_then_review(env: BotEnv) -> None:
    eve = await env.member("eve")
    channel = await env.channel("expert")
    table = await start_by_play(env, eve, channel, "backgammon", difficulty="expert")
    final = await table.play(random.Random(3), until_clicks=12)
    if not final.finished:
        await confirm_resign(env, eve, table.channel_id)
        final = await table.wait_turn()
    assert final.finished and "review" in final.tokens
    click = await env.fake.click(eve, final.message, final.custom_id("review"))
    response = await wait_review(env, click, "the review")
    page = review_page(response)
    assert "Review of game" in page.text and "PR" in page.text
    assert page.descriptions[0].startswith("Chart of each player's winning chance")
    pictures = env.fake.attachments_png(response)
    assert pictures and all(decode_png(p)[0] > 100 for p in pictures)
    # Each costliest decision: its card (described in words: the move and the position)
    # and a Share position button under it.
    cards = page.descriptions[1:]
    assert all(c.startswith(f"Card {n}, ") and "position" in c for n, c in enumerate(cards, 1))
    shares = response.custom_ids()
    assert len(shares) == len(cards) == len(pictures) - 1 and len(set(shares)) == len(shares)
    assert all(i.startswith("tabula:cs:") for i in shares)
    if shares:
        share = await env.fake.click(eve, response, shares[0])
        assert "XGID: `XGID=" in await wait_ephemeral(env, share)


async def test_hint_in_a_game_where_both_agreed(env: BotEnv) -> None:
    _, _, text = await first_hint(env, "backgammon", "hints")
    assert "💡" in text and "1. `" in text, text
