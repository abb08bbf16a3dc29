"""Whole games of all three games, started by /play and by /challenge, played to the end by
clicking random offered buttons; the six games run side by side on one bot, each in its own
channel, and each test checks one of them: pictures, result, stored log, response times."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot import games
from bot import storage as store
from tests.driver.boards import as_shown
from tests.driver.bots import BotEnv, module_bot, module_marks, problems_in_log
from tests.driver.log_check import check_finished
from tests.driver.player import Table
from tests.driver.starts import GAMES, start_by_challenge, start_by_play
from tests.driver.stored import results_of
from tests.driver.timeouts import ACK_LIMIT

pytestmark = module_marks(timeout=240)

WAYS = ("play", "challenge")
GAME_TIMEOUT = 200.0


env = module_bot("full-games")


async def whole_game(env: BotEnv, way: str, game: str, seed: int) -> Table:
    """Start ``game`` the ``way`` given, in a channel of its own, and click until it ends."""
    channel = await env.channel(f"{way}-{game}")
    host = await env.member(f"{game}-{way}-host")
    if way == "play":
        table = await start_by_play(env, host, channel, game)
    else:
        others = 2 if game == "ludo" else 1  # Ludo: three people, the fourth seat is the AI
        guests = [await env.member(f"{game}-guest{i}") for i in range(others)]
        table = await start_by_challenge(env, host, guests, channel, game)
    await table.play(random.Random(seed))
    return table


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def played(env: BotEnv) -> AsyncIterator[dict[tuple[str, str], asyncio.Task[Table]]]:
    """All six games, started at once and played concurrently in the background."""
    tasks = {
        (way, game): asyncio.create_task(whole_game(env, way, game, seed))
        for seed, (way, game) in enumerate((w, g) for w in WAYS for g in GAMES)
    }
    yield tasks
    for task in tasks.values():
        task.cancel()
    await asyncio.gather(*tasks.values(), return_exceptions=True)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("way", WAYS)
async def test_whole_game_is_played_by_clicks_and_its_result_stored(
    env: BotEnv, played: dict[tuple[str, str], asyncio.Task[Table]], way: str, game: str
) -> None:
    table = await asyncio.wait_for(asyncio.shield(played[way, game]), GAME_TIMEOUT)
    final = table.current()
    assert final is not None and final.finished
    assert "wins" in final.message.text
    # Only a rematch (and a review, where the game has one) is offered once it is over.
    assert set(final.tokens) <= {"rematch", "review", "share"}
    # Every board the players acted on, and the last one, carried a decodable PNG.
    assert len(table.images_checked) == len(table.clicks) + 1

    row = await check_finished(env, table)
    assert row.game == game
    humans = {s.user_id for s in row.seats if s.user_id is not None}
    assert humans == {p.id for p in table.players.values()}
    ai_seats = [s for s in row.seats if s.user_id is None]
    if way == "play":
        assert not row.rated
        assert len(ai_seats) == len(row.seats) - 1
    else:
        assert row.rated
        assert len(ai_seats) == (1 if game == "ludo" else 0)
    expected_seats = 4 if game == "ludo" else 2
    assert len(row.seats) == expected_seats

    results = await results_of(env, row)
    winners = [r for r in results if r.place == 1]
    assert len(winners) == 1
    colour = games.get(game).rules.SEATS[winners[0].seat]
    assert re.search(rf"🏁 .+ \({colour}\) wins", final.message.text), final.message.text
    assert all(r.reason in ("normal", "drop") for r in results), results

    slowest = max(table.ack_times())
    assert slowest < ACK_LIMIT, f"a click waited {slowest:.3f}s for its acknowledgement"


async def test_no_game_is_left_running(
    env: BotEnv, played: dict[tuple[str, str], asyncio.Task[Table]]
) -> None:
    await asyncio.wait_for(asyncio.gather(*played.values()), GAME_TIMEOUT)
    assert await store.active_games(await env.db()) == []
    assert problems_in_log(env.bot) == []


@pytest.mark.parametrize("game", ["ur", "ludo"])
async def test_challenge_boards_name_every_player(
    played: dict[tuple[str, str], asyncio.Task[Table]], game: str
) -> None:
    table = await asyncio.wait_for(asyncio.shield(played["challenge", game]), GAME_TIMEOUT)
    final = table.current()
    assert final is not None
    headline = as_shown(final.message.text.splitlines()[0])  # names as Discord shows them
    for name, user in table.players.items():
        assert f"{name} (" in headline
        assert str(user.id) not in headline
