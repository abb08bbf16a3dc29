"""/train through the fake Discord: a backgammon game played and reviewed (bgsage), its
costly plays in the player's deck; each card shown, answered, the verdict read, the next card
and then nothing due; a day later (the clock moved, no waiting) the cards are back."""

from __future__ import annotations

import json
import random

import pytest

from bot import storage
from bot.games.puzzles import Puzzle
from bot.service.deck import read_ref
from bot.storage import deck as deck_store
from bot.ui.buttons import CardAnswer, parse_id
from sandbox.fake_model import Interaction, Message, User
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.members import confirm_resign, ephemeral_text
from tests.driver.reviews import wait_embed, wait_review
from tests.driver.starts import start_by_play
from tests.driver.stored import game_row
from tests.driver.timeouts import STEP_TIMEOUT

pytest.importorskip("bgsage")
pytestmark = module_marks(timeout=300)

env = module_bot("deck", {"EXPERT_WORKERS": "1"})

DAY = 86_400.0


async def private_text(env: BotEnv, interaction: Interaction, part: str) -> str:
    """The bot's private answer to ``interaction`` once it holds ``part``."""
    await env.fake.wait_for(
        lambda: part in ephemeral_text(env, interaction), STEP_TIMEOUT * 2, what=repr(part)
    )
    return ephemeral_text(env, interaction)


async def card_of(env: BotEnv, user: User, shown: Message) -> tuple[Puzzle, list[str], int]:
    """The card a message shows, as the bot stored it: its puzzle, its buttons, the play made
    back then."""
    ids = shown.custom_ids()
    assert ids and all(i.startswith("tabula:tr:") for i in ids), ids
    button = parse_id(ids[0])
    assert button is not None and isinstance(button.fields, CardAnswer)
    game_id, index = read_ref(button.fields.card)
    row = await deck_store.card(await env.db(), user.id, game_id, index)
    assert row is not None
    return Puzzle.from_json(json.loads(row.card_json)["puzzle"]), ids, row.played


async def test_a_reviewed_game_trained_card_by_card(env: BotEnv) -> None:
    fay = await env.member("fay")
    channel = await env.channel("deck")
    table = await start_by_play(env, fay, channel, "backgammon", difficulty="hard")
    final = await table.play(random.Random(7), until_clicks=30)
    if not final.finished:
        await confirm_resign(env, fay, table.channel_id)
        final = await table.wait_turn()
    assert final.finished

    # Before the review the deck is empty.
    empty = await env.fake.slash(fay, "train", {}, channel=channel)
    assert "Your training deck is empty" in await private_text(env, empty, "empty")

    click = await env.fake.click(fay, final.message, final.custom_id("review"))
    await wait_review(env, click, "the review")
    seat = next(s.seat for s in (await game_row(env, final.game_id)).seats if not s.is_ai)
    stored = await env.db()
    review = json.loads(await _review_json(env, final.game_id))
    player = review["players"][seat]
    costly = [d for d in player["costly"] if d["kind"] == "move" and d["played"] != d["best"]]
    assert all(d["loss_mp"] >= 40 for d in costly)
    k = len(costly)
    assert k >= 1, "random plays against the hard AI make errors"
    assert await deck_store.count_due(stored, fay.id, 4e9, "9999-12-31") == k

    # /train: each card in turn; the first answered wrong, the others right.
    command = await env.fake.slash(fay, "train", {"game": "backgammon"}, channel=channel)
    shown = await wait_embed(env, command, "the first card")
    embed = shown.embeds[0]
    assert embed["title"] == "Training · Backgammon" and shown.flags & 64
    assert embed["footer"]["text"].startswith(f"{k} card{'s' if k > 1 else ''} due · game ")
    assert "find the best move" in embed["description"].lower()
    puzzle, ids, played = await card_of(env, fay, shown)
    answered = await env.fake.click(fay, shown, ids[played])
    text = await private_text(env, answered, "Not the best move")
    assert "Back then you played **" in text and "costs" in text and "your answer" in text
    assert "comes back today" in text and "streak: 0 right in a row" in text
    for step in range(k):
        (verdict,) = env.fake.ephemeral_replies(answered)
        (next_id,) = verdict.custom_ids()
        assert next_id == "tabula:tx:backgammon:next"  # /train game:backgammon's deck
        nxt = await env.fake.click(fay, verdict, next_id)
        shown = await wait_embed(env, nxt, f"card {step + 2}")
        puzzle, ids, played = await card_of(env, fay, shown)
        answered = await env.fake.click(fay, shown, ids[puzzle.best])
        text = await private_text(env, answered, "Right!")
        assert f"streak: {step + 1} right in a row" in text
        assert "This card comes back <t:" in text
        if step == k - 1:
            assert "No other Backgammon card is due now." in text
            assert not env.fake.ephemeral_replies(answered)[0].custom_ids()
    # a second click on an answered card is judged, not counted
    again = await env.fake.click(fay, shown, ids[puzzle.best])
    assert "only the first answer" in await private_text(env, again, "first answer")

    # Nothing due: when the next one is.
    later = await env.fake.slash(fay, "train", {}, channel=channel)
    text = await private_text(env, later, "Nothing is due now")
    assert "your next card is due <t:" in text and f"holds {k} card" in text

    # A day later (the clock moved): the cards answered right are due again.
    env.fake.advance(DAY)
    back = await env.fake.slash(fay, "train", {}, channel=channel)
    shown = await wait_embed(env, back, "a card the next day")
    assert shown.custom_ids()[0].startswith("tabula:tr:")

    # Reset: the game's cards removed.
    reset = await env.fake.slash(
        fay, "train", {"game": "backgammon", "reset": True}, channel=channel
    )
    word = "card" if k == 1 else "cards"
    assert f"{k} Backgammon {word} removed" in await private_text(env, reset, "removed")
    gone = await env.fake.slash(fay, "train", {}, channel=channel)
    assert "Your training deck is empty" in await private_text(env, gone, "empty")


async def _review_json(env: BotEnv, game_id: str) -> str:
    row = await storage.load_review(await env.db(), game_id)
    assert row is not None
    return row.review_json
