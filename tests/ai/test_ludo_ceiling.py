"""The Ludo ceiling benchmark (``benchmarks/ludo_ceiling.py``): its turn ends are the
engine's, its players play whole games, and the clairvoyant's peek leaves the game's dice
alone. Also the strength benchmark's ``--ludo-budget`` parsing."""

from __future__ import annotations

import random

from benchmarks import ludo_ceiling as ceiling
from benchmarks.ai_strength import budget_fields
from bot.ai import ludo_search as search
from bot.engines import ludo
from tests.ai.test_ludo_search import rolled_positions


def test_the_turns_ends_are_the_searchs() -> None:
    checked = 0
    for state in rolled_positions(11, 400):
        position = state.position
        if position.out or len(state.dice) != 2:
            continue
        dice = (state.dice[0], state.dice[1])
        expected = set(search.endings(state, ludo.legal_actions(state)))
        assert set(ceiling.ends_of(position.tokens, position.to_move, dice)) == expected
        checked += 1
    assert checked > 100


def test_every_player_plays_whole_games() -> None:
    for name in ceiling.PLAYERS:
        for versus in ("easy", "medium"):
            won, made, suffered = ceiling.game(name, versus, 3, samples=2)
            assert isinstance(won, bool) and made >= 0 and suffered >= 0


def test_the_clairvoyant_peek_does_not_draw_the_games_dice() -> None:
    tok = [0] * 16
    tok[0], tok[1], tok[4] = 5, 20, 14
    dice = random.Random(9)
    before = dice.getstate()
    player = ceiling.hero_player("clairvoyant", "medium", 1)
    end = player(tok, 0, (3, 4), dice)
    assert dice.getstate() == before
    assert end in ceiling.ends_of(tok, 0, (3, 4))


def test_budget_fields() -> None:
    fields = budget_fields("rounds=6, candidates=8,margin=0.2,cautious_leaf=0")
    assert fields == {"rounds": 6, "candidates": 8, "margin": 0.2, "cautious_leaf": False}
    assert budget_fields(None) == {}
