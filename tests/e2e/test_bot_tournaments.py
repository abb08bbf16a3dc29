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
