"""Tournaments end to end: the real bot on the fake Discord runs Swiss tournaments of 6 and 7
entrants (a bye), a round robin of 4, a knockout of 5 and a Ludo Swiss of 6 (AI seats fill
the tables), every game played to its end by clicks in its own thread, and the standings
equal a recomputation from the stored results; the admin tools and their log, a lost thread
permission and a deleted thread do not stop a tournament."""

from __future__ import annotations

import asyncio
from collections import Counter

import aiohttp

from bot import storage as store
from sandbox.fake_events import CREATE_EVENTS, MANAGE_EVENTS
from sandbox.fake_model import Perm
from tests.driver.bots import module_bot, module_marks, problems_in_log
from tests.driver.members import wait_ephemeral
from tests.driver.timeouts import STEP_TIMEOUT
from tests.driver.tournaments import (
    announce,
    check_standings,
    play_to_the_end,
    round_opened,
    start,
    wait_round_done,
)

pytestmark = module_marks(600)
# Toy Race (tests/toy_game: a two-seat game of about thirty clicks) where a format is under
# test, Ludo for the tables of four (AI seats filling): a Ur game by clicks takes ten times
# as long, and tables of two play the same whatever the game.
TOY = {"TABULA_EXTRA_GAMES": "tests.toy_game"}
env = module_bot("tournaments", {"CLOCK_SWEEP_SECONDS": "1", **TOY})


async def test_swiss_with_six(env):  # type: ignore[no-untyped-def]
    event = await announce(env, "six", 6, {"game": "toy", "format": "swiss"})
    await start(event)
    assert await play_to_the_end(event) == 3
    tables = await event.tables()
    pairs = Counter(frozenset(t.seats) for t in tables)
    assert len(tables) == 9 and set(pairs.values()) == {1}, "nobody meets twice"
    await check_standings(event)
    # Over and shown: the bot keeps nothing of it in memory.
    await env.fake.wait_for(
        lambda: f"tournament {event.tournament_id} is over and shown; let go" in env.bot.output(),
        STEP_TIMEOUT,
        what="the tournament's owner let go",
    )
    assert not problems_in_log(env.bot)


async def test_swiss_with_seven_has_a_bye_a_round(env):  # type: ignore[no-untyped-def]
    event = await announce(env, "seven", 7, {"game": "toy", "format": "swiss"})
    await start(event)
    assert await play_to_the_end(event, seed=7) == 3
    tables = await event.tables()
    byes = [t.seats[0] for t in tables if t.decided_by == "bye"]
    assert len(byes) == 3 and len(set(byes)) == 3, "one bye a round, never twice to one player"
    await check_standings(event)
    assert not problems_in_log(env.bot)


async def test_round_robin_with_four(env):  # type: ignore[no-untyped-def]
    event = await announce(env, "robin", 4, {"game": "toy", "format": "round_robin"})
    await start(event)
    assert await play_to_the_end(event, seed=4) == 3
    tables = await event.tables()
    pairs = Counter(frozenset(t.seats) for t in tables)
    assert len(pairs) == 6 and set(pairs.values()) == {1}, "everyone meets everyone once"
    first = Counter(t.seats[0] for t in tables)
    assert all(1 <= first[p.id] <= 2 for p in event.players), "colours balanced"
    await check_standings(event)


async def test_knockout_with_five(env):  # type: ignore[no-untyped-def]
    event = await announce(env, "ko", 5, {"game": "toy", "format": "knockout"})
    await start(event)
    assert await play_to_the_end(event, seed=5) == 3
    first = await event.tables(1)
    byes = sorted(t.seats[0] for t in first if t.decided_by == "bye")
    assert byes == sorted(p.id for p in event.players[:3]), "the top seeds have the byes"
    (final,) = await event.tables(3)
    await check_standings(event)
    assert final.points is not None
    # A bracket's standings: no Swiss tie-break columns, which decide nothing here.
    shown = event.announcement.text
    assert "**Standings** (score)" in shown and "Buchholz" not in shown, shown


async def test_ludo_swiss_with_six_fills_tables_with_the_ai(env):  # type: ignore[no-untyped-def]
    event = await announce(env, "ludo", 6, {"game": "ludo", "format": "swiss", "rounds": 1})
    await start(event)
    assert await play_to_the_end(event, seed=6) == 1
    tables = await event.tables()
    assert [sum(p is not None for p in t.seats) for t in tables] == [3, 3]
    await check_standings(event)
    assert not problems_in_log(env.bot)


async def test_admin_tools_and_their_log(env):  # type: ignore[no-untyped-def]
    event = await announce(env, "adm", 4, {"game": "toy", "format": "swiss", "rounds": 1})
    await start(event)
    tables = await round_opened(event, 1)
    quitter = next(p for p in event.players if p.id == tables[0].seats[0])
    winner = next(p for p in event.players if p.id == tables[1].seats[1])
    here = event.channel
    refused = await env.fake.slash(quitter, "tournament extend", {"hours": 1}, channel=here)
    assert "Only the organiser" in await wait_ephemeral(env, refused)
    extended = await env.fake.slash(event.boss, "tournament extend", {"hours": 2}, channel=here)
    assert "now ends" in await wait_ephemeral(env, extended)
    recorded = await env.fake.slash(
        event.boss, "tournament result", {"winner": winner}, channel=here
    )
    assert winner.name in await wait_ephemeral(env, recorded)
    left = await env.fake.slash(quitter, "tournament leave", channel=here)
    assert "forfeited" in await wait_ephemeral(env, left)
    # The quitter's game is resigned, the admin's result stands: the tournament ends.
    row = await wait_round_done(event, 1)
    assert row.status == "finished"
    decided = {t.board: t.decided_by for t in await event.tables(1)}
    assert decided == {0: "game", 1: "admin"}
    standings = await env.fake.slash(event.boss, "tournament standings", channel=here)
    text = await wait_ephemeral(env, standings)
    assert "Organisers' log" in text and "extend" in text and "admin" in text
    assert text.index(winner.name) < text.index(quitter.name)


async def test_a_lost_permission_does_not_stop_the_tournament(env):  # type: ignore[no-untyped-def]
    event = await announce(env, "perm", 4, {"game": "toy", "format": "swiss", "rounds": 1})
    await env.fake.set_permissions(event.channel, deny=Perm.CREATE_PUBLIC_THREADS)
    await start(event)
    told = await env.fake.wait_for(
        lambda: any("could not open" in m.text for m in env.fake.messages(event.channel)),
        STEP_TIMEOUT,
        what="the organiser told",
    )
    assert told and not env.fake.threads(event.channel)
    await env.fake.set_permissions(event.channel)  # given back: the sweep opens the games
    assert await play_to_the_end(event, seed=8) == 1
    await check_standings(event)


async def test_a_deleted_thread_is_opened_again_with_its_game(env):  # type: ignore[no-untyped-def]
    event = await announce(env, "del", 4, {"game": "toy", "format": "swiss", "rounds": 1})
    await start(event)
    first, _ = await round_opened(event, 1)
    assert first.channel_id is not None
    # A moderator deletes the thread of a game under way.
    headers = {"Authorization": f"Bot {env.fake.token}"}
    async with (
        aiohttp.ClientSession(base_url=env.fake.base_url, headers=headers) as http,
        http.delete(f"/api/v10/channels/{first.channel_id}") as response,
    ):
        assert response.status == 200

    async def moved() -> bool:
        (again,) = [t for t in await event.tables(1) if t.board == first.board]
        return again.channel_id != first.channel_id

    deadline = asyncio.get_running_loop().time() + STEP_TIMEOUT
    while not await moved():
        assert asyncio.get_running_loop().time() < deadline, "the game was not posted again"
        await asyncio.sleep(0.1)
    assert await play_to_the_end(event, seed=9) == 1
    await check_standings(event)
    (after,) = [t for t in await event.tables(1) if t.board == first.board]
    assert after.game_id == first.game_id, "the same game, moved"
    assert f"<#{after.channel_id}>" in event.announcement.text or "Winner" in (
        event.announcement.text
    )


async def test_a_round_ends_at_its_deadline(env):  # type: ignore[no-untyped-def]
    event = await announce(env, "late", 4, {"game": "toy", "format": "swiss", "rounds": 1})
    await start(event)
    tables = await round_opened(event, 1)
    # The round's time is up (on the bot's clock, moved rather than waited for): the sweep
    # ends each game as a clock would, the player on turn losing.
    deadline = (await event.row()).round_deadline
    assert deadline is not None
    env.fake.advance(deadline - env.fake.wall_time() + 1)
    db = await env.db()
    assert (await wait_round_done(event, 1)).status == "finished"
    for table in tables:
        assert table.game_id is not None
        results = await store.results_of_game(db, table.game_id)
        assert {r.reason for r in results} == {"timeout"}
    await check_standings(event)


async def test_a_scheduled_event_follows_the_tournament(env):  # type: ignore[no-untyped-def]
    """Where the bot has Create Events (given here last: the module's bot keeps it). Manage
    Events alone makes no event: Discord asks a bot for Create Events since February 2026."""
    guild = env.fake.guild
    role = env.fake.world.bot_role(guild)
    events = env.fake.rest.scheduled_events.events
    await env.fake.set_role_permissions(role, role.permissions | MANAGE_EVENTS)
    asked = event_posts(env)
    unscheduled = await announce(env, "ev0", 2, {"game": "toy", "format": "swiss", "rounds": 1})
    await env.fake.set_role_permissions(role, (role.permissions | CREATE_EVENTS) & ~MANAGE_EVENTS)
    before = set(events)
    event = await announce(env, "ev", 2, {"game": "toy", "format": "swiss", "rounds": 1})
    (made,) = [events[e] for e in events if e not in before]
    assert made["name"] == f"Tournament #{event.tournament_id}: Toy Race"
    assert made["status"] == 1 and made["entity_metadata"]["location"] == "#ev"
    await start(event)
    assert await play_to_the_end(event, seed=10) == 1
    await check_standings(event)
    await env.fake.wait_for(lambda: made["status"] == 3, STEP_TIMEOUT, what="the event done")
    row = await event.row()
    assert row.event_id == int(made["id"])
    # Manage Events alone: the bot did not even ask (it checks the permission first), so
    # the one request is the second tournament's; the first has no event.
    assert event_posts(env) == asked + 1
    assert (await unscheduled.row()).event_id is None


def event_posts(env):  # type: ignore[no-untyped-def]
    """How many times the bot asked the fake to create a scheduled event."""
    routes = env.fake.traffic.report().by_route
    return sum(
        n
        for route, n in routes.items()
        if route.startswith("POST ") and route.endswith("/scheduled-events")
    )
