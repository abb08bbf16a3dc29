"""Seeded random playouts: 10,000 easy-vs-easy games to the end, invariants after every move."""

from __future__ import annotations

import random

import pytest

from bot.ai import ur as ai
from bot.engines import ur
from bot.engines.common import Phase, replay
from tests.playouts import PLAYOUT_GAMES

SHARED = ur.SHARED_MASK


def _check(position: ur.Position) -> None:
    light, dark, light_waiting, dark_waiting, _ = position
    assert not (light | dark) & ~ur.BOARD_MASK, "a piece outside squares 1..14"
    assert not light & dark & SHARED, "two pieces on one shared square"
    assert 0 <= light_waiting + light.bit_count() <= ur.PIECES
    assert 0 <= dark_waiting + dark.bit_count() <= ur.PIECES


def play_out(seed: int) -> tuple[int, int]:
    """One uniformly random game on the Position API; (winning seat, moves played).

    The easy level is ``rng.choice`` over the legal moves; it is inlined here, and four fair
    bits stand in for ``ur.roll``, to keep ten thousand games within seconds. The invariants
    are checked on the raw masks for the same reason.
    """
    rng = random.Random(seed)
    choice = rng.choice
    bits = rng.getrandbits
    legal_moves = ur.legal_moves
    apply_move = ur.apply_move
    outside = ~ur.BOARD_MASK
    position = ur.Position.start()
    pieces_left = ur.PIECES * 2  # pieces not yet borne off, both sides
    moves = 0
    while True:
        options = legal_moves(position, bits(4).bit_count())
        if not options:
            position = position._replace(to_move="dark" if position.to_move == "light" else "light")
            continue
        mover = position.to_move
        position, again = apply_move(position, choice(options))
        moves += 1
        light, dark, light_waiting, dark_waiting, to_move = position
        assert not (light | dark) & outside, "a piece outside squares 1..14"
        assert not light & dark & SHARED, "two pieces on one shared square"
        light_left = light_waiting + light.bit_count()
        dark_left = dark_waiting + dark.bit_count()
        assert light_left <= ur.PIECES and dark_left <= ur.PIECES
        # Borne-off pieces never come back, and at most one leaves per move.
        assert light_left + dark_left in (pieces_left, pieces_left - 1)
        pieces_left = light_left + dark_left
        assert (to_move == mover) == again
        if not (light_left if mover == "light" else dark_left):
            return ur.SEATS.index(mover), moves
        assert moves < 5_000, "a game that does not end"


@pytest.mark.slow
def test_thousands_of_random_games_end_with_a_winner() -> None:
    winners = [play_out(seed)[0] for seed in range(PLAYOUT_GAMES)]
    light_share = winners.count(ur.LIGHT) / len(winners)
    # Light moves first: a small edge, never a landslide between random players.
    assert 0.45 < light_share < 0.60


@pytest.mark.parametrize("seed", range(50))
def test_game_layer_playouts_replay_exactly(seed: int) -> None:
    rng = random.Random(seed)
    state = ur.new_game()
    texts: list[str] = []
    while state.phase is not Phase.FINISHED:
        action: ur.UrAction
        if state.phase is Phase.ROLL:
            action = ur.roll(state, rng)
        else:
            action = ai.choose_action(state, "easy", rng)
        texts.append(ur.notation(state, action))
        state = ur.apply(state, action)
        _check(state.position)
    assert state.outcome is not None and state.outcome.winner in (0, 1)
    assert state.position.winner() == ur.SEATS[state.outcome.winner]
    assert replay(ur, {}, texts) == state
