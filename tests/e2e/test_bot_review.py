"""The expert level and the Review button through the fake Discord (bgsage workers on)."""

from __future__ import annotations

import random

import pytest

from tests.e2e.bot_helpers import (
    BotEnv,
    confirm_resign,
    decode_png,
    first_hint,
    module_bot,
    module_marks,
    start_by_play,
    wait_embed,
    wait_ephemeral,
)

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
    response = await wait_embed(env, click, "the review")
    embed = response.embeds[0]
    assert embed["title"].startswith("Review of game")
    assert "PR" in str(embed["fields"])
    pictures = env.fake.attachments_png(response)
    assert pictures and all(decode_png(p)[0] > 100 for p in pictures)
    # Share position under each board card (one per costliest decision); the cards are one
    # stacked picture beside the chart, so there are buttons exactly when that picture is there.
    shares = response.custom_ids()
    assert bool(shares) == (len(pictures) == 2) and len(set(shares)) == len(shares)
    assert all(i.startswith("tabula:cs:") for i in shares)
    if shares:
        share = await env.fake.click(eve, response, shares[0])
        assert "XGID: `XGID=" in await wait_ephemeral(env, share)


async def test_hint_in_a_game_where_both_agreed(env: BotEnv) -> None:
    _, _, text = await first_hint(env, "backgammon", "hints")
    assert "💡" in text and "1. `" in text, text
