"""The expert level and the Review button through the fake Discord (bgsage workers on)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.service.recent import recent_games
from sandbox.fake_model import FileOption
from tests.driver.boards import decode_png
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.members import confirm_resign, wait_ephemeral
from tests.driver.reviews import review_page, wait_review
from tests.driver.starts import first_hint, start_by_play
from tests.driver.stored import game_row

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


async def test_a_match_played_elsewhere_imported_by_attachment_and_reviewed(env: BotEnv) -> None:
    fixtures = Path(__file__).parent.parent / "imports" / "fixtures"
    ben = await env.member("Ben")
    channel = await env.channel("imports")
    sgf = FileOption("match.sgf", (fixtures / "gnubg-3point.sgf").read_bytes())
    asked = await env.fake.slash(ben, "review import", {"file": sgf}, channel=channel)
    response = await wait_review(env, asked, "the imported match's review")
    page = review_page(response)
    assert "Review of imported game" in page.text and "PR" in page.text
    assert "Ada" in page.text and "Ben" in page.text
    # Stored as Ben's (his name is in the file), unrated, marked imported; in his games.
    (found,) = [g for g in await recent_games(await env.db(), ben.id) if g.imported]
    row = await game_row(env, found.id)
    assert row.imported and not row.rated and row.seat_of(ben.id) is not None
    suggested = await env.fake.autocomplete(ben, "review game", {"game": ""}, "game")
    await env.fake.response_of(suggested)
    assert any("imported" in c["name"] for c in suggested.callback_data["choices"])
    # A hostile file: refused with its reason, nothing stored.
    bad = FileOption(
        "match.mat", (fixtures / "gnubg-3point.mat").read_bytes().replace(b"Ada", b"@everyone")
    )
    refused = await env.fake.slash(ben, "review import", {"file": bad}, channel=channel)
    assert "mention" in await wait_ephemeral(env, refused)
    assert [g.id for g in await recent_games(await env.db(), ben.id)] == [found.id]
