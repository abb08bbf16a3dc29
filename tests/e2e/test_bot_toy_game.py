"""A fourth game defined only in the tests (``tests/toy_game``) in the real bot process: named in
``TABULA_EXTRA_GAMES``, it is offered by the slash commands, played to its end with /play
through the fake Discord (its own seat colours, phase and sentences on its boards), exported,
and offered or withdrawn by /settings like the others."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot import games
from sandbox.fake_model import Perm
from tests.driver.boards import as_shown
from tests.driver.bots import BotEnv, module_marks, running_bot
from tests.driver.log_check import check_finished
from tests.driver.members import answer, ephemeral_text, wait_ephemeral
from tests.driver.starts import start_by_play
from tests.driver.stored import action_log
from tests.toy_game import GAME as TOY_GAME

pytestmark = module_marks(timeout=180, process=True)

TOY = TOY_GAME.kind


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    extra = {"TABULA_EXTRA_GAMES": "tests.toy_game"}
    games.register(TOY_GAME)  # here too: the helpers replay the stored log to check it
    try:
        async with running_bot(tmp_path_factory.mktemp("toy-game"), extra, process=True) as bot_env:
            yield bot_env
    finally:
        games.unregister(TOY)


def built_in() -> list[str]:
    """The built-in games, in the order the registry lists them."""
    return [kind for kind in games.kinds() if kind != TOY]


def choices(env: BotEnv, command: str) -> list[str]:
    """The values the synced ``command`` offers for its ``game`` option."""
    synced = next(c for c in env.fake.commands() if c.name == command)
    option = next(o for o in synced.body["options"] if o["name"] == "game")
    return [choice["value"] for choice in option["choices"]]


async def test_every_game_command_offers_the_toy_game_after_the_built_in_ones(
    env: BotEnv,
) -> None:
    for command in ("rules", "leaderboard", "settings"):
        assert choices(env, command) == [*built_in(), TOY], command
    # The commands that start a game here suggest the games the server offers instead.
    player = await env.member("toy-chooser")
    for command in ("challenge", "play"):
        asked = await env.fake.autocomplete(player, command, {"game": ""}, "game")
        await env.fake.response_of(asked)
        offered = [choice["value"] for choice in asked.callback_data["choices"]]
        assert offered == [*built_in(), TOY], command


async def test_the_toy_game_is_played_to_its_end_with_play(env: BotEnv) -> None:
    player = await env.member("toy-player")
    table = await start_by_play(env, player, await env.channel("toy-play"), TOY)
    # The game's own colours and its own phase, in its own words, before the first roll.
    first = await table.wait_turn()
    shown_first = as_shown(first.message.text)  # names as Discord shows them
    assert "**Toy Race** · toy-player (teal) vs Tabula AI, easy (coral)" in shown_first
    assert "➡️ toy-player (teal): choose who rolls first" in shown_first
    assert first.tokens[:2] == ("first", "second")
    chosen = await table.click(first, "first")
    assert chosen.refusal is None
    await table.wait_turn(chosen.version)
    # The choice is the game's own kind of action in the log, and its line was on a board
    # (the one the click drew; later turns may have been drawn on it since).
    assert table.game_id is not None
    log = await action_log(env, table.game_id)
    assert (log[0].kind, log[0].notation, log[0].user_id) == ("choice", "lead 0", player.id)
    shown = [
        as_shown(str(text))
        for message in env.fake.messages(table.channel_id)
        for text in (message.text, *message.versions)
    ]
    assert any("toy-player (teal): chose to roll first" in text for text in shown)
    board = await table.play(random.Random(4))
    assert board.finished and "wins" in board.message.text
    row = await check_finished(env, table)
    assert row.game == TOY

    export = await env.fake.slash(player, "export", {"game": row.id}, channel=table.channel_id)
    reply = await answer(env, export)
    files = [a for m in (reply.original, *reply.followups) if m for a in m.attachments]
    assert [f.filename for f in files] == [f"tabula-toy-{row.id}.toyrace"]
    assert files[0].data.decode().splitlines()[0] == "toy race 1"

    rules = await env.fake.slash(player, "rules", {"game": TOY}, channel=table.channel_id)
    shown = (await answer(env, rules)).original
    assert shown is not None and "## How to play Toy Race" in shown.text


async def test_settings_withdraw_and_offer_the_toy_game(env: BotEnv) -> None:
    role = await env.fake.add_role("toy-admins", Perm.MANAGE_GUILD)
    admin = await env.fake.add_member("toy-admin", roles=[role])
    channel = await env.channel("toy-settings")

    half = await env.fake.slash(admin, "settings", {"game": TOY}, channel=channel)
    assert "together" in await wait_ephemeral(env, half)

    withdraw = await env.fake.slash(
        admin, "settings", {"game": TOY, "offered": False}, channel=channel
    )
    assert f"games: {', '.join(built_in())}." in await wait_ephemeral(env, withdraw)
    refused = await env.fake.slash(admin, "play", {"game": TOY}, channel=channel)
    assert "Toy Race" in await wait_ephemeral(env, refused)

    offer = await env.fake.slash(admin, "settings", {"game": TOY, "offered": True}, channel=channel)
    assert f"games: {', '.join([*built_in(), TOY])}." in await wait_ephemeral(env, offer)
    again = await env.fake.slash(admin, "play", {"game": TOY}, channel=channel)
    await answer(env, again)
    assert "ready" in ephemeral_text(env, again)
