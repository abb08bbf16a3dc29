"""Ur's ``perfect`` level, /hint and the Review button through the fake Discord, with a small
solved table (3 pieces a side, built here in seconds) at ``UR_TABLE_PATH``; and what the bot
says without a table.

A 3-piece table covers the positions where each side has at least four pieces borne off (the
end of a game): there ``perfect`` plays the table's best move and hints and reviews come from
it; before that ``perfect`` plays as ``hard``, /hint explains, and the review judges nothing.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot import storage as store
from bot.ai import ur_table
from bot.ai.ur import move_chances
from bot.engines import ur
from bot.engines.common import Phase
from bot.sandbox.fake_model import Interaction, Message
from bot.service.ur_review import UR_REVIEW_VERSION, UrReview
from tests.e2e.bot_helpers import (
    STEP_TIMEOUT,
    BotEnv,
    action_log,
    answer,
    decode_png,
    game_row,
    parse_link,
    running_bot,
    start_by_challenge,
    wait_ephemeral,
)
from tests.e2e.bot_helpers import Table as BoardTable

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(300)]

PIECES = 3


@pytest.fixture(scope="module")
def table_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("numba")
    from bot.ai import ur_solver

    return ur_solver.build(tmp_path_factory.mktemp("ur-table") / "ur3.table", PIECES).path


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory, table_file: Path) -> AsyncIterator[BotEnv]:
    workdir = tmp_path_factory.mktemp("ur-perfect")
    async with running_bot(workdir, {"UR_TABLE_PATH": str(table_file)}) as e:
        yield e


async def reviewed(env: BotEnv, interaction: Interaction) -> Message:
    response = await env.fake.wait_for(
        lambda: (
            (r := env.fake.snapshot(interaction)).original is not None
            and r.original.embeds
            and r.original
        ),
        STEP_TIMEOUT * 4,
        what="the Ur review",
    )
    assert isinstance(response, Message)
    return response


async def stored_state(env: BotEnv, game_id: str) -> ur.UrState:
    row = await game_row(env, game_id)
    return ur.load_state(json.loads(row.state_json)["engine"])


async def test_play_perfect_to_the_end_then_review(env: BotEnv, table_file: Path) -> None:
    eve = await env.member("eve")
    channel = await env.channel("ur-perfect")
    command = await env.fake.slash(
        eve, "play", {"game": "ur", "difficulty": "perfect"}, channel=channel
    )
    reply = await answer(env, command)
    assert "ready" in reply.content, reply.content
    table = BoardTable(env, parse_link(reply.content)[0], [eve])
    final = await table.play(random.Random(4))
    assert final.finished and "review" in final.tokens

    # The AI sat at the perfect level and, wherever the table reached, played its best move.
    row = await game_row(env, final.game_id)
    assert [s.ai_level for s in row.seats] == [None, "perfect"]
    solved = ur_table.open(table_file)
    state = ur.new_game()
    for action in await action_log(env, final.game_id):
        parsed = ur.parse(state, action.notation)
        if (
            isinstance(parsed, ur.Move)
            and state.turn == 1
            and solved.covers(state.position)
            and len(ur.legal_actions(state)) > 1
        ):
            chances = dict(move_chances(state.position, state.roll_value, solved))
            assert chances[parsed] == max(chances.values()), action.notation
        state = ur.apply(state, parsed)
    assert state.phase is Phase.FINISHED

    click = await env.fake.click(eve, final.message, final.custom_id("review"))
    response = await reviewed(env, click)
    embed = response.embeds[0]
    assert embed["title"] == f"Review of game {final.game_id}"
    accuracies = [
        re.search(r"Accuracy \*\*([\d.]+)%\*\*", f["value"])
        for f in embed["fields"]
        if "Accuracy" in f["value"]
    ]
    assert len(accuracies) == 2 and all(a is not None for a in accuracies)
    assert "covers only the end of a game (3 pieces a side)" in embed["description"]
    assert "solved table" in embed["footer"]["text"]
    pictures = env.fake.attachments_png(response)
    assert pictures and all(decode_png(p)[0] > 100 for p in pictures)
    stored = await store.load_review(await env.db(), final.game_id)
    assert stored is not None and (stored.version, stored.level) == (UR_REVIEW_VERSION, "perfect-3")
    review = UrReview.from_json(stored.review_json)
    assert review.players[1].accuracy == 100.0  # the perfect AI loses nothing where judged

    again = await env.fake.slash(eve, "review", {"game": final.game_id}, channel=table.channel_id)
    assert (await reviewed(env, again)).embeds[0]["title"] == embed["title"]


async def test_hint_in_an_ur_game_where_both_agreed(env: BotEnv, table_file: Path) -> None:
    fay, gus = await env.member("fay"), await env.member("gus")
    channel = await env.channel("ur-hints")
    table = await start_by_challenge(env, fay, [gus], channel, "ur", {"hints": "on"})
    board = await table.wait_turn()
    on_turn = table.player_on_turn(board)
    other = gus if on_turn.id == fay.id else fay
    asked = await env.fake.slash(on_turn, "hint", channel=table.channel_id)
    text = await wait_ephemeral(env, asked, STEP_TIMEOUT * 2)
    # The start is outside a 3-piece table, and the answer says so and how to get the rest.
    assert "at least 4 pieces borne off" in text and "tabula ur-table build" in text, text
    refused = await env.fake.slash(other, "hint", channel=table.channel_id)
    assert "not your turn" in (await wait_ephemeral(env, refused)).lower()
    row = await game_row(env, board.game_id)
    assert not row.rated

    # Play on (random clicks for both) until the table reaches a position where the person
    # on turn has moves to choose from: /hint then lists them with their chances. About a
    # third of such games end before both sides have four pieces off: then another game.
    solved = ur_table.open(table_file)
    rng = random.Random(9)
    move_hints = 0
    for attempt in range(6):
        if attempt:
            channel = await env.channel(f"ur-hints-{attempt}")
            table = await start_by_challenge(env, fay, [gus], channel, "ur", {"hints": "on"})
            board = await table.wait_turn()
        while not board.finished and not move_hints:
            state = await stored_state(env, board.game_id)
            if solved.covers(state.position):
                player = table.player_on_turn(board)
                asked = await env.fake.slash(player, "hint", channel=table.channel_id)
                text = await wait_ephemeral(env, asked, STEP_TIMEOUT * 2)
                if state.phase is Phase.MOVE:
                    assert "1. `" in text and "2. `" in text and "% to win" in text, text
                    move_hints += 1
                else:
                    assert "chance to win before rolling" in text, text
            click = await table.click(board, table.choose(board, rng))
            assert click.refusal is None, click.refusal
            board = await table.wait_turn(click.version)
        if move_hints:
            break
    assert move_hints, "no game reached a position the table covers in six tries"


async def test_without_a_table_perfect_is_refused_with_the_instruction(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    async with running_bot(tmp_path_factory.mktemp("ur-no-table")) as bare:
        ann = await bare.member("ann")
        bob = await bare.member("bob")
        channel = await bare.channel("no-table")
        refused = await bare.fake.slash(
            ann, "play", {"game": "ur", "difficulty": "perfect"}, channel=channel
        )
        text = await wait_ephemeral(bare, refused)
        assert "tabula ur-table build" in text and "hard" in text, text
        elsewhere = await bare.fake.slash(
            ann, "play", {"game": "ludo", "difficulty": "perfect"}, channel=channel
        )
        assert "Royal Game of Ur only" in await wait_ephemeral(bare, elsewhere)
        hints = await bare.fake.slash(
            ann, "challenge", {"game": "ur", "opponent": bob, "hints": "on"}, channel=channel
        )
        assert "tabula ur-table build" in await wait_ephemeral(bare, hints)
        helped = await answer(bare, await bare.fake.slash(ann, "help", channel=channel))
        assert helped.original is not None
        assert "tabula ur-table build" in helped.original.embeds[0]["description"]
        rules = await answer(bare, await bare.fake.slash(ann, "rules", {"game": "ur"}))
        assert rules.original is not None
        assert "tabula ur-table build" in rules.original.embeds[0]["description"]
        # A finished Ur game offers no Review button here.
        started = await bare.fake.slash(
            ann, "play", {"game": "ur", "difficulty": "easy"}, channel=channel
        )
        table = BoardTable(bare, parse_link((await answer(bare, started)).content)[0], [ann])
        board = await table.wait_turn()
        resign = await bare.fake.slash(ann, "resign", channel=table.channel_id)
        await answer(bare, resign)
        final = await table.wait_turn(board.version)
        assert final.finished and "review" not in final.tokens
