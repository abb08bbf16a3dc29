"""Property tests: the engine against a plain reference reading of the rules, and round trips.

The reference below is written from RULINGS.md square by square, independently of the
engine's step tables and kernel, so a disagreement on any random position is a bug in one of
them.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engines import ludo
from bot.engines.common import Abandon, Phase, Resign, Roll, replay

START = (0, 12, 24, 36)


def ref_square(seat: int, step: int) -> int | None:
    return (START[seat] + step - 1) % 48 if 1 <= step <= 48 else None


def ref_colours_on(tokens: tuple[int, ...], out: frozenset[int]) -> dict[int, Counter[int]]:
    on: dict[int, Counter[int]] = {}
    for index, step in enumerate(tokens):
        square = ref_square(index // 4, step)
        if square is not None and index // 4 not in out:
            on.setdefault(square, Counter())[index // 4] += 1
    return on


def ref_blocked_for(seat: int, square: int, on: dict[int, Counter[int]]) -> bool:
    return any(count >= 2 and colour != seat for colour, count in on.get(square, {}).items())


def ref_legal(
    tokens: tuple[int, ...], seat: int, die: int, out: frozenset[int]
) -> set[tuple[int, int]]:
    on = ref_colours_on(tokens, out)
    legal = set()
    for token in range(4):
        step = tokens[seat * 4 + token]
        if step == 54:
            continue
        if step == 0:
            start = ref_square(seat, 1)
            assert start is not None
            if die == 6 and not ref_blocked_for(seat, start, on):
                legal.add((token, 1))
            continue
        target = step + die
        if target > 54:
            continue
        path = [ref_square(seat, k) for k in range(step + 1, target + 1)]
        if not any(sq is not None and ref_blocked_for(seat, sq, on) for sq in path):
            legal.add((token, target))
    return legal


def ref_apply(
    tokens: tuple[int, ...], seat: int, token: int, target: int, out: frozenset[int]
) -> tuple[int, ...]:
    new = list(tokens)
    new[seat * 4 + token] = target
    square = ref_square(seat, target)
    if square is not None:
        opposing = [
            i
            for i in range(16)
            if i // 4 != seat and i // 4 not in out and ref_square(i // 4, new[i]) == square
        ]
        if len(opposing) == 1:
            new[opposing[0]] = 0
    return tuple(new)


# A token: base, home, the home stretch, or one of a few loop squares so that tokens of
# different colours meet, form blocks and stand in each other's way often.
token_places = st.one_of(
    st.just("base"),
    st.just("home"),
    st.integers(49, 53).map(str),
    st.integers(0, 14).map(lambda square: f"@{square}"),
)


def to_step(seat: int, place: str) -> int:
    if place == "base":
        return 0
    if place == "home":
        return 54
    if place.startswith("@"):
        return (int(place[1:]) - START[seat]) % 48 + 1
    return int(place)


@st.composite
def positions(draw: st.DrawFn) -> ludo.Position:
    places = draw(st.lists(token_places, min_size=16, max_size=16))
    tokens = tuple(to_step(index // 4, place) for index, place in enumerate(places))
    to_move = draw(st.integers(0, 3))
    out = draw(st.frozensets(st.integers(0, 3).filter(lambda seat: seat != to_move), max_size=2))
    return ludo.Position(tokens, to_move, out)


@settings(max_examples=400)
@given(positions(), st.integers(1, 6))
def test_legal_moves_match_the_reference(position: ludo.Position, die: int) -> None:
    seat = position.to_move
    moves = ludo.legal_moves(position, die)
    assert {(m.token, m.target) for m in moves} == ref_legal(
        position.tokens, seat, die, position.out
    )
    for move in moves:
        after = ludo.apply_move(position, move)
        assert after.tokens == ref_apply(
            position.tokens, seat, move.token, move.target, position.out
        )
        assert after.to_move == seat
        # Tokens are conserved: 16, each on a valid step, at most the mover and one victim moved.
        assert len(after.tokens) == 16
        assert all(0 <= step <= 54 for step in after.tokens)
        changed = [i for i in range(16) if after.tokens[i] != position.tokens[i]]
        assert seat * 4 + move.token in changed
        assert len(changed) <= 2


@settings(max_examples=200)
@given(positions())
def test_position_from_steps_round_trips(position: ludo.Position) -> None:
    steps = {name: list(position.steps(name)) for name in ludo.SEATS}
    rebuilt = ludo.Position.from_steps(steps, ludo.SEATS[position.to_move])
    assert rebuilt.tokens == position.tokens


def random_game(seed: int, length: int) -> tuple[ludo.LudoState, list[str]]:
    """A random game of up to ``length`` actions, with the odd resignation or abandon."""
    rng = random.Random(seed)
    state = ludo.new_game({})
    texts: list[str] = []
    for _ in range(length):
        if state.phase is Phase.FINISHED:
            break
        action: ludo.Move | Roll | Resign | Abandon
        chance = rng.random()
        if chance < 0.003:
            action = Abandon()
        elif chance < 0.01:
            action = Resign(rng.choice([s for s in range(4) if s not in state.resigned]))
        elif state.phase is Phase.ROLL:
            action = ludo.roll(state, rng)
        else:
            action = rng.choice(ludo.legal_actions(state))
        texts.append(ludo.notation(state, action))
        state = ludo.apply(state, action)
    return state, texts


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 700))
def test_replay_and_save_round_trips(seed: int, length: int) -> None:
    state, texts = random_game(seed, length)
    assert replay(ludo, {}, texts) == state
    assert ludo.load_state(json.loads(json.dumps(ludo.dump_state(state)))) == state


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 700))
def test_parse_inverts_notation_and_actions_match_the_reference(seed: int, length: int) -> None:
    state, _ = random_game(seed, length)
    actions = ludo.legal_actions(state)
    others: list[Roll | Resign | Abandon] = [Roll((6, 2)), Resign(3), Abandon()]
    for action in [*actions, *others]:
        assert ludo.parse(state, ludo.notation(state, action)) == action
    if state.phase is Phase.MOVE:
        position = state.position
        expected = {
            (die, token, target)
            for die in set(state.dice)
            for token, target in ref_legal(position.tokens, state.turn, die, position.out)
        }
        assert {(a.die, a.token, a.target) for a in actions} == expected
        assert actions, "the move phase always offers a move"
    else:
        assert actions == []
