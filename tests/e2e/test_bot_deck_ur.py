"""Ur cards through the fake Discord: Ur games against the AI, reviewed with a small solved
table (3 pieces a side, built here in seconds, as tests/e2e/test_bot_ur_perfect.py does),
put the person's costly moves in their deck; ``/train game:ur`` shows each with its
candidate buttons, answered; Next card keeps to Ur's cards though another game's card is
due, and says when the next Ur card is due once none is."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot import storage as store
from bot.games.puzzles import Puzzle, load_set
from bot.games.review import ChanceReview
from bot.service.deck import read_ref
from bot.storage import deck as deck_store
from bot.ui.buttons import CardAnswer, parse_id
from bot.ui.puzzles import candidate_labels
from sandbox.fake_model import Interaction, Message, User
from tests.driver.bots import BotEnv, module_marks, running_bot
from tests.driver.members import ephemeral_text
from tests.driver.reviews import wait_embed, wait_review
from tests.driver.starts import start_by_play
from tests.driver.stored import game_row
from tests.driver.timeouts import STEP_TIMEOUT

pytestmark = module_marks(timeout=600)

UR = "Royal Game of Ur"
PIECES = 3
GAMES = 8  # Ur games at most, until the table has judged two costly moves of the person's


@pytest.fixture(scope="module")
def table_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("numba")
    from bot.ai import ur_solver

    return ur_solver.build(tmp_path_factory.mktemp("ur-table") / "ur3.table", PIECES).path


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory, table_file: Path) -> AsyncIterator[BotEnv]:
    workdir = tmp_path_factory.mktemp("ur-deck")
    async with running_bot(workdir, {"UR_TABLE_PATH": str(table_file)}) as e:
        yield e


async def private_text(env: BotEnv, interaction: Interaction, part: str) -> str:
    await env.fake.wait_for(
        lambda: part in ephemeral_text(env, interaction), STEP_TIMEOUT * 2, what=repr(part)
    )
    return ephemeral_text(env, interaction)


async def card_of(env: BotEnv, user: User, shown: Message) -> tuple[Puzzle, list[str], int, str]:
    """The card a message shows, as stored: its puzzle, its buttons, the move made back then,
    and the deck its buttons name."""
    ids = shown.custom_ids()
    buttons = [parse_id(i) for i in ids]
    fields = [b.fields for b in buttons if b is not None and isinstance(b.fields, CardAnswer)]
    assert len(fields) == len(ids), ids
    game_id, index = read_ref(fields[0].card)
    row = await deck_store.card(await env.db(), user.id, game_id, index)
    assert row is not None
    return Puzzle.from_json(json.loads(row.card_json)["puzzle"]), ids, row.played, fields[0].deck


async def reviewed_game(env: BotEnv, user: User, number: int) -> int:
    """An Ur game of ``user``'s against the easy AI (random clicks, seeded), finished and
    reviewed by the Review button; how many costly moves of the person's the review kept."""
    channel = await env.channel(f"ur-deck-{number}")
    table = await start_by_play(env, user, channel, "ur", difficulty="easy")
    final = await table.play(random.Random(number))
    assert final.finished
    click = await env.fake.click(user, final.message, final.custom_id("review"))
    await wait_review(env, click, "the Ur review")
    stored = await store.load_review(await env.db(), final.game_id)
    assert stored is not None
    seat = next(s.seat for s in (await game_row(env, final.game_id)).seats if not s.is_ai)
    player = ChanceReview.from_json(stored.review_json).players[seat]
    return sum(1 for m in player.costly if m.played != m.best)


async def test_ur_cards_from_a_review_trained_with_next_card_keeping_to_ur(env: BotEnv) -> None:
    ida = await env.member("ida")
    stored = await env.db()
    costly = 0
    for number in range(GAMES):
        costly += await reviewed_game(env, ida, number)
        if costly >= 2:
            break
    assert costly >= 2, f"{GAMES} reviewed Ur games judged fewer than two costly moves"
    # every costly move the reviews kept is a card of ida's, and no other
    assert await deck_store.count_due(stored, ida.id, 4e9, "9999-12-31") == costly
    # a card of another game, due too (stored as a review's costly Ludo move is)
    ludo = load_set("ludo")[0]
    other = deck_store.NewCard(
        ida.id, "1d0000aa", 3, "ludo", ludo.seat, json.dumps({"puzzle": ludo.to_json()}), 1
    )
    assert await deck_store.add_cards(stored, [other], env.fake.wall_time()) == 1

    # /train game:ur: an Ur card, its candidates as buttons in their order, the count Ur's.
    channel = await env.channel("ur-train")
    command = await env.fake.slash(ida, "train", {"game": "ur"}, channel=channel)
    shown = await wait_embed(env, command, "the first Ur card")
    verdicts: list[tuple[Interaction, Message]] = []
    for step in range(costly):
        embed = shown.embeds[0]
        assert embed["title"] == f"Training · {UR}" and shown.flags & 64
        left = costly - step
        assert embed["footer"]["text"].startswith(f"{left} card{'s' if left > 1 else ''} due ·")
        puzzle, ids, played, deck = await card_of(env, ida, shown)
        assert puzzle.game == "ur" and deck == "ur"
        labels = [(shown.component(i) or {}).get("label") for i in ids]
        assert labels == candidate_labels(puzzle, None)
        assert played != puzzle.best
        answered = await env.fake.click(ida, shown, ids[puzzle.best])
        text = await private_text(env, answered, "Right!")
        assert "Back then you played **" in text and "your answer" in text
        (verdict,) = env.fake.ephemeral_replies(answered)
        verdicts.append((answered, verdict))
        if step == costly - 1:
            # Ur's cards are done; the Ludo card, due, is not offered here
            assert f"No other {UR} card is due now." in text
            assert not verdict.custom_ids()
            break
        assert (
            f"{left - 1} {UR} card{'s' if left > 2 else ''} {'are' if left > 2 else 'is'}" in text
        )
        (next_id,) = verdict.custom_ids()
        assert next_id == "tabula:tx:ur:next"
        nxt = await env.fake.click(ida, verdict, next_id)
        shown = await wait_embed(env, nxt, f"Ur card {step + 2}")

    # The first verdict's Next card, clicked again: no Ur card is due, and when the next is.
    _, verdict = verdicts[0]
    again = await env.fake.click(ida, verdict, "tabula:tx:ur:next")
    text = await private_text(env, again, f"No {UR} card is due now")
    assert "your next one is due <t:" in text
    assert f"Your deck holds {costly} {UR} cards." in text
    # The whole deck still has the Ludo card due.
    whole = await env.fake.slash(ida, "train", {}, channel=channel)
    ludo_card = await wait_embed(env, whole, "the Ludo card")
    assert ludo_card.embeds[0]["title"] == "Training · Ludo"
    assert ludo_card.embeds[0]["footer"]["text"].startswith("1 card due ·")
    *_, deck = await card_of(env, ida, ludo_card)
    assert deck == "all"
