"""The Ur computer players: legality, determinism, sensible choices, strength and speed."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest

from bot.ai import ur as ai
from bot.ai.levels import LEVELS, Level
from bot.engines import ur
from bot.engines.common import Phase, Roll, roll_binary
from tests.engines.test_ur_boards import OFF, board


def sample_positions(count: int, seed: int) -> Iterator[tuple[ur.Position, int]]:
    """(position, roll) pairs with at least one legal move, met in random games."""
    rng = random.Random(seed)
    position = ur.Position.start()
    found = 0
    while found < count:
        roll = sum(roll_binary(rng))
        moves = ur.legal_moves(position, roll)
        if not moves:
            position = position._replace(to_move="dark" if position.to_move == "light" else "light")
            continue
        yield position, roll
        found += 1
        position, _ = ur.apply_move(position, rng.choice(moves))
        if position.winner() is not None:
            position = ur.Position.start()


@pytest.mark.parametrize("level", LEVELS)
def test_every_choice_is_legal(level: Level) -> None:
    rng = random.Random(1)
    count = 60 if level in ("hard", "expert") else 600
    for position, roll in sample_positions(count, seed=2):
        assert ai.choose_move(position, roll, level, rng) in ur.legal_moves(position, roll)


@pytest.mark.parametrize("level", LEVELS)
def test_choices_are_deterministic_given_the_rng(level: Level) -> None:
    positions = list(sample_positions(40, seed=3))
    first = [ai.choose_move(p, r, level, random.Random(9)) for p, r in positions]
    second = [ai.choose_move(p, r, level, random.Random(9)) for p, r in positions]
    assert first == second


def test_expert_plays_as_hard() -> None:
    for position, roll in sample_positions(30, seed=4):
        hard = ai.choose_move(position, roll, "hard", random.Random(5))
        expert = ai.choose_move(position, roll, "expert", random.Random(5))
        assert hard == expert


def test_easy_spreads_its_choices() -> None:
    # light  * . . L | | * .   roll 1: 0-1 and 1-2 ... the easy level picks both
    position = board([1, 3])
    rng = random.Random(0)
    picks = {ai.choose_move(position, 1, "easy", rng) for _ in range(50)}
    assert picks == set(ur.legal_moves(position, 1))


def test_choose_action_reads_the_state() -> None:
    state = ur.apply(ur.new_game(), Roll((1, 1, 0, 0)))
    assert ai.choose_action(state, "hard", random.Random(0)) == ur.Move(0, 2)
    with pytest.raises(ValueError, match="move phase"):
        ai.choose_action(ur.new_game(), "easy", random.Random(0))
    with pytest.raises(ValueError, match="No legal move"):
        ai.choose_move(board([5] + [OFF] * 6, [8]), 3, "easy", random.Random(0))


# Positions with one clearly right move, for the levels that think.
OBVIOUS = [
    # shared . . . * L . . D   dark's piece on 12 is nearly home: 9-12 captures it (roll 3)
    ("capture the runner", board([9], [12]), 3, ur.Move(9, 12)),
    # light  * . . . | | * .
    # shared L . . * . . . .
    # dark   * D D . | | * .   dark's 2 and 3 threaten 5: 5-8 reaches the safe rosette
    ("flee to the shared rosette", board([5], [2, 3]), 3, ur.Move(5, 8)),
    # light  * . . . | | L .   off 5; roll 1: 14-off would leave 13... 13-14 is blocked, so
    # compare bearing off with walking into danger from 5 (dark on 4 hits 6 with a 2).
    ("bear off rather than step into danger", board([5, 14] + [OFF] * 5, [4]), 1, ur.Move(14, OFF)),
]


@pytest.mark.parametrize("level", ["medium", "hard"])
@pytest.mark.parametrize(
    ("position", "roll", "best"),
    [case[1:] for case in OBVIOUS],
    ids=[case[0] for case in OBVIOUS],
)
def test_thinking_levels_find_the_obvious_move(
    level: Level, position: ur.Position, roll: int, best: ur.Move
) -> None:
    assert ai.choose_move(position, roll, level, random.Random(0)) == best


def test_hard_values_an_immediate_win_highest() -> None:
    # light  * . . . | | L .   off 6: 14-off wins; the other move does not
    values = ai.move_values(board([14] + [OFF] * 5 + [3]), 1)
    assert values[ur.Move(14, OFF)] < ai.WIN  # one piece is still on 3: no win yet
    values = ai.move_values(board([14] + [OFF] * 6), 1)
    assert values == {ur.Move(14, OFF): ai.WIN}


def test_evaluation_is_antisymmetric_apart_from_the_tempo() -> None:
    checked = 0
    for position, _ in sample_positions(300, seed=6):
        light, dark, light_waiting, dark_waiting, _ = position
        if (light | dark) & ur.SHARED_MASK:
            continue  # threats weigh attack and risk differently; progress alone is symmetric
        mine = ai.evaluate(light, dark, light_waiting, dark_waiting)
        theirs = ai.evaluate(dark, light, dark_waiting, light_waiting)
        assert mine + theirs == pytest.approx(2 * ai.TEMPO)
        checked += 1
    assert checked >= 10
    # light  * . . . | | L L   is ahead of   dark  * . . . | | * .  with all seven waiting
    assert ai.evaluate(board([13, 14]).light, 0, 5, 7) > ai.evaluate(0, 0, 7, 7) == ai.TEMPO


def play(levels: tuple[Level, Level], seed: int) -> int:
    """One game through the game layer; the winning seat."""
    rng = random.Random(seed)
    state = ur.new_game()
    while state.phase is not Phase.FINISHED:
        if state.phase is Phase.ROLL:
            state = ur.apply(state, ur.roll(state, rng))
        else:
            state = ur.apply(state, ai.choose_action(state, levels[state.turn], rng))
    assert state.outcome is not None and state.outcome.winner is not None
    return state.outcome.winner


def win_rate(level: Level, against: Level, games: int) -> float:
    """Share of ``games`` that ``level`` wins, playing light in even and dark in odd games."""
    wins = 0
    for seed in range(games):
        if seed % 2 == 0:
            wins += play((level, against), seed) == 0
        else:
            wins += play((against, level), seed) == 1
    return wins / games


def test_hard_beats_easy() -> None:
    # Measured: hard wins about 99% against easy.
    assert win_rate("hard", "easy", 40) >= 0.85


def test_medium_beats_easy() -> None:
    # Measured: medium wins over 99% against easy.
    assert win_rate("medium", "easy", 200) >= 0.9


@pytest.mark.strength
def test_hard_beats_easy_over_many_games() -> None:
    assert win_rate("hard", "easy", 300) >= 0.93


@pytest.mark.strength
def test_hard_beats_medium() -> None:
    # Measured 68% over 1000 games; 300 games put the standard error near 2.7 points.
    assert win_rate("hard", "medium", 300) >= 0.58


def test_hard_decisions_are_fast() -> None:
    durations = []
    for position, roll in sample_positions(400, seed=8):
        if len(ur.legal_moves(position, roll)) < 2:
            continue
        # CPU time of this process, so other jobs on the machine do not inflate it.
        start = time.process_time()
        ai.choose_move(position, roll, "hard", random.Random(0))
        durations.append(time.process_time() - start)
    durations.sort()
    p95 = durations[int(len(durations) * 0.95)]
    assert p95 < 0.05, f"p95 {p95 * 1000:.1f} ms"
