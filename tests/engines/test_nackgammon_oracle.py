"""Nackgammon's move generation against GNU Backgammon, the oracle: 5,000 positions met in
seeded random games from the Nackgammon start, and for each its roll's legal plays as the
engine lists them and as gnubg's ``hint`` lists them (at 0-ply every legal play is
evaluated and shown), compared as sets of resulting positions. gnubg's plays are applied
by ``naive_after`` (checkers moved as written, no rule checked), so neither side's rules
are read through the other's.

gnubg is its command line (``tests/engines/gnubg_cli.py``), fed every position by its Position
ID and roll. Its Nackgammon set-up (``set variation nackgammon``) is the engine's start too
(checked first).
"""

from __future__ import annotations

import random
import re

import pytest

from bot.engines import backgammon as bg
from bot.engines import nackgammon
from bot.engines.backgammon import Phase, Position
from bot.engines.common import Roll
from tests.engines import gnubg_cli

pytestmark = [
    pytest.mark.skipif(gnubg_cli.PROGRAM is None, reason="gnubg, the oracle, is not installed"),
    pytest.mark.timeout(600),
]

POSITIONS = 5000


def nackgammon_positions(seed: int, count: int) -> list[tuple[Position, tuple[int, int]]]:
    """``count`` distinct (position, roll) pairs with a play to make, met in seeded random
    single games (cube off) from the Nackgammon start: the board seen by the mover."""
    rng = random.Random(seed)
    found: dict[tuple[Position, tuple[int, int]], None] = {}
    while len(found) < count:
        state = nackgammon.new_game({"cube": False})
        while state.phase is not Phase.FINISHED and len(found) < count:
            if state.phase is Phase.MOVE:
                dice = (state.dice[0], state.dice[1])
                found[(state.position, dice)] = None
                state = bg.apply(state, rng.choice(bg.legal_plays_for(state)))
            else:
                state = bg.apply(state, bg.roll(state, rng))
    return list(found)


def test_gnubgs_nackgammon_start_is_the_engines() -> None:
    shown = gnubg_cli.run("set variation nackgammon\n" + gnubg_cli.SETUP + "new match 1\n")
    assert re.findall(r"Position ID:\s*(\S+)", shown)[-1] == nackgammon.START_ID
    assert nackgammon.START.pip_counts() == (194, 194)
    assert nackgammon.START.mine[22:24] == (2, 2)  # two on the 23-point, two on the 24-point


@pytest.mark.slow
def test_legal_plays_agree_with_gnubg_on_5000_positions() -> None:
    cases = nackgammon_positions(seed=41, count=POSITIONS)
    mismatches = []
    for (position, dice), theirs in zip(cases, gnubg_cli.plays(cases), strict=True):
        ours = {play.result for play in bg.legal_plays(position, dice)}
        if ours != theirs:
            mismatches.append(
                f"{position.position_id()} {dice}: only ours {len(ours - theirs)}, "
                f"only gnubg's {len(theirs - ours)}"
            )
    assert not mismatches, f"{len(mismatches)} of {len(cases)} differ:\n" + "\n".join(
        mismatches[:20]
    )


def test_the_positions_come_from_the_nackgammon_start() -> None:
    cases = nackgammon_positions(seed=41, count=50)
    first, dice = cases[0]
    opening = bg.apply(nackgammon.new_game(), Roll((max(dice), min(dice))))
    assert first == opening.position == nackgammon.START
