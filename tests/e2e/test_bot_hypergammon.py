"""Hypergammon through the real bot and the fake Discord: offered by the commands from the
registry, a whole game against the ``perfect`` AI with /play and a whole rated game between
two people with /challenge, both from the three-checker start; the people's game gets its
review from the solved table, its rating of its own (Hypergammon's leaderboard), its ``.mat``
file with gnubg's Variation tag, and /verify of its rolls.

The bot finds a table in ``GAME_TABLES``: here a 3-checker table of zeros (a sparse file:
the full table takes half an hour to build), so the plumbing is what is tested, every play
being as good as another; the figures are the unit tests' (tests/games/test_hypergammon.py).
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot import storage as store
from bot.ai import hypergammon_table as table
from bot.engines import backgammon as bg
from bot.engines import hypergammon
from bot.engines.common import Replay
from bot.games.files import options_of
from bot.games.hypergammon import VARIATION
from tests.driver.boards import decode_png
from tests.driver.bots import BotEnv, module_marks, problems_in_log, running_bot
from tests.driver.log_check import check_finished
from tests.driver.members import answer, wait_ephemeral
from tests.driver.player import Table
from tests.driver.reviews import review_page, wait_review
from tests.driver.starts import start_by_challenge, start_by_play
from tests.driver.stored import action_log, results_of

pytestmark = module_marks(timeout=300)

HYPER = hypergammon.GAME


def zero_table(folder: Path) -> Path:
    """A 3-checker table file of zeros, as big as the real one but sparse on disk."""
    sides = len(table.side_tuples(table.CHECKERS))
    path = folder / table.FILE
    with path.open("wb") as file:
        file.write(
            table.HEADER.pack(table.MAGIC, table.CHECKERS, sides, sides * sides, 0.0, 0, bytes(32))
        )
        file.truncate(table.HEADER.size + sides * sides * table.RECORD.size)
    return path


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    folder = tmp_path_factory.mktemp("hyper-tables")
    zero_table(folder)
    workdir = tmp_path_factory.mktemp("hypergammon")
    async with running_bot(workdir, {"GAME_TABLES": str(folder)}) as e:
        yield e


def embed_text(message: Any) -> str:
    parts = []
    for embed in getattr(message, "embeds", []):
        parts += [embed.get("title", ""), embed.get("description", "")]
        parts += [f"{f.get('name')}: {f.get('value')}" for f in embed.get("fields", [])]
    return "\n".join(parts)


async def started_from_its_start(env: BotEnv, table_: Table) -> None:
    """The stored log replayed by Hypergammon's rules: every game opens on its start."""
    assert table_.game_id is not None
    log = await action_log(env, table_.game_id)
    row = await store.load_game(await env.db(), table_.game_id)
    assert row is not None
    steps = Replay(hypergammon, options_of(row), [a.notation for a in log])
    openings = [before for before, _, _ in steps if before.phase is bg.Phase.OPENING]
    assert openings and all(state.position == hypergammon.START for state in openings)


async def test_the_commands_offer_it_next_to_nackgammon(env: BotEnv) -> None:
    synced = next(c for c in env.fake.commands() if c.name == "rules")
    option = next(o for o in synced.body["options"] if o["name"] == "game")
    values = [choice["value"] for choice in option["choices"]]
    assert values.index(HYPER) == values.index("nackgammon") + 1
    player = await env.member("hyper-reader")
    rules = await env.fake.slash(player, "rules", {"game": HYPER}, channel=await env.channel("r"))
    shown = (await answer(env, rules)).original
    assert shown is not None and "Hypergammon" in shown.text
    assert "24-, 23- and 22-points" in shown.text


async def test_a_whole_game_against_the_perfect_ai(env: BotEnv) -> None:
    eve = await env.member("hyper-eve")
    table_ = await start_by_play(
        env, eve, await env.channel("hyper-play"), HYPER, difficulty="perfect"
    )
    final = await table_.play(random.Random(11))
    assert final.finished and "wins" in final.message.text
    row = await check_finished(env, table_)
    assert row.game == HYPER and not row.rated
    await started_from_its_start(env, table_)


async def test_a_whole_rated_game_between_two_people_with_its_review(env: BotEnv) -> None:
    ann, ben = await env.member("hyper-ann"), await env.member("hyper-ben")
    channel = await env.channel("hyper-challenge")
    table_ = await start_by_challenge(env, ann, [ben], channel, HYPER)
    final = await table_.play(random.Random(12))
    assert final.finished and "wins" in final.message.text
    row = await check_finished(env, table_)
    assert row.game == HYPER and row.rated
    await started_from_its_start(env, table_)
    assert sorted(r.place for r in await results_of(env, row)) == [1, 2]

    # A rating of its own: Hypergammon's leaderboard has both, backgammon's neither.
    db = await env.db()
    rated = {
        (r.game, r.user_id)
        for u in (ann, ben)
        for r in await store.ratings_of_user(db, u.id, "global")
    }
    assert rated == {(HYPER, ann.id), (HYPER, ben.id)}
    board = await env.fake.slash(ann, "leaderboard", {"game": HYPER}, channel=channel)
    posted = (await answer(env, board)).original
    assert posted is not None
    shown = embed_text(posted)
    assert f"<@{ann.id}>" in shown and f"<@{ben.id}>" in shown, shown
    other = await env.fake.slash(ann, "leaderboard", {"game": "backgammon"}, channel=channel)
    posted = (await answer(env, other)).original
    assert posted is not None and f"<@{ann.id}>" not in embed_text(posted)

    # /verify recomputes every roll; /export gives the .mat with gnubg's Variation tag.
    verify = await env.fake.slash(ann, "verify", {"game": row.id}, channel=channel)
    assert "✅" in await wait_ephemeral(env, verify)
    export = await env.fake.slash(ann, "export", {"game": row.id}, channel=channel)
    reply = await answer(env, export)
    files = [a for m in (reply.original, *reply.followups) if m for a in m.attachments]
    assert [f.filename for f in files] == [f"tabula-{HYPER}-{row.id}.{HYPER}.mat"]
    assert f'; [Variation "{VARIATION}"]' in files[0].data.decode()

    # The review, from the table.
    assert "review" in final.tokens
    click = await env.fake.click(ben, final.message, final.custom_id("review"))
    response = await wait_review(env, click, "the review")
    page = review_page(response)
    assert "Review of game" in page.text and "PR" in page.text
    pictures = env.fake.attachments_png(response)
    assert all(decode_png(p)[0] > 100 for p in pictures)
    assert problems_in_log(env.bot) == []
