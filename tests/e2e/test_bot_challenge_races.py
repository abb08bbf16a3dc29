"""Answering a challenge is an exactly-once transition, like a move: clicks that race each
other (Accept three times, Accept with Decline, /challenge or Rematch sent twice at once) start
one game in one thread, or leave one invitation; every other click is told the invitation was
already answered. A SIGKILL at any step between the acceptance and the first board leaves a
challenge that the restarted bot finishes starting, never one stuck half-way."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot import storage as store
from bot.service.challenges import Challenge
from bot.service.live import LiveGame
from bot.service.models import Game
from sandbox.fake_model import Channel, Message, User
from tests.driver.boards import Board
from tests.driver.bots import BotEnv, module_bot, module_marks, running_bot, start_and_wait_ready
from tests.driver.in_process import BotInProcess
from tests.driver.members import answer, confirm_resign, ephemeral_text, parse_link, wait_ephemeral
from tests.driver.player import Table
from tests.driver.starts import start_by_challenge, start_by_play
from tests.driver.timeouts import STEP_TIMEOUT

pytestmark = module_marks(timeout=180)

ALREADY_ANSWERED = "already answered"
INVITATION = "challenges you to"
CRASH_POINTS = (
    "challenge.accepted",  # the acceptance is committed; no thread, no game
    "challenge.thread_created",  # the thread exists, empty; no game
    "challenge.game_created",  # the game is stored; the invitation still has its buttons
    "challenge.announced",  # the invitation says accepted; no board yet
)


env = module_bot("challenge-races")


# ------------------------------------------------------------------------------ helpers


async def invite(env: BotEnv, challenger: User, invitee: User, channel: Channel) -> Message:
    command = await env.fake.slash(
        challenger, "challenge", {"game": "ur", "opponent": invitee}, channel=channel
    )
    response = await answer(env, command)
    assert not response.ephemeral, ephemeral_text(env, command)
    assert response.original is not None
    return response.original


def button(message: Message, token: str) -> str:
    return next(c for c in message.custom_ids() if c.endswith(f":{token}"))


def challenge_id(custom_id: str) -> int:
    return int(custom_id.split(":")[2])


async def challenge_row(env: BotEnv, custom_id: str) -> store.ChallengeRow:
    row = await store.load_challenge(await env.db(), challenge_id(custom_id))
    assert row is not None
    return row


async def games_of(env: BotEnv, user: User) -> list[store.GameRow]:
    return await store.active_games_for_user(await env.db(), user.id)


def invitations(env: BotEnv, channel_id: int) -> list[Message]:
    return [m for m in env.fake.messages(channel_id) if INVITATION in m.text]


async def check_started_once(
    env: BotEnv, invitation: Message, channel: Channel, players: Sequence[User], accept: str
) -> Board:
    """One game, in one thread started from the invitation, showing its first board; the
    invitation says so and has no buttons left; the challenge is stored as accepted by it."""
    await env.fake.wait_for(
        lambda: "Challenge accepted" in env.fake.message(invitation).text,
        STEP_TIMEOUT,
        what="the invitation to say the game is on",
    )
    message = env.fake.message(invitation)
    assert message.custom_ids() == []
    threads = env.fake.threads(channel)
    assert [t.id for t in threads] == [invitation.id], "one thread, started from the invitation"
    assert parse_link(message.text)[0] == invitation.id
    table = Table(env, invitation.id, players)
    board = await table.wait_turn()
    assert len({b.message.id for b in table.boards()}) == 1, "one first board"
    for player in players:
        (game,) = await games_of(env, player)
        assert game.id == board.game_id and game.channel_id == invitation.id
    row = await challenge_row(env, accept)
    assert (row.status, row.game_id) == (store.ChallengeStatus.ACCEPTED, board.game_id)
    return board


async def finished_game(env: BotEnv, table: Table, loser: User) -> Board:
    """Resign for ``loser``; the final board, with its Rematch button."""
    assert "resigned" in await confirm_resign(env, loser, table.channel_id)

    def final() -> Board | None:
        board = table.current()
        return board if board is not None and board.finished and board.tokens else None

    board = await env.fake.wait_for(final, STEP_TIMEOUT, what="the final board")
    assert board is not None and "rematch" in board.tokens
    return board


# ------------------------------------------------------------------------------ crashes


@pytest.mark.processes
@pytest.mark.parametrize("point", CRASH_POINTS)
async def test_a_crash_between_accept_and_the_first_board_is_finished_at_restart(
    tmp_path: Path, point: str
) -> None:
    async with running_bot(tmp_path, {"TABULA_CRASH_AT": point}, process=True) as env:
        ann, ben = await env.member("ann"), await env.member("ben")
        channel = await env.channel("crash")
        invitation = await invite(env, ann, ben, channel)
        accept = button(invitation, "accept")
        await env.fake.click(ben, invitation, accept)
        await env.fake.wait_for(
            lambda: not env.bot.running, STEP_TIMEOUT, what=f"the crash at {point}"
        )
        assert env.bot.returncode == -9
        del env.bot.extra_env["TABULA_CRASH_AT"]
        await start_and_wait_ready(env.bot)

        await check_started_once(env, invitation, channel, [ann, ben], accept)
        # A client still showing the old buttons is told the invitation was answered.
        late = await env.fake.click_stale(ben, invitation, accept)
        assert ALREADY_ANSWERED in await wait_ephemeral(env, late)


# ------------------------------------------------------------------------------ races


async def test_accept_clicked_three_times_at_once_starts_one_game(env: BotEnv) -> None:
    ann, ben = await env.member("ann"), await env.member("ben")
    channel = await env.channel("accept-thrice")
    invitation = await invite(env, ann, ben, channel)
    accept = button(invitation, "accept")
    clicks = [await env.fake.click(ben, invitation, accept) for _ in range(3)]
    for click in clicks:
        await answer(env, click)
    await check_started_once(env, invitation, channel, [ann, ben], accept)
    replies = [ephemeral_text(env, click) for click in clicks]
    assert sorted(bool(r) for r in replies) == [False, True, True], replies
    assert all(ALREADY_ANSWERED in r for r in replies if r), replies


@pytest.mark.parametrize("first", ["accept", "decline"])
async def test_accept_and_decline_at_once_exactly_one_wins(env: BotEnv, first: str) -> None:
    ann, ben = await env.member(f"ann-{first}"), await env.member(f"ben-{first}")
    channel = await env.channel(f"accept-decline-{first}")
    invitation = await invite(env, ann, ben, channel)
    accept = button(invitation, "accept")
    order = [first, "decline" if first == "accept" else "accept"]
    clicks = {t: await env.fake.click(ben, invitation, button(invitation, t)) for t in order}
    for click in clicks.values():
        await answer(env, click)
    replies = {token: ephemeral_text(env, click) for token, click in clicks.items()}
    if "declined" in env.fake.message(invitation).text:
        assert env.fake.threads(channel) == [], "a thread for a declined challenge"
        assert await games_of(env, ben) == []
        assert (await challenge_row(env, accept)).status == store.ChallengeStatus.DECLINED
        assert ALREADY_ANSWERED in replies["accept"] and not replies["decline"], replies
    else:
        assert ALREADY_ANSWERED in replies["decline"] and not replies["accept"], replies
        await check_started_once(env, invitation, channel, [ann, ben], accept)


async def test_challenge_sent_three_times_at_once_leaves_one_invitation(env: BotEnv) -> None:
    ann, ben = await env.member("ann-thrice"), await env.member("ben-thrice")
    channel = await env.channel("challenge-thrice")
    commands = [
        await env.fake.slash(ann, "challenge", {"game": "ur", "opponent": ben}, channel=channel)
        for _ in range(3)
    ]
    responses = [await answer(env, command) for command in commands]
    assert sorted(r.ephemeral for r in responses) == [False, True, True]
    for command, response in zip(commands, responses, strict=True):
        if response.ephemeral:
            assert "already have an invitation waiting" in ephemeral_text(env, command)
    assert len(invitations(env, channel.id)) == 1
    rows = await (await env.db()).read(
        lambda tx: tx.fetchall("SELECT status FROM challenges WHERE challenger_id = ?", (ann.id,))
    )
    assert [r[0] for r in rows] == ["pending"]


async def rematch_clicks(env: BotEnv, final: Board, users: Sequence[User]) -> list[str]:
    """Everyone in ``users`` clicks Rematch on ``final`` at once; their private replies."""
    clicks = [await env.fake.click(u, final.message, final.custom_id("rematch")) for u in users]
    for click in clicks:
        # A rematch against the AI is acknowledged with a deferred update, answered by the
        # new board; a refusal is a private message.
        await env.fake.response_of(click, settled=False)
    return [ephemeral_text(env, click) for click in clicks]


@pytest.mark.parametrize("both", [False, True], ids=["same-player-twice", "both-players"])
async def test_rematch_clicked_twice_at_once_offers_one_rematch(env: BotEnv, both: bool) -> None:
    tag = "both" if both else "twice"
    ann, ben = await env.member(f"ann-re-{tag}"), await env.member(f"ben-re-{tag}")
    channel = await env.channel(f"rematch-{tag}")
    table = await start_by_challenge(env, ann, [ben], channel, "ur")
    final = await finished_game(env, table, ann)
    replies = await rematch_clicks(env, final, [ann, ben] if both else [ann, ann])
    assert sorted(bool(r) for r in replies) == [False, True], replies
    assert "rematch of this game" in next(r for r in replies if r), replies
    (offer,) = invitations(env, table.channel_id)
    db = await env.db()
    rows = await db.read(
        lambda tx: tx.fetchall(
            "SELECT id FROM challenges WHERE status = 'pending' AND challenger_id IN (?, ?)",
            (ann.id, ben.id),
        )
    )
    assert [r[0] for r in rows] == [challenge_id(button(offer, "accept"))]

    # The one invitation still works: the other player accepts and the rematch is on.
    invitee = ben if f"<@{ben.id}>" in offer.text.split(INVITATION)[0] else ann
    await answer(env, await env.fake.click(invitee, offer, button(offer, "accept")))
    await env.fake.wait_for(
        lambda: "Challenge accepted" in env.fake.message(offer).text, STEP_TIMEOUT
    )
    (game,) = await games_of(env, ann)
    assert game.id != final.game_id


async def test_rematch_against_the_ai_clicked_twice_at_once_starts_one_game(
    env: BotEnv,
) -> None:
    cat = await env.member("cat-re")
    channel = await env.channel("rematch-ai")
    table = await start_by_play(env, cat, channel, "ur")
    final = await finished_game(env, table, cat)
    replies = await rematch_clicks(env, final, [cat, cat])
    assert sorted(bool(r) for r in replies) == [False, True], replies
    assert "rematch of this game" in next(r for r in replies if r), replies
    table.game_id = None  # read the boards of every game in the thread
    await env.fake.wait_for(
        lambda: any(b.game_id != final.game_id for b in table.boards()),
        STEP_TIMEOUT,
        what="the rematch's board",
    )
    (game,) = await games_of(env, cat)
    assert game.id != final.game_id
    assert len(env.fake.threads(channel)) == 1
    assert len({b.game_id for b in table.boards()}) == 2


async def test_a_start_that_fails_leaves_the_challenge_answerable(env: BotEnv) -> None:
    """Without thread permission the game needs the channel; while another game holds it the
    Accept is refused as busy, and once the channel is free the same Accept starts the game."""
    ann, ben, cat = [await env.member(n) for n in ("ann-busy", "ben-busy", "cat-busy")]
    channel = await env.channel("busy")
    await env.fake.set_permissions(channel, deny="create_public_threads")
    invitation = await invite(env, ann, ben, channel)
    accept = button(invitation, "accept")
    blocker = await start_by_play(env, cat, channel, "ur")
    assert blocker.channel_id == channel.id

    refused = await env.fake.click(ben, invitation, accept)
    assert "already has a game" in await wait_ephemeral(env, refused)
    assert (await challenge_row(env, accept)).status == store.ChallengeStatus.PENDING
    assert button(env.fake.message(invitation), "accept") == accept

    assert "resigned" in await confirm_resign(env, cat, channel.id)
    again = await env.fake.click(ben, invitation, accept)
    await answer(env, again)
    assert not ephemeral_text(env, again)
    await env.fake.wait_for(
        lambda: "Challenge accepted" in env.fake.message(invitation).text, STEP_TIMEOUT
    )
    (game,) = await games_of(env, ben)
    assert game.channel_id == channel.id
    assert (await challenge_row(env, accept)).game_id == game.id


async def test_a_start_up_redraw_during_a_start_leaves_one_first_board(env: BotEnv) -> None:
    """The start-up's redraw sees a stored game without a board. Run while a start is between
    storing its game and showing it (here: while the invitation is edited), it waits for the
    start's own board instead of posting a second one under it, whose first board's buttons
    would be refused as stale."""
    assert isinstance(env.bot, BotInProcess)
    client = env.bot.client
    assert client is not None
    starts, driver = client.challenges.starts, client.driver
    announce = starts.announce_on
    held: list[bool] = []
    redraws: list[asyncio.Task[None]] = []

    owners = driver.live
    own_get = owners.get
    asked: set[str] = set()  # games whose owner a task other than their start asked for
    starting: dict[str, asyncio.Task[Any] | None] = {}

    def get(game_id: str) -> LiveGame:
        if game_id in starting and asyncio.current_task() is not starting[game_id]:
            asked.add(game_id)
        return own_get(game_id)

    async def announce_with_a_redraw(
        challenge: Challenge, game: Game, locale: str | None, interaction: Any = None
    ) -> None:
        owner = own_get(game.id)
        held.append(owner.board.locked())
        starting[game.id] = asyncio.current_task()
        redraw = asyncio.create_task(driver.recover())
        redraws.append(redraw)
        # Until the redraw is over, or waits for the board lock this start holds (it asked
        # for the game's owner, whose lock is taken): then the start goes on.
        await env.fake.wait_for(
            lambda: redraw.done() or (game.id in asked and owner.board.locked()),
            STEP_TIMEOUT,
            what="the redraw to reach the new game",
        )
        await announce(challenge, game, locale, interaction)

    starts.announce_on = announce_with_a_redraw  # type: ignore[method-assign]
    owners.get = get  # type: ignore[method-assign]
    try:
        ann, ben = await env.member("ann-redraw"), await env.member("ben-redraw")
        channel = await env.channel("redraw")
        invitation = await invite(env, ann, ben, channel)
        accept = button(invitation, "accept")
        await answer(env, await env.fake.click(ben, invitation, accept))
        board = await check_started_once(env, invitation, channel, [ann, ben], accept)
        (redraw,) = redraws
        await asyncio.wait_for(redraw, STEP_TIMEOUT)
    finally:
        del starts.announce_on, owners.get
    assert held == [True], "the new game's board lock is held while its invitation is edited"
    table = Table(env, invitation.id, [ann, ben])
    assert [b.message.id for b in table.boards()] == [board.message.id], "one first board"
    click = await table.click(board, table.choose(board, random.Random(1)))
    assert click.refusal is None, click.refusal
