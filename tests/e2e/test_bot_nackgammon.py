"""Nackgammon through the real bot and the fake Discord: offered by the commands from the
registry, a whole game against the AI with /play and a whole rated game between two people
with /challenge, both from the Nackgammon start; the people's game gets its review from the
expert, its rating of its own (the leaderboard of Nackgammon, not backgammon's), its ``.mat``
file with gnubg's Variation tag, and /verify of its rolls."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import games
from bot import storage as store
from bot.engines import backgammon as bg
from bot.engines import nackgammon
from bot.engines.common import Replay
from bot.games.files import options_of
from tests.driver.boards import decode_png
from tests.driver.bots import BotEnv, module_bot, module_marks, problems_in_log
from tests.driver.log_check import check_finished
from tests.driver.members import answer, wait_ephemeral
from tests.driver.player import Table
from tests.driver.reviews import review_page, wait_review
from tests.driver.starts import start_by_challenge, start_by_play
from tests.driver.stored import action_log, results_of

pytest.importorskip("bgsage")
pytestmark = module_marks(timeout=300)

NACK = nackgammon.GAME

env = module_bot("nackgammon", {"EXPERT_WORKERS": "1"})


def embed_text(message: Any) -> str:
    parts = []
    for embed in getattr(message, "embeds", []):
        parts += [embed.get("title", ""), embed.get("description", "")]
        parts += [f"{f.get('name')}: {f.get('value')}" for f in embed.get("fields", [])]
    return "\n".join(parts)


async def started_from_the_nack_position(env: BotEnv, table: Table) -> list[bg.BackgammonState]:
    """The stored log replayed by Nackgammon's rules: every game opens on its start."""
    assert table.game_id is not None
    log = await action_log(env, table.game_id)
    row = await store.load_game(await env.db(), table.game_id)
    assert row is not None
    steps = Replay(nackgammon, options_of(row), [a.notation for a in log])
    openings = [before for before, _, _ in steps if before.phase is bg.Phase.OPENING]
    assert openings and all(state.position == nackgammon.START for state in openings)
    return openings


async def test_the_commands_offer_it_next_to_backgammon(env: BotEnv) -> None:
    synced = next(c for c in env.fake.commands() if c.name == "rules")
    option = next(o for o in synced.body["options"] if o["name"] == "game")
    values = [choice["value"] for choice in option["choices"]]
    assert values == list(games.kinds()) and values.index(NACK) == values.index("backgammon") + 1
    player = await env.member("nack-reader")
    rules = await env.fake.slash(player, "rules", {"game": NACK}, channel=await env.channel("r"))
    shown = (await answer(env, rules)).original
    assert shown is not None and "Nackgammon" in shown.text
    assert "23-point" in shown.text


async def test_a_whole_game_against_the_ai(env: BotEnv) -> None:
    eve = await env.member("nack-eve")
    table = await start_by_play(env, eve, await env.channel("nack-play"), NACK)
    final = await table.play(random.Random(11))
    assert final.finished and "wins" in final.message.text
    row = await check_finished(env, table)
    assert row.game == NACK and not row.rated
    await started_from_the_nack_position(env, table)


async def test_a_whole_rated_game_between_two_people_with_its_review(env: BotEnv) -> None:
    ann, ben = await env.member("nack-ann"), await env.member("nack-ben")
    channel = await env.channel("nack-challenge")
    table = await start_by_challenge(env, ann, [ben], channel, NACK)
    final = await table.play(random.Random(12))
    assert final.finished and "wins" in final.message.text
    row = await check_finished(env, table)
    assert row.game == NACK and row.rated
    await started_from_the_nack_position(env, table)
    results = await results_of(env, row)
    assert sorted(r.place for r in results) == [1, 2]

    # A rating of its own: Nackgammon's leaderboard has both, backgammon's neither.
    db = await env.db()
    rated = {
        (r.game, r.user_id)
        for u in (ann, ben)
        for r in await store.ratings_of_user(db, u.id, "global")
    }
    assert rated == {(NACK, ann.id), (NACK, ben.id)}
    board = await env.fake.slash(ann, "leaderboard", {"game": NACK}, channel=channel)
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
    assert [f.filename for f in files] == [f"tabula-{NACK}-{row.id}.{NACK}.mat"]
    assert '; [Variation "NackGammon"]' in files[0].data.decode()

    # The review: the expert replays the game from the Nackgammon start.
    assert "review" in final.tokens
    click = await env.fake.click(ben, final.message, final.custom_id("review"))
    response = await wait_review(env, click, "the review")
    page = review_page(response)
    assert "Review of game" in page.text and "PR" in page.text
    pictures = env.fake.attachments_png(response)
    assert pictures and all(decode_png(p)[0] > 100 for p in pictures)
    assert problems_in_log(env.bot) == []
