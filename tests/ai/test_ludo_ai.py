"""The Ludo AI: legal and deterministic choices, sensible play, and strength by level."""

from __future__ import annotations

import random
import time

import pytest

from bot.ai import ludo as ai
from bot.ai.levels import LEVELS, Level
from bot.engines import ludo
from bot.engines.common import Phase, Roll, WrongPhase
from tests.engines.test_ludo_boards import game, step_on


def play_game(
    levels: tuple[Level, Level, Level, Level], seed: int, times: list[float] | None = None
) -> ludo.LudoState:
    """One game, dice from ``seed``, each seat played by the AI of its level."""
    dice = random.Random(seed)
    brains = random.Random(seed + 1)
    state = ludo.new_game()
    while state.phase is not Phase.FINISHED:
        if state.phase is Phase.ROLL:
            state = ludo.apply(state, ludo.roll(state, dice))
            continue
        # CPU time of this process, so other jobs on a loaded machine do not inflate it.
        started = time.process_time()
        move = ai.choose_action(state, levels[state.turn], brains)
        if times is not None and levels[state.turn] == "hard":
            times.append(time.process_time() - started)
        assert move in ludo.legal_actions(state)
        state = ludo.apply(state, move)
    return state


def win_rate(hero: Level, villain: Level, games: int) -> float:
    """Share of games ``hero`` wins against three ``villain``s, rotating its seat."""
    wins = 0
    for seed in range(games):
        seat = seed % 4
        levels: list[Level] = [villain] * 4
        levels[seat] = hero
        outcome = play_game((levels[0], levels[1], levels[2], levels[3]), 10_000 + seed).outcome
        assert outcome is not None
        wins += outcome.winner == seat
    return wins / games


def finish_turn(state: ludo.LudoState, level: Level, seed: int = 0) -> ludo.LudoState:
    """Let the AI play the rest of the turn on the table."""
    rng = random.Random(seed)
    seat = state.turn
    while state.phase is Phase.MOVE and state.turn == seat:
        state = ludo.apply(state, ai.choose_action(state, level, rng))
    return state


def test_every_level_plays_only_legal_moves_to_the_end() -> None:
    for seed in range(8):
        state = play_game(("easy", "medium", "hard", "expert"), seed)
        assert state.outcome is not None and state.outcome.winner is not None


@pytest.mark.parametrize("level", LEVELS)
def test_choices_are_deterministic_given_the_rng(level: Level) -> None:
    state = ludo.apply(game("orange: 10 20 30; blue: @15; green: @25 @25"), Roll((6, 4)))
    picks = {ai.choose_action(state, level, random.Random(5)) for _ in range(5)}
    assert len(picks) == 1
    assert picks <= set(ludo.legal_actions(state))


def test_whole_games_are_deterministic_given_the_seeds() -> None:
    levels: tuple[Level, Level, Level, Level] = ("hard", "medium", "easy", "hard")
    assert play_game(levels, 3) == play_game(levels, 3)


def test_the_ai_only_moves_after_the_roll() -> None:
    with pytest.raises(WrongPhase):
        ai.choose_action(ludo.new_game(), "hard", random.Random(0))


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_takes_an_easy_capture(level: Level) -> None:
    state = ludo.apply(game("orange: @10 30; blue: @13"), Roll((3, 2)))
    after = finish_turn(state, level)
    assert after.position.steps("blue") == (0, 0, 0, 0)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_finishes_the_game_when_it_can(level: Level) -> None:
    # The 4 first wins; the 1 first would leave the 4 with nowhere to go.
    state = ludo.apply(game("orange: 50 home home home; blue: @1"), Roll((1, 4)))
    assert finish_turn(state, level).outcome is not None


def test_hard_runs_from_a_token_right_behind_it() -> None:
    # Orange's token on square 32 sits two squares in front of blue's: it should use both dice
    # to get away (7 squares ahead) rather than bring the other token home from the stretch.
    # Yellow has nothing in base, so its start square 36 is no danger.
    state = ludo.apply(game("orange: @32 50; blue: @30; yellow: 49 49 49 49"), Roll((4, 1)))
    after = finish_turn(state, "hard")
    assert after.position.steps("orange") == (step_on("orange", 37), 50, 0, 0)


def test_hard_builds_a_block_in_front_of_a_hunter() -> None:
    # Two lone orange tokens just ahead of blue; joining them makes both safe.
    state = ludo.apply(game("orange: @14 @17 40; blue: @12"), Roll((3, 5)))
    after = finish_turn(state, "hard")
    squares = [ludo.square_of(0, step) for step in after.position.steps("orange")[:2]]
    assert squares[0] == squares[1]


def test_hit_masks_count_the_rolls_that_reach() -> None:
    assert ai.HIT[1].bit_count() == 11  # a 1 on either die
    assert ai.HIT[7].bit_count() == 6  # 1-6, 2-5, ..., 6-1
    assert ai.HIT[12].bit_count() == 1
    assert ai.HIT[4].bit_count() == 11 + 3  # a 4 on either die, or 1-3, 2-2, 3-1
    assert ai.ENTER_HIT[0].bit_count() == 11  # any 6 captures on the start square
    assert ai.ENTER_HIT[3].bit_count() == 2
    assert ai.ENTER_HIT[6].bit_count() == 1


def test_hard_decides_well_within_the_time_budget() -> None:
    times: list[float] = []
    for seed in range(6):
        play_game(("hard", "hard", "hard", "hard"), seed, times)
    times.sort()
    p95 = times[int(len(times) * 0.95)]
    assert p95 < 0.05, f"p95 decision time {p95 * 1000:.1f} ms"


@pytest.mark.strength
def test_medium_beats_easy() -> None:
    assert win_rate("medium", "easy", 200) > 0.40


@pytest.mark.strength
def test_hard_beats_easy() -> None:
    assert win_rate("hard", "easy", 200) > 0.50


@pytest.mark.strength
def test_hard_beats_medium() -> None:
    # Three medium opponents: an equal player would win 25%.
    assert win_rate("hard", "medium", 400) > 0.31
