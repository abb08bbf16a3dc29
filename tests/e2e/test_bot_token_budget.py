"""The bot token's budget: boards go back through the clicks' own interactions, and the bot
token is used only where no valid interaction exists, counted by the fake Discord with its
limits on.

A realistic mix (full games of the three games started by /play and by /challenge, a declined
challenge, refusals, a review, a restart in the middle) stays within 0.2 bot-token requests
per interaction, and while every player answers within the token's 15 minutes the clicks
themselves (and the AI's moves after them) cost the bot token nothing. An interaction token
that Discord no longer takes (aged past 15 minutes on the fake's clock) is given up for the
bot token, and the game goes on.
"""

from __future__ import annotations

import asyncio
import random
import time

from sandbox.fake_model import Interaction
from tests.driver.bots import BotEnv, module_bot, module_marks, settle_quietly
from tests.driver.members import answer, confirm_resign, wait_ephemeral
from tests.driver.player import Table
from tests.driver.reviews import wait_review
from tests.driver.starts import GAMES, start_by_challenge, start_by_play
from tests.driver.timeouts import STEP_TIMEOUT
from tests.driver.traffic import bot_token_requests, describe

pytestmark = module_marks(timeout=420, process=True)

TOKEN_LIFETIME = 15 * 60
env = module_bot("token-budget", process=True)


def interactions_since(env: BotEnv, since: float) -> list[Interaction]:
    return [i for i in env.fake.world.interactions.values() if i.created >= since]


async def play_quickly(tables: list[Table], seed: int) -> None:
    await asyncio.gather(*(table.play(random.Random(seed + i)) for i, table in enumerate(tables)))


async def test_a_realistic_mix_stays_within_the_budget(env: BotEnv) -> None:
    fake = env.fake
    began = asyncio.get_running_loop().time()
    start = time.monotonic()
    host = await env.member("mix-host")
    guests = [await env.member(f"mix-guest{i}") for i in range(2)]
    outsider = await env.member("mix-outsider")

    # A challenge declined, and one refused before it is sent.
    channel = await env.channel("mix-declined")
    command = await fake.slash(
        host, "challenge", {"game": "ur", "opponent": guests[0]}, channel=channel
    )
    invitation = await answer(env, command)
    assert invitation.original is not None
    decline = next(c for c in invitation.original.custom_ids() if c.endswith(":decline"))
    await answer(env, await fake.click(guests[0], invitation.original, decline))
    refused = await fake.slash(
        host,
        "challenge",
        {"game": "ur", "opponent": guests[0], "opponent2": guests[1]},
        channel=channel,
    )
    assert await wait_ephemeral(env, refused)

    # Six games: each game by /play and by /challenge, each in a thread of its own.
    tables = []
    for game in GAMES:
        tables.append(await start_by_play(env, host, await env.channel(f"mix-play-{game}"), game))
        invited = guests if game == "ludo" else guests[:1]
        tables.append(
            await start_by_challenge(env, host, invited, await env.channel(f"mix-ch-{game}"), game)
        )

    # From here on only clicks on boards (and the AI's answers to them): none through the
    # bot token while every player answers within the token's 15 minutes.
    await settle_quietly(env)
    clicks_from = time.monotonic()
    first_half = [t.play(random.Random(i), until_clicks=15) for i, t in enumerate(tables)]
    await asyncio.gather(*first_half)
    # Refusals: a click by someone not seated, and /hint where hints are off.
    board = tables[0].current()
    assert board is not None and board.tokens
    stranger = await tables[0].click(board, board.tokens[0], outsider)
    assert stranger.refusal
    hint = await fake.slash(host, "hint", channel=tables[0].channel_id)
    assert await wait_ephemeral(env, hint)
    await settle_quietly(env)
    spent = bot_token_requests(env, clicks_from)
    assert spent == [], describe(spent)

    # A restart in the middle of the games: the boards are current, nothing is redrawn.
    await env.restart()
    await play_quickly(tables, 100)
    for table in tables:
        final = table.current()
        assert final is not None and final.finished
    # A review of a finished game (Ludo's needs no engine of its own).
    finals = [(t, t.current()) for t in tables]
    ludo, final = next((t, b) for t, b in finals if b is not None and "review" in b.tokens)
    assert final is not None
    person = next(iter(ludo.players.values()))
    review = await fake.click(person, final.message, final.custom_id("review"))
    await wait_review(env, review, "a review")
    await settle_quietly(env)

    interactions = interactions_since(env, start)
    spent = bot_token_requests(env, start)
    ratio = len(spent) / len(interactions)
    print(
        f"realistic mix: {len(interactions)} interactions, {len(spent)} bot-token requests "
        f"({ratio:.3f} per interaction) in {asyncio.get_running_loop().time() - began:.0f} s: "
        f"{describe(spent)}"
    )
    assert ratio <= 0.2, describe(spent)
    report = fake.traffic.report()
    assert report.rate_limited.get("global", 0) == 0, report.describe()


async def test_a_challenge_played_in_its_channel_costs_the_bot_token_nothing(env: BotEnv) -> None:
    """Without threads the game lives in the invitation's channel: its first board is a
    followup of the Accept click, and every board after it goes through the clicks."""
    channel = await env.channel("budget-no-threads")
    await env.fake.set_permissions(channel, deny="create_public_threads")
    host, guest = await env.member("budget-host"), await env.member("budget-guest")
    since = time.monotonic()
    table = await start_by_challenge(env, host, [guest], channel, "ur")
    assert table.channel_id == channel.id
    await table.play(random.Random(4), until_clicks=8)
    await settle_quietly(env)
    # This channel's: a game an earlier test left to its AI seats spends in its own thread.
    spent = [r for r in bot_token_requests(env, since) if f"/{channel.id}/" in r.path]
    assert spent == [], describe(spent)


async def test_deferred_commands_are_answered_by_editing_their_response(env: BotEnv) -> None:
    """A command answered after a "thinking" defer edits that response (@original); Discord's
    docs call filling it with a first followup deprecated."""
    fake = env.fake
    player = await env.member("deferred-player")
    channel = await env.channel("deferred")
    table = await start_by_play(env, player, channel, "ur")
    commands = [
        await fake.slash(player, "play", {"game": "ludo"}, channel=channel),
        await fake.slash(player, "hint", channel=table.channel_id),  # refused: hints are off
        await fake.slash(player, "board", channel=table.channel_id),
    ]  # /resign is not deferred: it answers at once with its private question
    for command in commands:
        response = await answer(env, command)
        assert response.deferred and response.ephemeral, command.name
        assert response.text, command.name
        # Followups, if any, are boards in the channel (/board's), never the answer.
        followups = [fake.message(m) for m in command.followup_ids]
        assert not any(m.ephemeral for m in followups), f"/{command.name} answered by followup"


async def test_play_in_its_channel_costs_the_bot_token_nothing(env: BotEnv) -> None:
    """/play where no thread can be opened: the board is a followup of the command (after its
    own answer fills the "thinking" response), and the AI's moves edit it through it."""
    channel = await env.channel("budget-play-here")
    await env.fake.set_permissions(channel, deny="create_public_threads")
    player = await env.member("budget-player")
    since = time.monotonic()
    for game in ("ludo", "backgammon"):  # the AI may open either
        table = await start_by_play(env, player, channel, game)
        assert table.channel_id == channel.id
        await table.play(random.Random(6), until_clicks=6)
        await confirm_resign(env, player, channel.id)
        await env.fake.wait_for(
            lambda t=table: (b := t.current()) is not None and b.finished, STEP_TIMEOUT
        )
    await settle_quietly(env)
    # This channel's: a game an earlier test left to its AI seats spends in its own thread.
    spent = [r for r in bot_token_requests(env, since) if f"/{channel.id}/" in r.path]
    assert spent == [], describe(spent)
