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

from bot import games
from bot import storage as store
from bot.ai import ur_table
from bot.ai.levels import PERFECT
from bot.ai.ur import move_chances
from bot.engines import ur
from bot.engines.common import Phase
from bot.games.review import ChanceReview
from bot.games.ur_solved import REVIEW_VERSION
from tests.driver.boards import decode_png
from tests.driver.bots import BotEnv, module_marks, running_bot
from tests.driver.members import answer, confirm_resign, parse_link, wait_ephemeral
from tests.driver.player import Table as BoardTable
from tests.driver.reviews import review_page, wait_review
from tests.driver.starts import first_hint, start_by_challenge, start_by_play
from tests.driver.stored import action_log, game_row
from tests.driver.timeouts import STEP_TIMEOUT

pytestmark = module_marks(timeout=300)

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


async def stored_state(env: BotEnv, game_id: str) -> ur.UrState:
    row = await game_row(env, game_id)
    return ur.load_state(json.loads(row.state_json)["engine"])


async def test_play_perfect_to_the_end_then_review(env: BotEnv, table_file: Path) -> None:
    eve = await env.member("eve")
    channel = await env.channel("ur-perfect")
    table = await start_by_play(env, eve, channel, "ur", difficulty="perfect")
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
    response = await wait_review(env, click, "the Ur review")
    page = review_page(response)
    assert f"Review of game {final.game_id}" in page.text
    accuracies = re.findall(r"Accuracy \*\*([\d.]+)%\*\*", page.text)
    assert len(accuracies) == 2
    assert "covers only the end of a game (3 pieces a side)" in page.text
    assert "solved table" in page.text.splitlines()[-1]  # the footer, in small print
    assert page.descriptions[0].startswith("Chart of each player's winning chance")
    assert all(c.startswith(f"Card {n}, ") for n, c in enumerate(page.descriptions[1:], 1))
    pictures = env.fake.attachments_png(response)
    assert pictures and all(decode_png(p)[0] > 100 for p in pictures)
    stored = await store.load_review(await env.db(), final.game_id)
    assert stored is not None and (stored.version, stored.level) == (REVIEW_VERSION, "perfect-3")
    review = ChanceReview.from_json(stored.review_json)
    assert review.players[1].accuracy == 100.0  # the perfect AI loses nothing where judged

    again = await env.fake.slash(
        eve, "review game", {"game": final.game_id}, channel=table.channel_id
    )
    assert review_page(await wait_review(env, again, "the Ur review")).text == page.text


async def test_hint_in_an_ur_game_where_both_agreed(env: BotEnv, table_file: Path) -> None:
    table, board, text = await first_hint(env, "ur", "ur-hints")
    # The start is outside a 3-piece table, and the answer says so and how to get the rest.
    assert "at least 4 pieces borne off" in text and "tabula ur-table build" in text, text

    # Play on (random clicks for both) until the table reaches a position where the person
    # on turn has moves to choose from: /hint then lists them with their chances. About a
    # third of such games end before both sides have four pieces off: then another game.
    solved = ur_table.open(table_file)
    rng = random.Random(9)
    move_hints = 0
    for attempt in range(6):
        if attempt:
            channel = await env.channel(f"ur-hints-{attempt}")
            players = [await env.member("fay"), await env.member("gus")]
            table = await start_by_challenge(
                env, players[0], players[1:], channel, "ur", {"hints": "on"}
            )
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
        refusal = await wait_ephemeral(bare, elsewhere)
        offered = games.titles(lambda game: PERFECT in game.ai_levels)
        assert f"offered for these games only: {offered}" in refusal
        hints = await bare.fake.slash(
            ann, "challenge", {"game": "ur", "opponent": bob, "hints": "on"}, channel=channel
        )
        assert "tabula ur-table build" in await wait_ephemeral(bare, hints)
        helped = await answer(
            bare, await bare.fake.slash(ann, "help", {"game": "ur"}, channel=channel)
        )
        assert helped.original is not None
        assert "tabula ur-table build" in helped.original.embeds[0]["description"]
        rules = await answer(bare, await bare.fake.slash(ann, "rules", {"game": "ur"}))
        assert rules.original is not None
        assert "tabula ur-table build" in rules.original.text  # /rules is a V2 message
        # A finished Ur game offers no Review button here.
        started = await bare.fake.slash(
            ann, "play", {"game": "ur", "difficulty": "easy"}, channel=channel
        )
        table = BoardTable(bare, parse_link((await answer(bare, started)).text)[0], [ann])
        board = await table.wait_turn()
        await confirm_resign(bare, ann, table.channel_id)
        final = await table.wait_turn(board.version)
        assert final.finished and "review" not in final.tokens
