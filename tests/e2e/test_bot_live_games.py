"""``/games scope:server``: the games in progress on this server, newest first, ten a page,
each with its players, its move and a link to its board."""

from __future__ import annotations

import re

from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.members import answer
from tests.driver.starts import start_by_play

pytestmark = module_marks(timeout=180)

env = module_bot("live-games")


async def server_list(env: BotEnv, page: int) -> str:
    asker = await env.member("asker")
    command = await env.fake.slash(asker, "games", {"scope": "server", "page": page})
    response = await answer(env, command)
    assert response.ephemeral
    return response.content


async def test_the_server_list_shows_every_game_paged(env: BotEnv) -> None:
    assert "No games in progress" in await server_list(env, 1)
    tables = []
    for index in range(11):
        player = await env.member(f"player{index:02d}")
        tables.append(await start_by_play(env, player, await env.channel(f"live{index}"), "ur"))
    first = await server_list(env, 1)
    assert "(11; page 1 of 2" in first
    assert first.count("\n• ") == 10
    assert "player10 vs AI" in first and "player00" not in first, "newest first"
    second = await server_list(env, 2)
    assert second.count("\n• ") == 1
    assert re.search(r"player00 vs AI, move [0-9]+: https://", second), second
    assert f"/{tables[0].channel_id}" in second, "a link to the game"
    assert "page 2 of 2" in await server_list(env, 9), "past the end: the last page"


async def test_the_command_sync_says_where_each_command_may_be_used(env: BotEnv) -> None:
    """Reading commands (rules, help, stats, games) and starting games (/play, /challenge)
    are offered to a user install and in DMs and group DMs (tests/e2e/test_bot_group_dm.py
    plays there)."""
    synced = {c.name: c.payload() for c in env.fake.world.commands}
    for name in ("rules", "help", "stats", "games", "play", "challenge"):
        assert sorted(synced[name]["integration_types"]) == [0, 1], name
        assert sorted(synced[name]["contexts"]) == [0, 1, 2], name
