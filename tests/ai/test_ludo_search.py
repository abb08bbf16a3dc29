"""The ``expert`` Ludo AI's Monte-Carlo search: legal, deterministic given the rng, the turn's
ends as the engine plays them (blocks included), and the extra roll after a 6."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.ai import ludo as ai
from bot.ai import ludo_search as search
from bot.ai import ludo_sim as sim
from bot.ai.levels import Level
from bot.ai.ludo_eval import RANDOM_HUNTER
from bot.ai.ludo_eval import chance as real_chance
from bot.engines import ludo
from bot.engines.common import Phase, Roll
from tests.ai.test_ludo_sim import random_position
from tests.engines.test_ludo_boards import game

SMALL = search.Budget(work=300)  # enough to run every part of the search, quickly


def engine_ends(state: ludo.LudoState) -> set[tuple[int, ...]]:
    """Every position the engine lets the rest of the turn end in."""
    seat = state.turn
    ends: set[tuple[int, ...]] = set()
    for action in ludo.legal_actions(state):
        after = ludo.apply(state, action)
        if after.phase is Phase.MOVE and after.turn == seat:
            ends |= engine_ends(after)
        else:
            ends.add(after.position.tokens)
    return ends


def rolled_positions(seed: int, count: int) -> Iterator[ludo.LudoState]:
    """Random positions (blocks, shared squares, resigned seats) after a roll that moves."""
    rng = random.Random(seed)
    for _ in range(count):
        dice = Roll((rng.randint(1, 6), rng.randint(1, 6)))
        state = ludo.apply(ludo.LudoState(position=random_position(rng)), dice)
        if state.phase is Phase.MOVE:
            yield state


def test_the_turns_ends_are_the_engines() -> None:
    checked = 0
    for state in rolled_positions(7, 1500):
        plans = search.endings(state, ludo.legal_actions(state))
        assert set(plans) == engine_ends(state)
        for end, firsts in plans.items():
            for first in firsts:  # each listed first move can still end the turn there
                assert end in engine_ends(ludo.apply(state, first)) or (
                    ludo.apply(state, first).position.tokens == end
                )
        checked += 1
    assert checked > 1000


def test_expert_plays_legal_moves_and_is_deterministic_given_the_rng() -> None:
    for state in rolled_positions(8, 60):
        picks = {search.choose(state, random.Random(3), SMALL) for _ in range(3)}
        assert len(picks) == 1
        assert picks <= set(ludo.legal_actions(state))


def test_expert_level_plays_whole_games() -> None:
    dice, brains = random.Random(1), random.Random(2)
    state = ludo.new_game()
    levels: tuple[Level, ...] = ("expert", "medium", "easy", "hard")
    while state.phase is not Phase.FINISHED:
        if state.phase is Phase.ROLL:
            state = ludo.apply(state, ludo.roll(state, dice))
            continue
        move = ai.choose_action(state, levels[state.turn], brains)
        assert move in ludo.legal_actions(state)
        state = ludo.apply(state, move)
    assert state.outcome is not None and state.outcome.winner is not None


def test_rollouts_start_with_the_bonus_roll_after_a_six(monkeypatch: pytest.MonkeyPatch) -> None:
    # Orange can move either token: after a roll with a 6 orange rolls first in every rollout,
    # otherwise blue does.
    starts: list[int] = []
    real = sim.play_out

    def spy(tok: list[int], seat: int, *args: object) -> tuple[int, int | None, int]:
        starts.append(seat)
        return real(tok, seat, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(sim, "play_out", spy)
    budget = search.Budget(work=200, margin=1.0)
    for dice, first in (((6, 2), 0), ((4, 2), 1)):
        starts.clear()
        state = ludo.apply(game("orange: 10 20; blue: @30 @40; green: @5"), Roll(dice))
        search.choose(state, random.Random(0), budget)
        assert starts and set(starts) == {first}


def test_expert_takes_the_win_and_does_not_plan_through_a_block() -> None:
    state = ludo.apply(game("orange: 50 home home home; blue: @1"), Roll((1, 4)))
    rng = random.Random(0)
    while state.phase is Phase.MOVE:
        state = ludo.apply(state, ai.choose_action(state, "expert", rng))
    assert state.outcome is not None and state.outcome.winner == 0
    # The only capture of blue on 20 would pass green's block on 18.
    state = ludo.apply(game("orange: @15 40; blue: @20; green: @18 @18"), Roll((5, 2)))
    plans = search.endings(state, ludo.legal_actions(state))
    assert all(end[4] != 0 for end in plans)


def test_rounds_stop_when_the_hero_is_about_to_roll_again() -> None:
    tokens = list(ludo.new_game().position.tokens)
    dice = [1, 2] * 20  # no 6: nothing moves, every seat rolls once per round
    seat, winner, played = sim.play_out(tokens, 1, frozenset(), dice, hero=0, rounds=1)
    assert (seat, winner, played) == (0, None, 3)
    seat, winner, played = sim.play_out(tokens, 0, frozenset(), dice, hero=0, rounds=2)
    assert (seat, winner, played) == (0, None, 8)


def test_seats_that_play_like_medium_change_nothing() -> None:
    for state in rolled_positions(9, 40):
        models = ["expert", "medium", None, "hard"]
        alone = search.choose(state, random.Random(5), SMALL)
        assert search.choose(state, random.Random(5), SMALL, models) == alone


def test_easy_seats_are_played_at_random_and_feared_less(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[object, ...]] = []
    real = sim.play_out

    def spy(*args: object) -> tuple[int, int | None, int]:
        seen.append(args[-1:])
        return real(*args)  # type: ignore[arg-type]

    menaces: list[object] = []

    def spy_chance(*args: object) -> float:
        menaces.append(args[-1])
        return real_chance(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(sim, "play_out", spy)
    monkeypatch.setattr(search, "chance", spy_chance)
    state = ludo.apply(game("orange: 10 20; blue: @30 @40; green: @5"), Roll((4, 2)))
    search.choose(
        state,
        random.Random(0),
        search.Budget(work=200, margin=1.0),
        ["expert", "easy", "medium", "easy"],
    )
    assert seen and {args[0] for args in seen} == {(0.0, 1.0, 0.0, 1.0)}
    assert menaces and set(menaces) == {(1.0, RANDOM_HUNTER, 1.0, RANDOM_HUNTER)}
