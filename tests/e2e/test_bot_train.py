"""/analyze and Share position through the fake Discord (one bgsage worker)."""

from __future__ import annotations

import pytest

from tests.driver.boards import decode_png
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.members import wait_ephemeral
from tests.driver.reviews import wait_embed
from tests.driver.starts import start_by_play

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
    # The picture's alt text tells the position it draws, the dice as the text says them.
    (picture,) = response.attachments
    alt = picture.description or ""
    assert alt.startswith("Backgammon board") and "on points" in alt, alt
    assert "to move with 3-1." in alt, alt


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


def builtin_best(custom_ids: list[str]) -> tuple[int, int]:
    """(best, a worse choice) of the puzzle whose buttons are ``custom_ids``."""
    from bot.service.puzzles import _builtin_by_key

    key = custom_ids[0].split(":")[2]
    puzzle = _builtin_by_key()[key]
    worse = next(i for i in range(len(puzzle.candidates)) if i != puzzle.best)
    return puzzle.best, worse


async def test_a_puzzle_answered_counts_once_and_builds_a_streak(env: BotEnv) -> None:
    cleo = await env.member("cleo")
    channel = await env.channel("puzzles")
    command = await env.fake.slash(cleo, "puzzle", {"game": "ur"}, channel=channel)
    shown = await wait_embed(env, command, "the puzzle")
    assert shown.flags & 64 and shown.embeds[0]["title"] == "Puzzle · Royal Game of Ur"
    assert "to move" in shown.embeds[0]["description"]
    (png,) = env.fake.attachments_png(shown)
    assert decode_png(png)[0] > 100
    ids = shown.custom_ids()
    assert 2 <= len(ids) <= 5 and all(i.startswith("tabula:pz:") for i in ids)
    best, worse = builtin_best(ids)
    solved = await env.fake.click(cleo, shown, ids[best])
    text = await wait_ephemeral(env, solved)
    assert text.startswith("✅ Solved!") and "streak: 1 solved in a row" in text, text
    again = await env.fake.click(cleo, shown, ids[worse])
    text = await wait_ephemeral(env, again)
    assert text.startswith("❌") and "only your first answer counts" in text, text

    # a second puzzle (never the one answered), missed: the streak breaks
    command = await env.fake.slash(cleo, "puzzle", {"game": "ludo"}, channel=channel)
    shown = await wait_embed(env, command, "the second puzzle")
    ids = shown.custom_ids()
    best, worse = builtin_best(ids)
    missed = await env.fake.click(cleo, shown, ids[worse])
    text = await wait_ephemeral(env, missed)
    assert text.startswith("❌ Not the best move.") and "streak: 0" in text, text

    standings = await env.fake.slash(cleo, "puzzles", channel=channel)
    text = await wait_ephemeral(env, standings)
    assert "Your puzzle streak: 0 (best 1)" in text
    assert f"1. <@{cleo.id}>: 1 solved of 2" in text, text
