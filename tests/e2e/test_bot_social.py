"""Through the fake Discord: the leaderboard after a rated game, /stats, /verify of every roll,
a rematch with colours swapped, and claiming a win when the opponent's clock runs out (on the
bot's clock, moved by ``FakeDiscord.advance``)."""

from __future__ import annotations

import random

from bot import storage as store
from tests.driver.boards import read_board
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.members import answer, ephemeral_text, wait_ephemeral
from tests.driver.starts import start_by_challenge
from tests.driver.stored import game_row
from tests.driver.timeouts import STEP_TIMEOUT

pytestmark = module_marks(timeout=240)

TIMEOUT_SECONDS = 600  # moved past right after a click: under a token's 15 minutes


env = module_bot(
    "social", {"TURN_TIMEOUT_SECONDS": str(TIMEOUT_SECONDS), "CLOCK_SWEEP_SECONDS": "0.5"}
)


def embed_text(message: object) -> str:
    parts = []
    for embed in getattr(message, "embeds", []):
        parts += [embed.get("title", ""), embed.get("description", "")]
        parts += [f"{f.get('name')}: {f.get('value')}" for f in embed.get("fields", [])]
    return "\n".join(parts)


async def test_rated_game_feeds_leaderboard_stats_verify_and_rematch(env: BotEnv) -> None:
    ann, ben = await env.member("ann"), await env.member("ben")
    channel = await env.channel("social-games")
    table = await start_by_challenge(env, ann, [ben], channel, "ur")
    final = await table.play(random.Random(5))
    assert final.finished
    row = await game_row(env, final.game_id)
    assert row.status == store.GameStatus.FINISHED and row.rated
    # The final board reveals the seed; /verify recomputes every roll from it.
    assert row.dice_seed in final.message.text
    verify = await env.fake.slash(ann, "verify", {"game": final.game_id}, channel=channel)
    text = await wait_ephemeral(env, verify)
    assert "✅" in text and row.dice_seed in text, text

    board = await env.fake.slash(ann, "leaderboard", {"game": "ur"}, channel=channel)
    posted = (await answer(env, board)).original
    assert posted is not None
    shown = embed_text(posted)
    assert f"<@{ann.id}>" in shown and f"<@{ben.id}>" in shown, shown
    assert "provisional" in shown

    stats = await env.fake.slash(ben, "stats", {"user": ann}, channel=channel)
    response = await answer(env, stats)
    assert response.ephemeral
    assert "Royal Game of Ur" in embed_text(response.original), embed_text(response.original)

    # Rematch: the same two people, colours swapped, after the other accepts.
    assert "rematch" in final.tokens
    click = await env.fake.click(ben, final.message, final.custom_id("rematch"))
    invitation = (await answer(env, click)).original
    assert invitation is not None and f"<@{ann.id}>" in invitation.text
    accept = next(c for c in invitation.custom_ids() if c.endswith(":accept"))
    await answer(env, await env.fake.click(ann, invitation, accept))
    await env.fake.wait_for(lambda: "Challenge accepted" in invitation.text, STEP_TIMEOUT)
    games = await store.active_games_for_user(await env.db(), ann.id)
    assert len(games) == 1
    seats = {s.seat: s.user_id for s in games[0].seats}
    old = {s.seat: s.user_id for s in row.seats}
    assert seats == {0: old[1], 1: old[0]}


async def test_claiming_the_win_when_the_clock_runs_out(env: BotEnv) -> None:
    cat, dan = await env.member("cat"), await env.member("dan")
    channel = await env.channel("slow-games")
    table = await start_by_challenge(env, cat, [dan], channel, "backgammon", {"cube": "off"})
    board = await table.wait_turn()
    idle = table.player_on_turn(board)
    waiting = dan if idle.id == cat.id else cat
    assert "claim" not in board.tokens  # offered only once the clock has run out
    env.fake.advance(TIMEOUT_SECONDS + 1)
    notice = await env.fake.wait_for(
        lambda: [m for m in env.fake.messages(table.channel_id) if "ran out of time" in m.text],
        STEP_TIMEOUT,
        what="the time-out notice",
    )
    assert f"<@{idle.id}>" in notice[-1].text
    claimable = await env.fake.wait_for(
        lambda: (b := read_board(env.fake.message(board.message))) and "claim" in b.tokens and b,
        STEP_TIMEOUT,
        what="a Claim button",
    )
    claim = await env.fake.click(waiting, claimable.message, claimable.custom_id("claim"))
    await answer(env, claim)
    assert not ephemeral_text(env, claim)
    row = await game_row(env, board.game_id)
    assert row.status == store.GameStatus.FINISHED
    results = {r.user_id: r for r in await store.results_of_game(await env.db(), row.id)}
    assert results[waiting.id].place == 1 and results[waiting.id].reason == "timeout"
