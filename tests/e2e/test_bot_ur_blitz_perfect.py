"""Ur (Blitz) with its solved table through the fake Discord: a small table (3 pieces a side,
built here in seconds) as ``ur-blitz-table.bin`` beside ``UR_TABLE_PATH`` (where no Finkel
table is), found at start-up; ``perfect`` plays its best moves, /hint answers from it, and the
review is the table's (``perfect-3``: only the end of the game)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot import storage as store
from bot.ai import ur_sets_table
from bot.engines import ur_blitz
from bot.engines.common import Phase
from bot.games import ur_blitz as manifest
from bot.games.review import ChanceReview
from tests.driver.bots import BotEnv, module_marks, problems_in_log, running_bot
from tests.driver.reviews import review_page, wait_review
from tests.driver.starts import first_hint, start_by_play
from tests.driver.stored import action_log, game_row

pytestmark = module_marks(timeout=300)

KIND = ur_blitz.GAME
PIECES = 3


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("numba")
    from bot.ai import ur_sets_solver

    where = tmp_path_factory.mktemp("ur-blitz-tables")
    ur_sets_solver.build(where / "ur-blitz-table.bin", ur_blitz.RULES, PIECES)
    return where


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory, folder: Path) -> AsyncIterator[BotEnv]:
    workdir = tmp_path_factory.mktemp("ur-blitz-perfect")
    async with running_bot(workdir, {"UR_TABLE_PATH": str(folder / "ur-table.bin")}) as e:
        yield e


async def test_perfect_plays_the_tables_moves_and_the_review_is_exact(
    env: BotEnv, folder: Path
) -> None:
    eve = await env.member("eve")
    channel = await env.channel("blitz-perfect")
    table = await start_by_play(env, eve, channel, KIND, difficulty="perfect")
    final = await table.play(random.Random(5))
    assert final.finished and "review" in final.tokens
    row = await game_row(env, final.game_id)
    assert [s.ai_level for s in row.seats] == [None, "perfect"]

    solved = ur_sets_table.open(folder / "ur-blitz-table.bin", ur_blitz.RULES)
    state = ur_blitz.new_game()
    judged = 0
    for action in await action_log(env, final.game_id):
        parsed = ur_blitz.parse(state, action.notation)
        if (
            isinstance(parsed, ur_blitz.Move)
            and state.turn == 1
            and solved.covers(state.position)
            and len(ur_blitz.legal_actions(state)) > 1
        ):
            chances = dict(manifest.AI.move_chances(state.position, state.roll_value, solved))
            assert chances[parsed] == max(chances.values()), action.notation
            judged += 1
        state = ur_blitz.apply(state, parsed)
    assert state.phase is Phase.FINISHED

    click = await env.fake.click(eve, final.message, final.custom_id("review"))
    page = review_page(await wait_review(env, click, "the Blitz review"))
    assert f"Review of game {final.game_id}" in page.text
    assert "covers only the end of a game (3 pieces a side)" in page.text
    stored = await store.load_review(await env.db(), final.game_id)
    assert stored is not None and stored.level == "perfect-3"
    review = ChanceReview.from_json(stored.review_json)
    assert {p.seat for p in review.players} == {0, 1}
    if judged:
        assert review.players[1].accuracy == 100.0  # the perfect AI loses nothing judged
    assert problems_in_log(env.bot) == []


async def test_hint_answers_from_the_table(env: BotEnv) -> None:
    _, _, text = await first_hint(env, KIND, "blitz-hints")
    # The start is outside a 3-piece table of a 5-piece game, and the answer says so.
    assert "at least 2 pieces borne off" in text, text
    assert "`tabula ur-table build --game ur_blitz`" in text, text
