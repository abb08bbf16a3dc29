"""The rollout simulator of the hard Ludo AI follows the engine exactly.

Random positions (blocks, shared squares, tokens in the home stretch, resigned seats) and
random dice: the simulator must list the same legal moves, make the same captures, score the
moves as ``medium`` does, and play whole turns and whole games to the same positions, the same
seat rolling next and the same winner as the engine driven with the same choices.
"""

from __future__ import annotations

import random

import pytest

from bot.ai import ludo as ai
from bot.ai import ludo_sim as sim
from bot.ai.ludo_eval import chance, win_chances
from bot.engines import ludo
from bot.engines.common import Phase, Roll

SEATS = len(ludo.SEATS)


def random_position(rng: random.Random) -> ludo.Position:
    """Tokens anywhere, with extra chances of blocks, shared squares, base and the stretch."""
    tokens = [0] * (ludo.TOKENS * SEATS)
    for index in range(len(tokens)):
        kind = rng.random()
        if kind < 0.2:
            tokens[index] = 0
        elif kind < 0.3:
            tokens[index] = rng.randint(ludo.LOOP + 1, ludo.HOME)
        else:
            tokens[index] = rng.randint(1, ludo.LOOP)
    for _ in range(rng.randint(0, 4)):
        # Put a token on another token's loop square: a block of one colour, or two colours.
        index, other = rng.sample(range(len(tokens)), 2)
        square = ludo.SQUARE[other >> 2][tokens[other]]
        if square >= 0:
            tokens[index] = (square - ludo.START[index >> 2]) % ludo.LOOP + 1
    to_move = rng.randrange(SEATS)
    if rng.random() < 0.1:
        # One token from home: the turn may end the game.
        tokens[to_move * ludo.TOKENS : to_move * ludo.TOKENS + 3] = [ludo.HOME] * 3
        tokens[to_move * ludo.TOKENS + 3] = rng.randint(ludo.HOME - 12, ludo.HOME - 1)
    out: frozenset[int] = frozenset()
    if rng.random() < 0.2:
        out = frozenset(rng.sample([s for s in range(SEATS) if s != to_move], rng.randint(1, 2)))
    return ludo.Position(tuple(tokens), to_move, out)


def test_legal_moves_match_the_engine() -> None:
    rng = random.Random(1)
    for _ in range(3000):
        position = random_position(rng)
        seat = position.to_move
        blocked = ludo.fast_blocked(position.tokens, seat, position.out)
        for die in range(1, 7):
            listed = ludo.fast_targets(position.tokens, seat, die, blocked)
            assert listed == [(m.token, m.target) for m in ludo.legal_moves(position, die)]


def test_moves_and_captures_match_the_engine() -> None:
    rng = random.Random(2)
    captures = 0
    for _ in range(3000):
        position = random_position(rng)
        seat = position.to_move
        for die in range(1, 7):
            for legal in ludo.legal_moves(position, die):
                tokens = list(position.tokens)
                captured = ludo.move_in_place(tokens, seat, legal.token, legal.target, position.out)
                expected, expected_capture = ludo.fast_move(
                    position.tokens, seat, legal.token, legal.target, position.out
                )
                assert tuple(tokens) == ludo.apply_move(position, legal).tokens == expected
                assert captured == expected_capture
                captures += captured >= 0
    assert captures > 500  # the positions do exercise captures


def test_medium_scores_match_the_medium_level() -> None:
    rng = random.Random(3)
    checked = 0
    for _ in range(1500):
        position = random_position(rng)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        state = ludo.LudoState(position=position, phase=Phase.MOVE, dice=dice, rolled=dice)
        actions = ludo.legal_actions(state)
        blocked = ludo.fast_blocked(position.tokens, position.to_move, position.out)
        scored = sim.medium_scores(position.tokens, position.to_move, dice, blocked, position.out)
        assert [(m.die, m.token, m.target) for m in actions] == [s[1:] for s in scored]
        for action, (score, *_) in zip(actions, scored, strict=True):
            assert abs(score - ai._heuristic(state, action)) < 1e-9
            checked += 1
    assert checked > 5000


def engine_turn(state: ludo.LudoState, dice: tuple[int, int]) -> ludo.LudoState:
    """Roll ``dice`` in the engine and play the turn with the simulator's choices, each of
    which must be legal there."""
    seat = state.turn
    state = ludo.apply(state, Roll(dice))
    while state.phase is Phase.MOVE and state.turn == seat:
        position = state.position
        blocked = ludo.fast_blocked(position.tokens, seat, position.out)
        choice = sim.medium_move(position.tokens, seat, state.dice, blocked, position.out)
        assert choice is not None  # the engine only waits for a move when one is legal
        die, token, target = choice
        move = ludo.Move(die, token, position.tokens[seat * ludo.TOKENS + token], target)
        assert move in ludo.legal_actions(state)
        state = ludo.apply(state, move)
    return state


def test_turns_match_the_engine() -> None:
    rng = random.Random(4)
    ended = extra = passed = 0
    for _ in range(4000):
        position = random_position(rng)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        after = engine_turn(ludo.LudoState(position=position), dice)
        tokens = list(position.tokens)
        following, winner, _ = sim.play_out(tokens, position.to_move, position.out, dice)
        assert tuple(tokens) == after.position.tokens
        if after.phase is Phase.FINISHED:
            assert after.outcome is not None and winner == after.outcome.winner
            ended += 1
        else:
            assert winner is None and following == after.turn
            extra += following == position.to_move
            passed += after.passed
    assert ended and extra and passed


def test_whole_games_match_the_engine() -> None:
    for seed in range(12):
        rng = random.Random(seed)
        state = ludo.new_game()
        tokens = list(state.position.tokens)
        seat = 0
        while state.phase is not Phase.FINISHED:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            state = engine_turn(state, dice)
            seat, winner, _ = sim.play_out(tokens, seat, frozenset(), dice)
            assert tuple(tokens) == state.position.tokens
            if winner is not None:
                assert state.outcome is not None and state.outcome.winner == winner
            else:
                assert state.phase is Phase.ROLL and seat == state.turn


def test_the_rollouts_leaf_value_is_the_models_chance() -> None:
    # ``chance`` is the one-pass copy of ``win_chances`` the rollouts call at every leaf.
    rng = random.Random(11)
    for _ in range(600):
        position = random_position(rng)
        tokens = position.tokens
        to_move = rng.randrange(4)
        seat = rng.randrange(4)
        cautious = rng.choice((None, seat))
        full = win_chances(tokens, to_move, position.out, cautious=cautious)[seat]
        assert chance(tokens, to_move, position.out, seat, cautious) == pytest.approx(
            full, abs=1e-12
        )


def test_seats_marked_wild_play_at_random_and_the_others_as_medium() -> None:
    # With ``wilds`` (1 for blue only) blue plays every turn as ``random_move`` picks it
    # from the noise, and the other seats as ``medium``; the hero never plays at random.
    rng = random.Random(12)
    differs = 0
    for _ in range(300):
        position = random_position(rng)
        if position.out:
            continue
        dice = [rng.randint(1, 6) for _ in range(16)]
        noise = [rng.random() for _ in range(24)]
        wilds = (0.0, 1.0, 0.0, 0.0)
        tokens = list(position.tokens)
        _, _, played = sim.play_out(
            tokens, position.to_move, position.out, dice, 2, noise, wilds=wilds
        )
        expected = list(position.tokens)
        to_roll = position.to_move
        for turn in range(played):
            first, second = dice[2 * turn], dice[2 * turn + 1]
            at = 3 * turn
            picks = (noise[at + 1], noise[at + 2]) if to_roll == 1 else None
            if sim.play_turn(expected, to_roll, first, second, position.out, picks):
                break
            if 6 not in (first, second):
                to_roll = ludo.next_seat(to_roll, position.out)
        assert tokens == expected
        medium = list(position.tokens)
        sim.play_out(medium, position.to_move, position.out, dice, 2, noise)
        differs += medium != tokens
    assert differs > 20  # random play does change the rollouts
