"""/analyze's verdicts: the expert ranks the known best play first, the same way the engine
does; without the expert, hard answers."""

from __future__ import annotations

import pytest

from bot.ai.backgammon_analysis import analyse_position, hard_position
from bot.ai.bgsage_engine import available, cube_context, engine
from bot.engines import backgammon as bg
from bot.engines.backgammon_setup import parse_position

START = "-b----E-C---eE---c-e----B-"
# Opening plays every strong engine agrees on.
KNOWN_BEST = [
    (f"XGID={START}:0:0:1:31:0:0:0:0:10", "8/5 6/5"),
    (f"XGID={START}:0:0:1:42:0:0:0:0:10", "8/4 6/4"),
    (f"XGID={START}:0:0:1:53:0:0:0:0:10", "8/3 6/3"),
    (f"XGID={START}:0:0:1:61:0:0:0:0:10", "13/7 8/7"),
    (f"XGID={START}:0:0:1:65:0:0:0:0:10", "24/13"),
    (f"XGID={START}:0:0:-1:31:0:0:0:0:10", "8/5 6/5"),  # the top player, same play
]

needs_expert = pytest.mark.skipif(not available(), reason="bgsage is not installed here")


@needs_expert
@pytest.mark.parametrize(("xgid", "best"), KNOWN_BEST)
def test_the_expert_ranks_the_known_best_play_first(xgid: str, best: str) -> None:
    state = parse_position(xgid)
    verdict = analyse_position(state)
    assert verdict.plays[0].text == best
    assert verdict.plays[0].loss == 0.0
    assert all(a.equity >= b.equity for a, b in zip(verdict.plays, verdict.plays[1:], strict=False))
    assert 1 <= len(verdict.plays) <= 5 and verdict.legal >= len(verdict.plays)
    # the same order as the engine's own ranking of the same position
    ranked = engine().rank_plays(
        state.position, (state.dice[0], state.dice[1]), cube_context(state, state.turn)
    )
    expected = [
        bg.format_play(state.position, (state.dice[0], state.dice[1]), r.play) for r in ranked
    ]
    assert [line.text for line in verdict.plays] == expected[: len(verdict.plays)]


@needs_expert
def test_the_expert_cube_verdicts() -> None:
    opening = analyse_position(parse_position(f"XGID={START}:0:0:1:00:0:0:0:0:10"))
    assert opening.cube is not None and not opening.cube.should_double
    # a short race far ahead (six checkers home against six on the top's far side)
    found = analyse_position(
        parse_position("XGID=-BBB-----------------bbb--:0:0:1:00:0:0:0:0:10")
    ).cube
    assert found is not None and found.should_double and not found.should_take
    # the same offered: the taker's decision is the same verdict (pass)
    offered = analyse_position(
        parse_position("XGID=-BBB-----------------bbb--:0:0:1:D:0:0:0:0:10")
    ).cube
    assert offered == found


def test_hard_answers_without_the_expert() -> None:
    verdict = hard_position(parse_position(f"XGID={START}:0:0:1:31:0:0:0:0:10"))
    assert verdict.level == "hard"
    assert verdict.plays[0].text == "8/5 6/5"
    cube = hard_position(parse_position(f"XGID={START}:0:0:1:00:0:0:0:0:10"))
    assert cube.cube is not None and not cube.cube.should_double
