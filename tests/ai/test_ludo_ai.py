"""The Ludo AI: legal and deterministic choices, sensible play, and strength by level."""

from __future__ import annotations

import random
import time

import pytest

from bot.ai import ludo as ai
from bot.ai import ludo_eval
from bot.ai.levels import LEVELS, Level
from bot.engines import ludo
from bot.engines.common import Phase, Roll, WrongPhase
from tests.engines.test_ludo_boards import board, game, step_on


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
    # Blue's token on square 4 is 41 steps into its lap; orange's token on 1 hits it with the 3.
    state = ludo.apply(game("orange: @1 30; blue: @4"), Roll((3, 2)))
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


def test_hard_uses_the_bonus_roll_of_a_six_to_hunt() -> None:
    # Orange's last die is a 3: token 1 can go 4 squares behind blue's last token (blue has
    # three in the home stretch), or token 2 can escape green into the home stretch. After a 6
    # orange rolls again before anyone else, so the hunt comes first; otherwise safety does.
    position = board("orange: @0 @46; blue: 50 50 50 @7; green: @41")
    hunt = ludo.Move(3, 0, 1, 4)
    escape = ludo.Move(3, 1, 47, 50)
    with_six = ludo.LudoState(position=position, phase=Phase.MOVE, dice=(3,), rolled=(6, 3))
    without = ludo.LudoState(position=position, phase=Phase.MOVE, dice=(3,), rolled=(4, 3))
    assert ai.choose_action(with_six, "hard", random.Random(0)) == hunt
    assert ai.choose_action(without, "hard", random.Random(0)) == escape


def test_hard_comes_out_and_hits_with_one_roll_then_rolls_again() -> None:
    # Blue's token on square 3 is three squares past orange's start: a 6 brings a token out
    # and the 3 moves it on to capture; the 6 also gives orange the next roll.
    state = ludo.apply(game("orange: 20 30; blue: @3"), Roll((6, 3)))
    after = finish_turn(state, "hard")
    assert after.position.steps("blue") == (0, 0, 0, 0)
    assert after.turn == 0 and after.phase is Phase.ROLL and after.extra_turn


def test_a_block_between_hunter_and_prey_removes_the_threat() -> None:
    # Blue three squares behind orange's token on 20 threatens it, unless green's block on
    # 18 stands between them. Moving green's block from 14 to 18 changes green's own worth
    # too, the same with blue far back (ten squares) where it stops no threat: the gain over
    # that is the threat the block stops.
    def orange(text: str) -> float:
        return ludo_eval.win_chances(board(text).tokens, 1)[0]

    close = orange("orange: @20 30; blue: @17; green: @18 @18") - orange(
        "orange: @20 30; blue: @17; green: @14 @14"
    )
    far = orange("orange: @20 30; blue: @10; green: @18 @18") - orange(
        "orange: @20 30; blue: @10; green: @14 @14"
    )
    assert close - far > 0.005


def test_hard_does_not_plan_through_a_block() -> None:
    # The only capture of blue on 20 would pass green's block on 18: hard plays on legally
    # and blue stays where it is.
    state = ludo.apply(game("orange: @15 40; blue: @20; green: @18 @18"), Roll((5, 2)))
    assert all(
        (move.token, move.target) != (0, step_on("orange", 20))
        for move in ludo.legal_actions(state)
    )
    after = finish_turn(state, "hard")
    assert after.position.steps("blue")[0] == step_on("blue", 20)


def test_win_chances_are_a_distribution() -> None:
    position = board("orange: 10 20 30; blue: @15 50; green: @25 @25; yellow: home 3")
    for to_move in range(4):
        chances = ludo_eval.win_chances(position.tokens, to_move)
        assert sum(chances) == pytest.approx(1.0)
        assert all(0.0 < chance < 1.0 for chance in chances)
    won = board("orange: home home home home; blue: 10")
    assert ludo_eval.win_chances(won.tokens, 1) == [1.0, 0.0, 0.0, 0.0]
    resigned = ludo_eval.win_chances(position.tokens, 0, frozenset({2}))
    assert resigned[2] == 0.0 and sum(resigned) == pytest.approx(1.0)


def test_hit_masks_count_the_rolls_that_reach() -> None:
    assert ludo_eval.HIT[1].bit_count() == 11  # a 1 on either die
    assert ludo_eval.HIT[7].bit_count() == 6  # 1-6, 2-5, ..., 6-1
    assert ludo_eval.HIT[12].bit_count() == 1
    assert ludo_eval.HIT[4].bit_count() == 11 + 3  # a 4 on either die, or 1-3, 2-2, 3-1
    assert ludo_eval.ENTER_HIT[0].bit_count() == 11  # any 6 captures on the start square
    assert ludo_eval.ENTER_HIT[3].bit_count() == 2
    assert ludo_eval.ENTER_HIT[6].bit_count() == 1


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
