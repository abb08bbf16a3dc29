"""Clicks and commands the bot must refuse: each gets a clear private reply and changes
nothing in the database."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
import pytest_asyncio

from bot import storage as store
from sandbox.fake_model import Interaction, User
from tests.driver.bots import BotEnv, module_marks, running_bot
from tests.driver.forging import fabricate_bot_message, old_buttons_shown
from tests.driver.members import ack_seconds, answer, wait_ephemeral
from tests.driver.player import Table, board_history, superseded_boards
from tests.driver.starts import start_by_challenge, start_by_play
from tests.driver.timeouts import ACK_LIMIT
from tests.storage.helpers import pending_challenges

pytestmark = module_marks(timeout=90)


@dataclass
class Scene:
    env: BotEnv
    duel: Table  # alice vs bob, by challenge
    solo: Table  # carol vs the AI, by /play
    stranger: User


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def scene(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Scene]:
    async with running_bot(tmp_path_factory.mktemp("bad-input")) as env:
        alice, bob = await env.member("alice"), await env.member("bob")
        duel = await start_by_challenge(env, alice, [bob], await env.channel("duel"), "ur")
        # A few turns, so that older boards (with their buttons stripped) exist: a turn that
        # stays with its player (a rosette, a roll of 0 for the other) keeps its board.
        rng = random.Random(1)
        board = await duel.play(rng, until_clicks=6)
        while not superseded_boards(duel, board):
            board = await duel.play(rng, until_clicks=1)
        solo = await start_by_play(env, await env.member("carol"), await env.channel("solo"), "ur")
        yield Scene(env, duel, solo, await env.member("dave"))


async def world_state(env: BotEnv) -> tuple[Any, ...]:
    """Everything a refused input must leave alone: games, their logs, challenges."""
    db = await env.db()
    games = await store.active_games(db)
    logs = [len(await store.load_actions(db, g.id)) for g in games]
    pending = await pending_challenges(db)
    return (
        [(g.id, g.version, g.action_count, g.status, g.draft_json, g.message_id) for g in games],
        logs,
        [(c.id, c.status, c.accepted_ids) for c in pending],
    )


async def refused(env: BotEnv, interaction: Interaction, *expected: str) -> str:
    text = await wait_ephemeral(env, interaction)
    for words in expected:
        assert words in text, text
    assert ack_seconds(interaction) < ACK_LIMIT
    return text


async def test_click_by_someone_not_in_the_game(scene: Scene) -> None:
    env, duel = scene.env, scene.duel
    board = await duel.wait_turn(duel.last_version())
    before = await world_state(env)
    click = await duel.click(board, board.tokens[0], user=scene.stranger)
    assert click.refusal is not None and "not playing in this game" in click.refusal
    assert await world_state(env) == before
    assert duel.current() == board


async def test_click_by_the_player_not_on_turn(scene: Scene) -> None:
    env, duel = scene.env, scene.duel
    board = await duel.wait_turn(duel.last_version())
    waiting = next(u for u in duel.players.values() if u != duel.player_on_turn(board))
    before = await world_state(env)
    click = await duel.click(board, board.tokens[0], user=waiting)
    assert click.refusal is not None and "not your turn" in click.refusal
    assert f"{board.on_turn} is to play" in click.refusal
    assert await world_state(env) == before


async def test_click_on_an_out_of_date_board(scene: Scene) -> None:
    env, duel = scene.env, scene.duel
    board = await duel.wait_turn(duel.last_version())
    superseded = superseded_boards(duel, board)
    assert superseded, board_history(duel)
    older = superseded[-1]
    before = await world_state(env)
    with old_buttons_shown(older) as old_ids:
        interaction = await env.fake.click(duel.player_on_turn(board), older, old_ids[0])
    await refused(env, interaction, "out of date", "newest board")
    assert await world_state(env) == before


@pytest.mark.parametrize(
    ("forged", "expected"),
    [
        ("tabula:zz", "do not recognise that button"),
        ("foo:bar", "do not recognise that button"),
        ("tabula:0123abcd:0:roll", "no game"),
        ("tabula:ch:999999:accept", "no longer exists"),
        ("tabula:{solo}:{solo_version}:roll", "another channel"),
    ],
)
async def test_forged_button(scene: Scene, forged: str, expected: str) -> None:
    """Buttons the bot never made, in a message in the duel's channel: clicked by carol, who
    plays the solo game (so the other channel's button would be hers if it were there)."""
    env = scene.env
    solo = await scene.solo.wait_turn(scene.solo.last_version())
    custom_id = forged.format(solo=solo.game_id, solo_version=solo.version)
    channel = env.fake.world.channels[scene.duel.channel_id]
    message = fabricate_bot_message(env, channel, [custom_id])
    before = await world_state(env)
    interaction = await env.fake.click(scene.solo.players["carol"], message, custom_id)
    await refused(env, interaction, expected)
    assert await world_state(env) == before


async def challenge(env: BotEnv, user: User, options: dict[str, Any]) -> Interaction:
    channel = env.fake.channel_named("general")
    return await env.fake.slash(user, "challenge", {"game": "ur", **options}, channel=channel)


async def test_challenge_yourself(scene: Scene) -> None:
    env = scene.env
    erin = await env.member("erin")
    before = await world_state(env)
    await refused(env, await challenge(env, erin, {"opponent": erin}), "cannot challenge yourself")
    assert await world_state(env) == before


@pytest.mark.parametrize("which", ["other bot", "Tabula itself"])
async def test_challenge_a_bot(scene: Scene, which: str) -> None:
    env = scene.env
    erin = await env.member("erin")
    bot = env.fake.other_bot if which == "other bot" else env.fake.bot_user
    before = await world_state(env)
    await refused(env, await challenge(env, erin, {"opponent": bot}), "is a bot")
    assert await world_state(env) == before


async def test_challenge_someone_twice(scene: Scene) -> None:
    env = scene.env
    erin, frank = await env.member("erin"), await env.member("frank")
    first = await challenge(env, erin, {"opponent": frank})
    invitation = await answer(env, first)
    assert not invitation.ephemeral and f"<@{frank.id}>" in invitation.text
    before = await world_state(env)
    again = await challenge(env, erin, {"opponent": frank})
    await refused(env, again, "already have an invitation waiting for frank")
    assert await world_state(env) == before

    # Someone else (not invited) cannot accept it for frank.
    assert invitation.original is not None
    accept = next(c for c in invitation.original.custom_ids() if c.endswith(":accept"))
    click = await env.fake.click(scene.stranger, invitation.original, accept)
    await refused(env, click, "not addressed to you")
    assert await world_state(env) == before
    # Erin's Accept on her own invitation: she is told to wait for frank.
    own = await env.fake.click(erin, invitation.original, accept)
    await refused(env, own, f"your own invitation: wait for <@{frank.id}> to accept it")
    assert await world_state(env) == before


@pytest.mark.parametrize(
    ("game", "second", "reason"),
    [("ludo", "hal", "named twice"), ("ur", "ivy", "Royal Game of Ur has 2 seats")],
    ids=["one-person-named-twice", "extra-opponents-only-where-there-are-seats"],
)
async def test_challenge_with_a_second_opponent(
    scene: Scene, game: str, second: str, reason: str
) -> None:
    env = scene.env
    gina, hal, other = [await env.member(n) for n in ("gina", "hal", second)]
    before = await world_state(env)
    command = await env.fake.slash(
        gina,
        "challenge",
        {"game": game, "opponent": hal, "opponent2": other},
        channel=env.fake.channel_named("general"),
    )
    await refused(env, command, reason)
    assert await world_state(env) == before
