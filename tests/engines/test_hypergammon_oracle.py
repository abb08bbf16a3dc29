"""Hypergammon's move generation against GNU Backgammon, the oracle: 5,000 distinct
positions and rolls met in seeded random games from the Hypergammon start (585 of them with a
play that bears a checker off), and for each its legal plays as the engine lists them and as
gnubg's ``hint`` lists them, compared as sets of resulting positions
(``tests/engines/gnubg_cli.py``). gnubg's own 3-checker set-up
(``set variation 3-chequer-hypergammon``) is the engine's start too.
"""

from __future__ import annotations

import random
import re

import pytest

from bot.engines import backgammon as bg
from bot.engines import hypergammon
from bot.engines.backgammon import Phase, Position
from bot.engines.common import Roll
from tests.engines import gnubg_cli

pytestmark = [
    pytest.mark.skipif(gnubg_cli.PROGRAM is None, reason="gnubg, the oracle, is not installed"),
    pytest.mark.timeout(600),
]

POSITIONS = 5000


def hypergammon_positions(seed: int, count: int) -> list[tuple[Position, tuple[int, int]]]:
    """``count`` distinct (position, roll) pairs with a play to make, met in seeded random
    single games (cube off) from the start: the board seen by the mover."""
    rng = random.Random(seed)
    found: dict[tuple[Position, tuple[int, int]], None] = {}
    while len(found) < count:
        state = hypergammon.new_game({"cube": False})
        while state.phase is not Phase.FINISHED and len(found) < count:
            if state.phase is Phase.MOVE:
                dice = (state.dice[0], state.dice[1])
                found[(state.position, dice)] = None
                state = bg.apply(state, rng.choice(bg.legal_plays_for(state)))
            else:
                state = bg.apply(state, bg.roll(state, rng))
    return list(found)


def test_gnubgs_three_checker_start_is_the_engines() -> None:
    shown = gnubg_cli.run(
        "set variation 3-chequer-hypergammon\n" + gnubg_cli.SETUP + "new match 1\n"
    )
    assert re.findall(r"Position ID:\s*(\S+)", shown)[-1] == hypergammon.START_ID
    assert {p + 1 for p, n in enumerate(hypergammon.START.mine) if n} == {22, 23, 24}


def test_the_positions_come_from_the_start_and_are_distinct() -> None:
    cases = hypergammon_positions(seed=41, count=200)
    first, dice = cases[0]
    opening = bg.apply(hypergammon.new_game(), Roll((max(dice), min(dice))))
    assert first == opening.position == hypergammon.START
    assert len(set(cases)) == len(cases)
    assert any(p.mine[24] for p, _ in cases) and any(sum(p.mine) < 3 for p, _ in cases)


@pytest.mark.slow
def test_legal_plays_agree_with_gnubg_on_5000_positions() -> None:
    cases = hypergammon_positions(seed=41, count=POSITIONS)
    bearing_off = 0
    mismatches = []
    for (position, dice), theirs in zip(cases, gnubg_cli.plays(cases), strict=True):
        ours = {play.result for play in bg.legal_plays(position, dice)}
        bearing_off += any(sum(r.mine) < sum(position.mine) for r in ours)
        if ours != theirs:
            mismatches.append(
                f"{position.position_id()} {dice}: only ours {len(ours - theirs)}, "
                f"only gnubg's {len(theirs - ours)}"
            )
    assert not mismatches, f"{len(mismatches)} of {len(cases)} differ:\n" + "\n".join(
        mismatches[:20]
    )
    assert bearing_off > 500  # the plays that bear off are among those compared
