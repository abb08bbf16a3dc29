"""How a test gets a game going: ``/play`` against the AI, or ``/challenge`` accepted by every
invitee; each gives the :class:`~tests.driver.player.Table` at the game's first board."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sandbox.fake_model import Channel, User
from tests.driver.boards import Board
from tests.driver.bots import BotEnv
from tests.driver.members import answer, confirm_resign, ephemeral_text, parse_link, wait_ephemeral
from tests.driver.player import Table
from tests.driver.stored import game_row
from tests.driver.timeouts import STEP_TIMEOUT, STUCK_START_SECONDS

GAMES = ("ur", "ludo", "backgammon")  # the built-in games, quickest to play first


async def start_by_play(
    env: BotEnv,
    user: User,
    channel: Channel,
    game: str,
    *,
    difficulty: str = "easy",
    retry_stuck_start: bool = False,
    tutor: bool = False,
) -> Table:
    """``/play`` against the AI at ``difficulty``; returns the table in the game's thread (or
    channel) at its first board.

    ``retry_stuck_start``: when the AI should move first but does not (test_bot_ai_start.py
    is about that), resign that game and start another, so a test about something else can
    go on regardless. ``tutor``: with ``tutor:on`` (tutor mode).
    """
    options = {"game": game, "difficulty": difficulty} | ({"tutor": "on"} if tutor else {})
    for _ in range(12):
        interaction = await env.fake.slash(user, "play", options, channel=channel)
        response = await answer(env, interaction)
        assert response.ephemeral, response
        assert "ready" in response.text or "bereit" in response.text, response.text
        channel_id, _ = parse_link(response.text)
        table = Table(env, channel_id, [user])
        if not retry_stuck_start:
            await table.wait_turn()
            return table
        try:
            await table.wait_turn(timeout=STUCK_START_SECONDS)
            return table
        except TimeoutError:
            assert "resigned" in await confirm_resign(env, user, channel_id)
    raise AssertionError(f"no {game} game got going in 12 tries")


async def new_table(env: BotEnv, game: str, name: str) -> Table:
    """Member ``name`` against the AI at ``game`` (``/play``), from a new channel ``name``."""
    return await start_by_play(env, await env.member(name), await env.channel(name), game)


async def start_by_challenge(
    env: BotEnv,
    challenger: User,
    invitees: Sequence[User],
    channel: Channel,
    game: str,
    options: Mapping[str, Any] | None = None,
) -> Table:
    """``/challenge`` and Accept by every invitee; the table at the game's first board."""
    names = ("opponent", "opponent2", "opponent3")
    chosen: dict[str, Any] = {"game": game, **(options or {})}
    chosen.update({names[i]: user for i, user in enumerate(invitees)})
    command = await env.fake.slash(challenger, "challenge", chosen, channel=channel)
    invitation = await answer(env, command)
    assert not invitation.ephemeral, ephemeral_text(env, command)
    message = invitation.original
    assert message is not None
    for user in invitees:
        assert f"<@{user.id}>" in message.text
    accept = next(c for c in message.custom_ids() if c.endswith(":accept"))
    for index, user in enumerate(invitees):
        click = await env.fake.click(user, message, accept)
        await answer(env, click)
        if index < len(invitees) - 1:
            assert "Accepted" in await wait_ephemeral(env, click)
            # Nobody plays before everyone invited has accepted.
            assert not env.fake.threads(channel)
            assert "Challenge accepted" not in message.text
    await env.fake.wait_for(lambda: "Challenge accepted" in message.text, STEP_TIMEOUT)
    channel_id, _ = parse_link(message.text)
    table = Table(env, channel_id, [challenger, *invitees])
    await table.wait_turn()
    return table


async def first_hint(env: BotEnv, game: str, channel_name: str) -> tuple[Table, Board, str]:
    """A game of ``game`` between fay and gus, who both agreed to hints, and the answer to
    /hint of the one on turn; checks that the other is refused (not their turn) and that the
    game is not rated."""
    fay, gus = await env.member("fay"), await env.member("gus")
    channel = await env.channel(channel_name)
    table = await start_by_challenge(env, fay, [gus], channel, game, {"hints": "on"})
    board = await table.wait_turn()
    on_turn = table.player_on_turn(board)
    other = gus if on_turn.id == fay.id else fay
    asked = await env.fake.slash(on_turn, "hint", channel=table.channel_id)
    text = await wait_ephemeral(env, asked, STEP_TIMEOUT * 2)
    refused = await env.fake.slash(other, "hint", channel=table.channel_id)
    assert "not your turn" in (await wait_ephemeral(env, refused)).lower()
    assert not (await game_row(env, board.game_id)).rated
    return table, board, text
