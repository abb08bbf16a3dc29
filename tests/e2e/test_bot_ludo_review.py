"""The Review button on a finished Ludo game and ``/review`` of it, through the fake Discord."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot import storage as store
from bot.sandbox.fake_model import Interaction, Message
from bot.service.ludo_review import LUDO_REVIEW_VERSION, LudoReview
from tests.e2e.bot_helpers import (
    STEP_TIMEOUT,
    BotEnv,
    answer,
    decode_png,
    game_row,
    running_bot,
    start_by_play,
)

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(240)]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with running_bot(tmp_path_factory.mktemp("ludo-review")) as e:
        yield e


async def reviewed(env: BotEnv, interaction: Interaction) -> Message:
    """The review the bot edits into the deferred answer of ``interaction``."""
    response = await env.fake.wait_for(
        lambda: (
            (r := env.fake.snapshot(interaction)).original is not None
            and r.original.embeds
            and r.original
        ),
        STEP_TIMEOUT * 4,
        what="the Ludo review",
    )
    assert isinstance(response, Message)
    return response


async def test_review_button_and_command_on_a_finished_ludo_game(env: BotEnv) -> None:
    ivy = await env.member("ivy")
    channel = await env.channel("ludo-review")
    table = await start_by_play(env, ivy, channel, "ludo")
    board = await table.play(random.Random(5), until_clicks=40)
    assert not board.finished
    assert "review" not in board.tokens  # no review while the game runs
    resign = await env.fake.slash(ivy, "resign", channel=table.channel_id)
    await answer(env, resign)
    final = await table.wait_turn(board.version)
    assert final.finished and "review" in final.tokens

    click = await env.fake.click(ivy, final.message, final.custom_id("review"))
    response = await reviewed(env, click)
    embed = response.embeds[0]
    assert embed["title"] == f"Review of game {final.game_id}"
    (field,) = [f for f in embed["fields"] if "Accuracy" in f["value"]]  # one human seat
    shown = re.search(r"Accuracy \*\*([\d.]+)%\*\*", field["value"])
    assert shown is not None, field["value"]
    assert 0.0 <= float(shown[1]) <= 100.0
    assert "ivy" in field["name"]
    pictures = env.fake.attachments_png(response)
    assert pictures and all(decode_png(p)[0] > 100 for p in pictures)

    # The review is stored, judged the clicks ivy made and is read back for /review.
    row = await game_row(env, final.game_id)
    stored = await store.load_review(await env.db(), final.game_id)
    assert stored is not None and stored.version == LUDO_REVIEW_VERSION
    review = LudoReview.from_json(stored.review_json)
    (player,) = review.players
    assert player.seat == next(s.seat for s in row.seats if not s.is_ai)
    assert player.moves > 0 and sum(player.counts.values()) == player.moves
    assert review.actions == row.action_count
    assert f"{review.players[0].accuracy:.1f}" == shown[1]
    command = await env.fake.slash(ivy, "review", {"game": final.game_id}, channel=channel)
    again = await reviewed(env, command)
    assert again.embeds[0]["fields"] == embed["fields"]
