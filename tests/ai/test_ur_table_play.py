"""Playing, hinting and reviewing Ur from a solved table (a small one: 3 pieces a side, which
covers every position where each side has at least 4 pieces borne off)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest

from bot.ai import ur as ur_ai
from bot.ai import ur_table
from bot.ai.ur_hint import hint
from bot.ai.ur_review import analyse
from bot.engines import ur
from bot.engines.common import Phase, Roll
from bot.vocabulary.review_labels import label


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ur_table.UrTable]:
    pytest.importorskip("numba")
    from bot.ai import ur_solver

    built = ur_solver.build(tmp_path_factory.mktemp("ur") / "ur3.table", 3)
    opened = ur_table.open(built.path)
    yield opened
    opened.close()


def late_position(rng: random.Random) -> ur.Position:
    """A random position with each side 4 pieces off and 3 to play (so the table covers it)."""
    while True:
        masks = [sum(1 << s for s in rng.sample(range(1, 15), rng.randint(1, 3))) for _ in "ld"]
        if not masks[0] & masks[1] & 0x1FE0:
            light, dark = (3 - m.bit_count() for m in masks)
            return ur.Position(masks[0], masks[1], light, dark, rng.choice(["light", "dark"]))


def test_perfect_plays_the_move_with_the_best_chance(table: ur_table.UrTable) -> None:
    rng = random.Random(1)
    for _ in range(300):
        position = late_position(rng)
        for roll in range(1, 5):
            chances = ur_ai.move_chances(position, roll, table)
            if not chances:
                continue
            move = ur_ai.choose_move(position, roll, "perfect", rng, table)
            assert dict(chances)[move] == chances[0][1]
            assert [c for _, c in chances] == sorted((c for _, c in chances), reverse=True)


def test_perfect_plays_as_hard_where_the_table_does_not_reach(table: ur_table.UrTable) -> None:
    start = ur.Position.start()
    for roll in range(1, 5):
        hard = ur_ai.choose_move(start, roll, "hard", random.Random(5))
        assert ur_ai.choose_move(start, roll, "perfect", random.Random(5), table) == hard


def test_the_installed_table_is_the_default(table: ur_table.UrTable) -> None:
    position = ur.Position(1 << 6, 1 << 7, 2, 2, "light")  # light can hit with a 1
    assert ur_table.install(table.path) is not None
    try:
        chosen = ur_ai.choose_move(position, 1, "perfect", random.Random(0))
        assert chosen == ur_ai.move_chances(position, 1, ur_table.installed())[0][0]  # type: ignore[arg-type]
    finally:
        ur_table.install(None)
    assert ur_table.installed() is None


def test_hints_before_and_after_the_roll(table: ur_table.UrTable) -> None:
    position = ur.Position(1 << 12, 1 << 9, 2, 2, "light")
    rolling = ur.UrState(position, Phase.ROLL, ur.LIGHT)
    before = hint(rolling, table)
    assert before.moves == () and before.chance == table.win_chance(position)
    moving = ur.apply(rolling, Roll((1, 1, 1, 0)))
    after = hint(moving, table)
    chances = ur_ai.move_chances(position, 3, table)
    assert after.moves == tuple((m.notation(), c) for m, c in chances)
    assert after.chance == chances[0][1] == max(c for _, c in after.moves)
    assert "12-off" in dict(after.moves)  # bearing off with the exact 3
    with pytest.raises(ur_table.NotCovered):
        hint(ur.new_game(), table)


def record(seed: int, table: ur_table.UrTable) -> list[str]:
    """A whole game: both sides play hard until the table covers the position; then light
    plays perfect and dark picks at random."""
    rng = random.Random(seed)
    state = ur.new_game()
    notations = []
    while state.phase is not Phase.FINISHED:
        if state.phase is Phase.ROLL:
            action: ur.UrAction = ur.roll(state, rng)
        elif not table.covers(state.position):
            action = ur_ai.choose_action(state, "hard", rng)
        elif state.turn == ur.LIGHT:
            action = ur_ai.choose_action(state, "perfect", rng, table)
        else:
            action = rng.choice(ur.legal_actions(state))
        notations.append(ur.notation(state, action))
        state = ur.apply(state, action)
    return notations


def test_a_review_judges_the_covered_moves(table: ur_table.UrTable) -> None:
    # Some games end before both sides have four pieces off: take the first that does not.
    analysis = next(
        a
        for a in (analyse(record(seed, table), table) for seed in range(40))
        if len([m for m in a.moves if m.seat == ur.DARK]) >= 5
    )
    assert not analysis.complete
    light = [m for m in analysis.moves if m.seat == ur.LIGHT]
    dark = [m for m in analysis.moves if m.seat == ur.DARK]
    assert light and all(m.loss == 0.0 and m.played == m.best for m in light)
    assert any(m.loss > 0.0 for m in dark)
    for move in analysis.moves:
        assert 0.0 <= move.played_chance <= move.best_chance <= 1.0
        assert (label(move.loss) == "best") == (move.played == move.best)
    indices = [i for i, _ in analysis.series]
    assert indices == sorted(indices) and analysis.series[-1][1] in ((0.0, 1.0), (1.0, 0.0))
    for _, (light, dark) in analysis.series:
        assert 0.0 <= light <= 1.0 and light + dark == pytest.approx(1.0)


def test_a_game_the_table_never_reaches_has_nothing_judged(table: ur_table.UrTable) -> None:
    state = ur.new_game()
    notations = []
    rng = random.Random(2)
    for _ in range(20):  # a few opening moves: far from four pieces off
        action: ur.UrAction = (
            ur.roll(state, rng) if state.phase is Phase.ROLL else ur.legal_actions(state)[0]
        )
        notations.append(ur.notation(state, action))
        state = ur.apply(state, action)
    analysis = analyse(notations, table)
    assert analysis.moves == () and analysis.series == () and not analysis.complete


def test_reviewing_a_whole_game_takes_well_under_a_second(table: ur_table.UrTable) -> None:
    notations = record(3, table)
    analyse(notations, table)  # the pages the game touches are read once
    started = time.perf_counter()
    analysis = analyse(notations, table)
    assert time.perf_counter() - started < 1.0
    assert analysis.actions == len(notations) > 100
