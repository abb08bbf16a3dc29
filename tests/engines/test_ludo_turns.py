"""Turn flow of the Ludo variant: dice, lost dice, extra turns, winning, resigning, saving."""

from __future__ import annotations

import random

import pytest

from bot.engines import ludo
from bot.engines.common import (
    Abandon,
    EndReason,
    IllegalMove,
    NotationError,
    Outcome,
    Phase,
    Resign,
    Roll,
    WrongPhase,
    replay,
)
from tests.engines.test_ludo_boards import board, game


def play(state: ludo.LudoState, *texts: str) -> ludo.LudoState:
    for text in texts:
        state = ludo.apply(state, ludo.parse(state, text))
    return state


def moves(state: ludo.LudoState) -> set[str]:
    return {ludo.notation(state, action) for action in ludo.legal_actions(state)}


def test_new_game_all_in_base_red_to_roll() -> None:
    state = ludo.new_game({})
    assert state.phase is Phase.ROLL
    assert state.turn == 0
    assert state.dice == ()
    assert ludo.legal_actions(state) == []
    assert all(step == 0 for step in state.position.tokens)
    assert ludo.outcome(state) is None


def test_unknown_option_is_rejected() -> None:
    with pytest.raises(ValueError, match="no options"):
        ludo.new_game({"seats": 3})


def test_six_first_brings_a_token_out_so_the_other_die_can_move_it() -> None:
    state = ludo.apply(ludo.new_game(), Roll((3, 6)))
    # The 3 has no move yet: only the 6 is offered, the player must play it first.
    assert moves(state) == {"6:t1 0-1", "6:t2 0-1", "6:t3 0-1", "6:t4 0-1"}
    state = play(state, "6:t2")
    assert state.dice == (3,)
    assert moves(state) == {"3:t2 1-4"}
    state = play(state, "3:t2")
    assert state.position.steps("orange") == (0, 4, 0, 0)
    assert (state.phase, state.turn, state.extra_turn) == (Phase.ROLL, 0, True)


def test_the_player_chooses_which_die_to_play_first() -> None:
    state = ludo.apply(game("orange: 50 home home home"), Roll((4, 3)))
    assert moves(state) == {"4:t1 50-54", "3:t1 50-53"}
    # Playing the 4 first wins; playing the 3 first leaves the 4 with nowhere to go.
    assert play(state, "4:t1").phase is Phase.FINISHED
    after = play(state, "3:t1")
    assert after.lost == (4,)
    assert (after.phase, after.turn) == (Phase.ROLL, 1)


def test_a_die_with_no_move_is_lost_and_the_turn_ends() -> None:
    state = ludo.apply(game("orange: 51"), Roll((1, 5)))
    assert moves(state) == {"1:t1 51-52"}
    state = play(state, "1:t1")
    assert state.position.steps("orange") == (52, 0, 0, 0)
    assert state.lost == (5,)
    assert not state.passed
    assert (state.phase, state.turn, state.dice) == (Phase.ROLL, 1, ())


def test_a_roll_without_any_move_passes_inside_the_roll() -> None:
    state = ludo.apply(game("blue: 10"), Roll((2, 5)))
    assert state.passed
    assert state.lost == (2, 5)
    assert state.rolled == (2, 5)
    assert (state.phase, state.turn, state.extra_turn) == (Phase.ROLL, 1, False)


def test_a_six_gives_another_turn_even_when_nothing_can_move() -> None:
    state = ludo.apply(game("orange: 50 home home home"), Roll((6, 6)))
    assert state.passed
    assert (state.phase, state.turn, state.extra_turn) == (Phase.ROLL, 0, True)


def test_a_six_gives_another_turn_after_both_dice_are_played() -> None:
    state = play(ludo.new_game(), "roll 6-2", "6:t1", "2:t1")
    assert (state.phase, state.turn, state.extra_turn) == (Phase.ROLL, 0, True)
    state = play(state, "roll 1-2", "1:t1", "2:t1")
    assert (state.turn, state.extra_turn) == (1, False)
    assert state.position.steps("orange") == (6, 0, 0, 0)


def test_doubles_are_two_dice_of_the_same_number() -> None:
    state = ludo.apply(game("orange: 10 20"), Roll((3, 3)))
    assert moves(state) == {"3:t1 10-13", "3:t2 20-23"}
    state = play(state, "3:t1")
    assert state.dice == (3,)
    state = play(state, "3:t1")
    assert state.position.steps("orange") == (16, 20, 0, 0)
    assert state.turn == 1


def test_capture_is_recorded_in_last_move() -> None:
    state = play(game("orange: @10; blue: @13 20"), "roll 3-1", "3:t1")
    assert state.position.steps("blue") == (0, 20, 0, 0)
    assert state.last_move == ludo.LastMove(0, 0, 3, 11, 14, ludo.Capture(1, 0, 2))


def test_win_ends_the_game_at_once_and_ranks_the_rest_by_progress_with_ties() -> None:
    state = game("orange: 52 home home home; blue: 10 5; green: 15; yellow: 3 3")
    state = play(state, "roll 2-5", "2:t1")
    assert state.phase is Phase.FINISHED
    assert state.dice == ()
    assert state.outcome == Outcome(0, ((0,), (1, 2), (3,)), EndReason.NORMAL)
    assert ludo.legal_actions(state) == []
    with pytest.raises(WrongPhase):
        ludo.apply(state, Roll((1, 1)))


def test_moving_before_rolling_and_rolling_twice_are_wrong_phase() -> None:
    state = ludo.new_game()
    with pytest.raises(WrongPhase):
        ludo.apply(state, ludo.Move(6, 0, 0, 1))
    state = ludo.apply(state, Roll((6, 1)))
    with pytest.raises(WrongPhase):
        ludo.apply(state, Roll((6, 1)))


@pytest.mark.parametrize("dice", [(7, 1), (0, 3), (6,), (1, 2, 3)])
def test_a_roll_is_two_dice_from_one_to_six(dice: tuple[int, ...]) -> None:
    with pytest.raises(IllegalMove):
        ludo.apply(ludo.new_game(), Roll(dice))


def test_a_move_needs_a_die_on_the_table() -> None:
    state = ludo.apply(game("orange: 10"), Roll((2, 3)))
    with pytest.raises(IllegalMove, match="no 4 to play"):
        ludo.apply(state, ludo.Move(4, 0, 10, 14))
    with pytest.raises(IllegalMove, match="only a 6"):
        ludo.apply(state, ludo.Move(2, 1, 0, 1))


def test_roll_draws_two_dice_from_the_given_rng() -> None:
    first = ludo.roll(ludo.new_game(), random.Random(7))
    assert first == ludo.roll(ludo.new_game(), random.Random(7))
    rolls = {ludo.roll(ludo.new_game(), random.Random(seed)).dice for seed in range(300)}
    assert {die for dice in rolls for die in dice} == {1, 2, 3, 4, 5, 6}
    assert all(len(dice) == 2 for dice in rolls)


# --- resigning and abandoning


def test_resigning_off_turn_drops_the_seat_out_and_frees_its_blocks() -> None:
    state = ludo.apply(game("orange: @10; blue: @13 @13; green: 30"), Roll((5, 1)))
    assert moves(state) == {"1:t1 11-12"}
    state = ludo.apply(state, Resign(1))
    assert state.resigned == (1,)
    assert (state.phase, state.turn) == (Phase.MOVE, 0)
    assert moves(state) == {"1:t1 11-12", "5:t1 11-16"}
    state = play(state, "5:t1", "1:t1")
    assert state.turn == 2  # blue is skipped
    assert state.position.steps("blue") == (2, 2, 0, 0)  # kept for display


def test_resigning_on_turn_passes_the_turn() -> None:
    state = ludo.apply(game("orange: 10", to_move="yellow"), Roll((6, 1)))
    state = ludo.apply(state, Resign(3))
    assert (state.phase, state.turn, state.dice) == (Phase.ROLL, 0, ())


def test_resigned_seat_cannot_resign_again_nor_a_missing_seat() -> None:
    state = ludo.apply(ludo.new_game(), Resign(2))
    with pytest.raises(IllegalMove, match="already resigned"):
        ludo.apply(state, Resign(2))
    with pytest.raises(IllegalMove):
        ludo.apply(state, Resign(4))


def test_last_seat_in_play_wins_and_resigners_rank_last_latest_first() -> None:
    state = game("orange: 30; blue: 40; green: 1")
    state = play(state, "resign 1", "resign 0")
    assert state.outcome is None
    state = play(state, "resign 3")
    assert state.phase is Phase.FINISHED
    assert state.outcome == Outcome(2, ((2,), (3,), (0,), (1,)), EndReason.RESIGN)


def test_a_normal_win_ranks_resigned_seats_after_everyone() -> None:
    state = game("orange: 53 home home home; blue: 40 40 40; yellow: 2")
    state = play(state, "resign 1", "roll 1-2", "1:t1")
    assert state.outcome == Outcome(0, ((0,), (3,), (2,), (1,)))


@pytest.mark.parametrize(
    ("text", "winner", "ranking"),
    [
        ("orange: 10; blue: 20; green: 5 5; yellow: 1", 1, ((1,), (0, 2), (3,))),
        ("orange: 20; blue: 20; green: 5", None, ((0, 1), (2,), (3,))),
    ],
)
def test_abandon_ranks_by_progress(
    text: str, winner: int | None, ranking: tuple[tuple[int, ...], ...]
) -> None:
    state = ludo.apply(game(text), Abandon())
    assert state.outcome == Outcome(winner, ranking, EndReason.ABANDON)


def test_abandon_puts_resigned_seats_last_even_when_ahead() -> None:
    state = play(game("orange: 10; blue: 50; green: 20"), "resign 1", "abandon")
    assert state.outcome == Outcome(2, ((2,), (0,), (3,), (1,)), EndReason.ABANDON)


# --- notation and saving


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("6:t1 0-1", ludo.Move(6, 0, 0, 1)),
        ("6:t1", ludo.Move(6, 0, 0, 1)),
        ("6 t1", ludo.Move(6, 0, 0, 1)),
        ("3:T2 10-13", ludo.Move(3, 1, 10, 13)),
        ("3:t2", ludo.Move(3, 1, 10, 13)),
        ("roll 6-3", Roll((6, 3))),
        ("resign 2", Resign(2)),
        ("abandon", Abandon()),
    ],
)
def test_parse(text: str, expected: object) -> None:
    assert ludo.parse(game("orange: 0 10"), text) == expected


@pytest.mark.parametrize("text", ["", "t1", "7:t1", "6:t5", "move token 1", "3:t1 1"])
def test_parse_rejects_gibberish(text: str) -> None:
    with pytest.raises(NotationError):
        ludo.parse(ludo.new_game(), text)


def test_notation_of_a_move() -> None:
    assert ludo.notation(ludo.new_game(), ludo.Move(3, 1, 10, 13)) == "3:t2 10-13"


def test_dump_load_round_trip_keeps_captures_resignations_and_outcome() -> None:
    state = play(game("orange: @10; blue: @13 20"), "resign 2", "roll 3-6", "3:t1")
    data = ludo.dump_state(state)
    assert ludo.load_state(data) == state
    finished = ludo.apply(state, Abandon())
    assert ludo.load_state(ludo.dump_state(finished)) == finished


def test_replay_rebuilds_the_same_state() -> None:
    texts = ["roll 6-2", "6:t1 0-1", "2:t1 1-3", "roll 4-4", "4:t1 3-7", "4:t1 7-11", "roll 1-1"]
    state = replay(ludo, {}, texts)
    assert state == play(ludo.new_game(), *texts)
    assert state.turn == 2
    assert state.position.steps("orange") == (11, 0, 0, 0)


def test_module_fulfils_the_rules_contract() -> None:
    assert ludo.GAME == "ludo"
    assert ludo.SEATS == ("orange", "blue", "green", "yellow")
    assert board().to_move == 0
