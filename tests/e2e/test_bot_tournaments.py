"""Tournaments end to end: the real bot on the fake Discord runs Swiss tournaments of 6 and 7
entrants (a bye), every game played to its end by clicks in its own thread, and the standings
equal a recomputation from the stored results."""

from __future__ import annotations

from collections import Counter

from tests.e2e.bot_helpers import module_bot, module_marks, problems_in_log
from tests.e2e.tournament_helpers import announce, check_standings, play_to_the_end, start

pytestmark = module_marks(600)
env = module_bot("tournaments", {"CLOCK_SWEEP_SECONDS": "1"})


async def test_swiss_with_six(env):  # type: ignore[no-untyped-def]
    event = await announce(env, "six", 6, {"game": "ur", "format": "swiss"})
    await start(event)
    assert await play_to_the_end(event) == 3
    tables = await event.tables()
    pairs = Counter(frozenset(t.seats) for t in tables)
    assert len(tables) == 9 and set(pairs.values()) == {1}, "nobody meets twice"
    await check_standings(event)
    assert not problems_in_log(env.bot)


async def test_swiss_with_seven_has_a_bye_a_round(env):  # type: ignore[no-untyped-def]
    event = await announce(env, "seven", 7, {"game": "ur", "format": "swiss"})
    await start(event)
    assert await play_to_the_end(event, seed=7) == 3
    tables = await event.tables()
    byes = [t.seats[0] for t in tables if t.decided_by == "bye"]
    assert len(byes) == 3 and len(set(byes)) == 3, "one bye a round, never twice to one player"
    await check_standings(event)
    assert not problems_in_log(env.bot)


async def test_round_robin_with_four(env):  # type: ignore[no-untyped-def]
    event = await announce(env, "robin", 4, {"game": "ur", "format": "round_robin"})
    await start(event)
    assert await play_to_the_end(event, seed=4) == 3
    tables = await event.tables()
    pairs = Counter(frozenset(t.seats) for t in tables)
    assert len(pairs) == 6 and set(pairs.values()) == {1}, "everyone meets everyone once"
    first = Counter(t.seats[0] for t in tables)
    assert all(1 <= first[p.id] <= 2 for p in event.players), "colours balanced"
    await check_standings(event)


async def test_knockout_with_five(env):  # type: ignore[no-untyped-def]
    event = await announce(env, "ko", 5, {"game": "ur", "format": "knockout"})
    await start(event)
    assert await play_to_the_end(event, seed=5) == 3
    first = await event.tables(1)
    byes = sorted(t.seats[0] for t in first if t.decided_by == "bye")
    assert byes == sorted(p.id for p in event.players[:3]), "the top seeds have the byes"
    (final,) = await event.tables(3)
    await check_standings(event)
    assert final.points is not None


async def test_ludo_swiss_with_six_fills_tables_with_the_ai(env):  # type: ignore[no-untyped-def]
    event = await announce(env, "ludo", 6, {"game": "ludo", "format": "swiss", "rounds": 1})
    await start(event)
    assert await play_to_the_end(event, seed=6) == 1
    tables = await event.tables()
    assert [sum(p is not None for p in t.seats) for t in tables] == [3, 3]
    await check_standings(event)
    assert not problems_in_log(env.bot)
