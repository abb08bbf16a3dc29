"""Seeded random Ludo games played to the end, checking invariants after every action."""

from __future__ import annotations

import random

import pytest

from bot.engines import ludo
from bot.engines.common import Phase, Roll
from tests.playouts import PLAYOUT_GAMES

CHUNK = 1_000  # games per test: pytest-xdist spreads the chunks over the cores
CHUNKS = max(1, PLAYOUT_GAMES // CHUNK)
START = (0, 12, 24, 36)


def blocks_against(tokens: tuple[int, ...], seat: int) -> set[int]:
    """Loop squares where another colour has two or more tokens."""
    blocks: set[int] = set()
    for other in range(4):
        if other == seat:
            continue
        squares = [
            (START[other] + step - 1) % 48
            for step in tokens[other * 4 : other * 4 + 4]
            if 1 <= step <= 48
        ]
        blocks.update(square for square in squares if squares.count(square) > 1)
    return blocks


def check_move(before: ludo.LudoState, move: ludo.Move, after: ludo.LudoState) -> None:
    seat = before.turn
    old, new = before.position.tokens, after.position.tokens
    index = seat * 4 + move.token
    assert move.die in before.dice
    assert old[index] == move.source
    assert new[index] == move.target
    if move.source == 0:
        assert (move.die, move.target) == (6, 1)
    else:
        assert move.target == move.source + move.die <= 54
    # No block of another colour on the squares passed or landed on.
    blocks = blocks_against(old, seat)
    first = 1 if move.source == 0 else move.source + 1
    for step in range(first, min(move.target, 48) + 1):
        assert (START[seat] + step - 1) % 48 not in blocks
    # Tokens are conserved: only the mover and at most one captured token changed.
    changed = [i for i in range(16) if old[i] != new[i]]
    assert index in changed and len(changed) <= 2
    for victim in changed:
        if victim != index:
            assert new[victim] == 0
            assert victim // 4 != seat
            assert move.target <= 48
            victim_square = (START[victim // 4] + old[victim] - 1) % 48
            assert victim_square == (START[seat] + move.target - 1) % 48


def play_out(seed: int) -> ludo.LudoState:
    rng = random.Random(seed)
    state = ludo.new_game()
    while state.phase is not Phase.FINISHED:
        tokens = state.position.tokens
        assert len(tokens) == 16 and min(tokens) >= 0 and max(tokens) <= 54
        if state.phase is Phase.ROLL:
            roll = ludo.roll(state, rng)
            after = ludo.apply(state, roll)
            assert after.rolled == roll.dice
            if after.phase is Phase.ROLL:  # nothing could move: the turn passed in the roll
                assert after.passed and after.lost == roll.dice
                assert after.turn == (state.turn if 6 in roll.dice else (state.turn + 1) % 4)
                assert after.position.tokens == state.position.tokens
        else:
            actions = ludo.legal_actions(state)
            assert actions
            move = rng.choice(actions)
            after = ludo.apply(state, move)
            check_move(state, move, after)
            if after.phase is Phase.ROLL:
                rolled_six = 6 in state.rolled
                assert after.turn == (state.turn if rolled_six else (state.turn + 1) % 4)
                assert after.extra_turn == rolled_six
        state = after
    return state


def check_finished(state: ludo.LudoState) -> None:
    result = state.outcome
    assert result is not None and result.winner is not None
    assert state.position.steps(result.winner) == (54, 54, 54, 54)
    assert result.ranking[0] == (result.winner,)
    assert sorted(seat for group in result.ranking for seat in group) == [0, 1, 2, 3]
    progress = [state.position.progress(group[0]) for group in result.ranking[1:]]
    assert progress == sorted(progress, reverse=True)
    assert len(set(progress)) == len(progress)
    for group in result.ranking[1:]:
        assert len({state.position.progress(seat) for seat in group}) == 1


def test_a_short_playout_ends_with_a_winner() -> None:
    for seed in range(20):
        check_finished(play_out(seed))


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_thousands_of_random_games_end_with_a_winner(chunk: int) -> None:
    games = CHUNK
    winners = [0, 0, 0, 0]
    for seed in range(chunk * games, (chunk + 1) * games):
        state = play_out(seed)
        check_finished(state)
        assert state.outcome is not None and state.outcome.winner is not None
        winners[state.outcome.winner] += 1
    # Random play: no seat should be wildly favoured (each wins 25% +- 1.4% here).
    assert all(games * 0.19 < count < games * 0.31 for count in winners)


def test_roll_of_a_fresh_game_is_a_roll() -> None:
    assert isinstance(ludo.roll(ludo.new_game(), random.Random(1)), Roll)
