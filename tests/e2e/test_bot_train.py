"""/analyze and Share position through the fake Discord (one bgsage worker)."""

from __future__ import annotations

import pytest

from tests.e2e.bot_helpers import (
    BotEnv,
    decode_png,
    module_bot,
    module_marks,
    start_by_play,
    wait_embed,
    wait_ephemeral,
)

pytest.importorskip("bgsage")
pytestmark = module_marks(timeout=180)

env = module_bot("train", {"EXPERT_WORKERS": "1"})

OPENING_31 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"


async def test_analyze_ranks_plays_with_the_expert(env: BotEnv) -> None:
    ann = await env.member("ann")
    channel = await env.channel("analysis")
    command = await env.fake.slash(ann, "analyze", {"position": OPENING_31}, channel=channel)
    response = await wait_embed(env, command, "the analysis")
    embed = response.embeds[0]
    lines = embed["description"].splitlines()
    assert lines[1].startswith("**1. 8/5 6/5** +"), lines
    assert "bgsage" in lines[-1]
    assert "XGID=-b----E-C---eE---c-e----B-:0:0:1:31" in embed["footer"]["text"]
    (png,) = env.fake.attachments_png(response)
    assert decode_png(png)[0] > 100
    assert response.flags & 64  # private unless public:true


async def test_analyze_public_and_a_bad_id(env: BotEnv) -> None:
    ann = await env.member("ann")
    channel = await env.channel("analysis")
    shared = await env.fake.slash(
        ann, "analyze", {"position": "4HPwATDgc/ABMA", "public": True}, channel=channel
    )
    response = await wait_embed(env, shared, "the public analysis")
    assert not response.flags & 64
    assert "Proper cube action: no double, take" in response.embeds[0]["description"]
    bad = await env.fake.slash(ann, "analyze", {"position": "XGID=nonsense"}, channel=channel)
    text = await wait_ephemeral(env, bad)
    assert text.startswith("I cannot read that position: an XGID has 9 or 10 fields"), text


async def test_share_position_on_a_backgammon_board(env: BotEnv) -> None:
    bob = await env.member("bob")
    channel = await env.channel("sharing")
    table = await start_by_play(env, bob, channel, "backgammon")
    board = await table.wait_turn()
    assert board.tokens[-1] == "share"
    click = await table.click(board, "share")
    assert click.refusal is not None and "XGID: `XGID=" in click.refusal
    assert "Position ID: `" in click.refusal and "Match ID: `" in click.refusal
    current = table.current()  # the board is untouched: sharing is not a move
    assert current is not None and current.version == board.version
