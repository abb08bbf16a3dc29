"""No engine on a live rated position, through the real bot and the fake Discord: in a rated
backgammon match between two people, the position on the board, pasted as a GNU ID and as an
XGID into /analyze by either player and by a third member, is refused privately within 3 s,
and Share position and /export give nothing; once the match is over the same IDs are
answered. An unrated game's are answered as they always were. A SIGKILL mid-match forgets
none of it. A review card whose position stands on a live rated board is held back until
that game ends."""

from __future__ import annotations

import random

from bot import games
from bot import storage as store
from bot.service.review import ReviewService
from sandbox.fake_model import User
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.members import answer, confirm_resign, wait_ephemeral
from tests.driver.player import Table
from tests.driver.reviews import ReviewPage, review_page, wait_review
from tests.e2e.live_rated import (
    answered,
    ids_on_board,
    match_under_way,
    refused_everywhere,
    share_given,
    share_refused,
)

pytestmark = module_marks(timeout=300, process=True)

env = module_bot("live-rated", {"EXPERT_WORKERS": "1"}, process=True)  # reviews need the expert


async def test_a_rated_match_is_closed_to_the_engine_until_it_ends(env: BotEnv) -> None:
    ann, bob, cleo = [await env.member(n) for n in ("ann", "bob", "cleo")]
    lobby = await env.channel("lobby")
    table, board = await match_under_way(
        env, ann, bob, await env.channel("rated"), rated=True, seed=1
    )
    ids = await ids_on_board(env, board)
    await refused_everywhere(env, [ann, bob], ids, table.channel_id)  # in the game's thread
    await refused_everywhere(env, [cleo], ids, lobby)  # and anyone, anywhere
    german = await env.fake.slash(cleo, "analyze", {"position": ids.xgid}, locale="de")
    assert "laufenden gewerteten Partie" in await wait_ephemeral(env, german)
    await share_refused(env, table, board, [ann, cleo])
    exported = await env.fake.slash(bob, "export", {"game": board.game_id}, channel=lobby)
    assert "its record is given when it ends" in await wait_ephemeral(env, exported)

    assert "resigned" in await confirm_resign(env, ann, table.channel_id)
    exported = await env.fake.slash(bob, "export", {"game": board.game_id}, channel=lobby)
    reply = await answer(env, exported)
    files = [a for m in (reply.original, *reply.followups) if m for a in m.attachments]
    assert [f.filename for f in files] == [f"tabula-backgammon-{board.game_id}.mat"]
    for user, text in ((ann, ids.gnubg), (bob, ids.xgid), (cleo, ids.gnubg)):
        await answered(env, user, text, lobby)
    final = table.current()
    assert final is not None and final.finished and "share" in final.tokens
    await share_given(table, final, cleo, await ids_on_board(env, final))


async def test_an_unrated_games_position_is_answered_as_before(env: BotEnv) -> None:
    dan, eve = await env.member("dan"), await env.member("eve")
    table, board = await match_under_way(
        env, dan, eve, await env.channel("practice"), rated=False, seed=2
    )
    ids = await ids_on_board(env, board)
    await answered(env, dan, ids.gnubg, table.channel_id)
    await answered(env, eve, ids.xgid, table.channel_id)
    await share_given(table, board, dan, ids)
    assert "resigned" in await confirm_resign(env, dan, table.channel_id)


async def test_a_sigkill_mid_match_forgets_nothing(env: BotEnv) -> None:
    fay, gus, hal = [await env.member(n) for n in ("fay", "gus", "hal")]
    lobby = await env.channel("lobby2")
    table, board = await match_under_way(
        env, fay, gus, await env.channel("killed"), rated=True, seed=3
    )
    ids = await ids_on_board(env, board)
    await env.restart(kill=True)
    await refused_everywhere(env, [fay, gus, hal], ids, lobby)
    await share_refused(env, table, board, [hal])
    # The match goes on after the restart: the next position is refused, the last one is
    # free again (it stands on no live board any more).
    moved = await table.play(random.Random(4), until_clicks=2)
    assert not moved.finished and moved.version > board.version
    now = await ids_on_board(env, moved)
    await refused_everywhere(env, [hal], now, lobby)
    assert "resigned" in await confirm_resign(env, gus, table.channel_id)
    await answered(env, hal, now.xgid, lobby)
    await answered(env, hal, ids.gnubg, lobby)


async def review_cards(env: BotEnv, table: Table, user: User) -> ReviewPage:
    final = table.current()
    assert final is not None and final.finished and "review" in final.tokens
    click = await env.fake.click(user, final.message, final.custom_id("review"))
    return review_page(await wait_review(env, click, "the review"))


async def test_a_review_card_on_a_live_rated_board_is_held_back(env: BotEnv) -> None:
    ivy, jay, kim, lee = [await env.member(n) for n in ("ivy", "jay", "kim", "lee")]
    table, _ = await match_under_way(
        env, ivy, jay, await env.channel("reviewed"), rated=True, seed=6
    )
    if not (await table.play(random.Random(6), until_clicks=10)).finished:
        assert "resigned" in await confirm_resign(env, ivy, table.channel_id)
    shown = await review_cards(env, table, jay)
    cards = len(shown.descriptions) - 1
    assert cards >= 1 and "held back" not in shown.text

    # Another rated match comes to stand on the first card's position: the test moves its
    # entry in the index there, as that match's commit would.
    live, _ = await match_under_way(env, kim, lee, await env.channel("live"), rated=True, seed=7)
    db = await env.db()
    assert table.game_id is not None and live.game_id is not None
    review = await ReviewService(db, None).cached(table.game_id)
    assert review is not None
    worst = sorted((d for p in review.players for d in p.worst), key=lambda d: -d.loss_mp)
    state = await ReviewService(db, None).state_before(table.game_id, worst[0].index)
    tools = games.get("backgammon").positions
    assert tools is not None
    key = tools.key(state)
    await db.write(
        lambda tx: tx.execute(
            "UPDATE live_positions SET position_key = ? WHERE game_id = ?", (key, live.game_id)
        )
    )
    assert await store.live_position_holders(db, ["backgammon"], key) == [live.game_id]
    held = await review_cards(env, table, jay)
    assert "Cards held back: 1." in held.text, held.text
    assert len(held.descriptions) - 1 == cards - 1
    numbered = [f"Card {n}, " for n in range(1, cards)]  # the cards shown, numbered afresh
    assert [c[: len(n)] for c, n in zip(held.descriptions[1:], numbered, strict=True)] == numbered

    assert "resigned" in await confirm_resign(env, kim, live.channel_id)
    again = await review_cards(env, table, jay)
    assert len(again.descriptions) - 1 == cards and "held back" not in again.text
