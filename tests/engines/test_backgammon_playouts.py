"""Seeded random playouts to the end, checking invariants after every action."""

from __future__ import annotations

import random

import pytest

from bot.engines import backgammon as bg
from bot.engines.backgammon import BackgammonState, Phase
from bot.engines.common import EndReason
from tests.playouts import PLAYOUT_GAMES


def _check(state: BackgammonState) -> None:
    mine, theirs = state.position.mine, state.position.theirs
    assert sum(mine) <= 15 and sum(theirs) <= 15
    assert all(not (mine[i] and theirs[23 - i]) for i in range(24))
    assert 1 <= state.cube_value <= bg.MAX_CUBE
    assert state.cube_value == 1 or state.cube_owner in (0, 1)
    assert sum(g.points for g in state.games) == sum(state.score)
    if state.phase is Phase.FINISHED:
        assert state.outcome is not None
    else:
        assert state.outcome is None
        assert sum(mine) > 0 and sum(theirs) > 0


def play_out(
    rng: random.Random, options: dict[str, object], *, double_rate: float, take_rate: float
) -> BackgammonState:
    """A random match: random plays, doubles now and then, random takes and drops."""
    state = bg.new_game(options)
    for _ in range(20_000):
        phase = state.phase
        if phase is Phase.FINISHED:
            return state
        if phase is Phase.MOVE:
            action: bg.Action = rng.choice(bg.legal_plays_for(state))
        elif phase is Phase.CUBE:
            action = bg.Take() if rng.random() < take_rate else bg.Drop()
        elif phase is Phase.ROLL and bg.can_double(state) and rng.random() < double_rate:
            action = bg.Double()
        else:
            action = bg.roll(state, rng)
        state = bg.apply(state, action)
        _check(state)
    raise AssertionError("a random match did not finish")


@pytest.mark.slow
def test_thousands_of_single_games() -> None:
    rng = random.Random(20240601)
    kinds: dict[str, int] = {}
    reasons: dict[EndReason, int] = {}
    top_cube = 1
    for _ in range(PLAYOUT_GAMES):
        state = play_out(rng, {}, double_rate=0.02, take_rate=0.8)
        assert state.outcome is not None and state.outcome.winner in (0, 1)
        assert len(state.games) == 1
        result = state.games[0]
        assert state.outcome.points == result.points
        kinds[result.kind] = kinds.get(result.kind, 0) + 1
        reasons[result.reason] = reasons.get(result.reason, 0) + 1
        top_cube = max(top_cube, result.cube)
    # random play produces every kind of result, and the cube gets used
    assert set(kinds) == {"single", "gammon", "backgammon"}
    assert reasons[EndReason.DROP] > 0 and reasons[EndReason.NORMAL] > 0
    assert top_cube >= 8


@pytest.mark.slow
@pytest.mark.parametrize("length", [5, 7])
def test_random_matches_with_crawford(length: int) -> None:
    rng = random.Random(length)
    crawford_games = 0
    for _ in range(60):
        state = play_out(rng, {"match_length": length}, double_rate=0.1, take_rate=0.6)
        assert state.outcome is not None
        winner = state.outcome.winner
        assert winner is not None and state.score[winner] >= length
        assert state.score[1 - winner] < length
        assert state.games[-1].points == state.outcome.points
        # exactly one Crawford game when someone reached length - 1 before the last game
        score = [0, 0]
        crawford_seen = False
        for index, game in enumerate(state.games):
            before = tuple(score)
            score[game.winner] += game.points
            if index and not crawford_seen and length - 1 in before:
                crawford_seen = True
                crawford_games += 1
                assert game.cube == 1, "no doubling in the Crawford game"
        assert tuple(score) == state.score
    assert crawford_games > 10


def test_quick_playouts() -> None:
    """A few hundred games on every run (the slow tests play thousands)."""
    rng = random.Random(99)
    for length in (0, 1, 3):
        for _ in range(60):
            state = play_out(rng, {"match_length": length}, double_rate=0.05, take_rate=0.7)
            assert state.outcome is not None
