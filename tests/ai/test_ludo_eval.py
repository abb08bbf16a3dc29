"""The winning-chance model's threats by hunter (``menace``): the one-pass ``chance`` the
rollouts call agrees with ``win_chances`` whatever each hunter's menace, and an ``easy``
hunter's threats count :data:`bot.ai.ludo_eval.RANDOM_HUNTER` of a deliberate one's."""

from __future__ import annotations

import random

import pytest

from bot.ai import ludo_eval as ev
from tests.ai.test_ludo_sim import random_position

MENACES = [(), ev.menaces(["easy", None, "medium", "easy"]), (0.0, 1.0, 0.5, 1.0)]


@pytest.mark.parametrize("menace", MENACES)
def test_chance_is_the_models_win_chance(menace: tuple[float, ...]) -> None:
    rng = random.Random(21)
    for _ in range(400):
        position = random_position(rng)
        to_move = rng.randrange(4)
        seat = rng.randrange(4)
        cautious = rng.choice((None, seat))
        full = ev.win_chances(
            position.tokens, to_move, position.out, cautious=cautious, menace=menace
        )
        assert sum(full) == pytest.approx(1.0)
        one = ev.chance(position.tokens, to_move, position.out, seat, cautious, menace)
        assert one == pytest.approx(full[seat], abs=1e-12)


def test_an_easy_hunter_menaces_less() -> None:
    # Only orange's token on square 9 can reach blue's lone token on 12: with orange ``easy``
    # blue loses RANDOM_HUNTER of what it loses to a ``medium`` orange.
    tokens = [0] * 16
    tokens[0] = 10
    tokens[4] = 1
    static = [
        sum(w * x for w, x in zip(ev.WEIGHTS, row, strict=True)) if row else 0.0
        for row in ev.features(tokens, 2, frozenset())
    ]
    full = ev.scores(tokens, 2, menace=ev.menaces(["medium", "hard", None, "medium"]))
    assert full == ev.scores(tokens, 2)
    easy = ev.scores(tokens, 2, menace=ev.menaces(["easy", "hard", None, "medium"]))
    assert static[1] - full[1] > 0.01
    assert static[1] - easy[1] == pytest.approx(ev.RANDOM_HUNTER * (static[1] - full[1]))
    assert easy[0] == full[0] and easy[2:] == full[2:]
    assert ev.menaces(None) == () and ev.menaces(["easy", None]) == (ev.RANDOM_HUNTER, 1.0)
