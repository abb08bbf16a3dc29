"""The expert level and the Review button through the fake Discord (bgsage workers on)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from tests.e2e.bot_helpers import (
    STEP_TIMEOUT,
    BotEnv,
    Table,
    answer,
    decode_png,
    game_row,
    parse_link,
    running_bot,
    start_by_challenge,
    wait_ephemeral,
)

pytest.importorskip("bgsage")
pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(240)]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with running_bot(tmp_path_factory.mktemp("review"), {"EXPERT_WORKERS": "1"}) as e:
        yield e


async def test_expert_game_then_review(env: BotEnv) -> None:
    eve = await env.member("eve")
    channel = await env.channel("expert")
    command = await env.fake.slash(
        eve, "play", {"game": "backgammon", "difficulty": "expert"}, channel=channel
    )
    reply = await answer(env, command)
    assert "ready" in reply.content, reply.content
    table = Table(env, parse_link(reply.content)[0], [eve])
    final = await table.play(random.Random(3), until_clicks=12)
    if not final.finished:
        resign = await env.fake.slash(eve, "resign", channel=table.channel_id)
        await answer(env, resign)
        final = await table.wait_turn()
    assert final.finished and "review" in final.tokens
    click = await env.fake.click(eve, final.message, final.custom_id("review"))
    response = await env.fake.wait_for(
        lambda: (
            (r := env.fake.snapshot(click)).original is not None
            and r.original.embeds
            and r.original
        ),
        STEP_TIMEOUT * 4,
        what="the review",
    )
    embed = response.embeds[0]
    assert embed["title"].startswith("Review of game")
    assert "PR" in str(embed["fields"])
    pictures = env.fake.attachments_png(response)
    assert pictures and all(decode_png(p)[0] > 100 for p in pictures)


async def test_hint_in_a_game_where_both_agreed(env: BotEnv) -> None:
    fay, gus = await env.member("fay"), await env.member("gus")
    channel = await env.channel("hints")
    table = await start_by_challenge(env, fay, [gus], channel, "backgammon", {"hints": "on"})
    board = await table.wait_turn()
    on_turn = table.player_on_turn(board)
    other = gus if on_turn.id == fay.id else fay
    asked = await env.fake.slash(on_turn, "hint", channel=table.channel_id)
    text = await wait_ephemeral(env, asked, STEP_TIMEOUT * 2)
    assert "💡" in text and "1. `" in text, text
    refused = await env.fake.slash(other, "hint", channel=table.channel_id)
    assert "not your turn" in (await wait_ephemeral(env, refused)).lower()
    row = await game_row(env, board.game_id)
    assert not row.rated
