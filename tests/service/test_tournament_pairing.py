"""Property tests of the tournament pairings (pure functions, no database)."""

from __future__ import annotations

import math
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.service.tournament_pairing import (
    History,
    Played,
    berger_rounds,
    bracket_order,
    group_rounds,
    knockout_first_round,
    knockout_round,
    standings,
    swiss_pairs,
    swiss_rounds,
    swiss_tables,
)


def _play_swiss(n: int, rounds: int, rng: random.Random) -> list[list[Played]]:
    entrants = list(range(1, n + 1))
    history = History()
    all_rounds = []
    for _ in range(rounds):
        pairing = swiss_pairs(entrants, history)
        assert pairing.repeats == 0
        seen = [p for t in pairing.tables for p in t if p is not None]
        if pairing.bye is not None:
            seen.append(pairing.bye)
        assert sorted(seen) == entrants, "everyone plays or has the bye, once"
        assert (pairing.bye is not None) == (n % 2 == 1)
        played = [
            Played(t, {t[0]: 1.0, t[1]: 0.0} if rng.random() < 0.5 else {t[0]: 0.0, t[1]: 1.0})
            for t in pairing.tables
            if t[0] is not None and t[1] is not None
        ]
        if pairing.bye is not None:
            played.append(Played((pairing.bye, None), {pairing.bye: 1.0}))
        all_rounds.append(played)
        history = History(history.played + tuple(played))
    return all_rounds


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 64), st.integers(0, 2**32))
def test_swiss_never_repeats_and_byes_rotate(n: int, seed: int) -> None:
    rounds = swiss_rounds(n)
    played = _play_swiss(n, rounds, random.Random(seed))
    pairs = Counter(frozenset(t.seats) for r in played for t in r if not t.is_bye)
    assert all(c == 1 for c in pairs.values()), "no pairing repeats"
    byes = Counter(t.seats[0] for r in played for t in r if t.is_bye)
    assert all(c == 1 for c in byes.values()), "nobody gets the bye twice"


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 40).filter(lambda n: n % 2 == 1), st.integers(0, 2**32))
def test_swiss_bye_goes_to_a_lowest_score_without_one(n: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = list(range(1, n + 1))
    history = History()
    for _ in range(swiss_rounds(n)):
        pairing = swiss_pairs(entrants, history)
        scores = history.scores()
        fresh = [p for p in entrants if not history.byes().get(p)]
        assert pairing.bye in fresh
        assert scores.get(pairing.bye, 0.0) == min(scores.get(p, 0.0) for p in fresh)
        played = [
            Played(t, {t[rng.randrange(2)]: 1.0})
            for t in pairing.tables  # type: ignore[dict-item]
        ]
        played = [Played(p.seats, {s: p.points.get(s, 0.0) for s in p.seats if s}) for p in played]
        played.append(Played((pairing.bye, None), {pairing.bye: 1.0}))  # type: ignore[dict-item]
        history = History(history.played + tuple(played))


def test_swiss_first_round_pairs_equal_scores_and_alternates_colours() -> None:
    entrants = [1, 2, 3, 4, 5, 6]
    first = swiss_pairs(entrants, History())
    assert first.tables == ((1, 2), (3, 4), (5, 6))
    # 1 and 3 win; they meet next, and 1 (first colour before) gets the second now.
    history = History(tuple(Played(t, {t[0]: 1.0, t[1]: 0.0}) for t in first.tables))
    second = swiss_pairs(entrants, history)
    assert (3, 1) in second.tables or (1, 3) in second.tables
    for a, b in second.tables:
        assert history.colours().get(a, []) != [0] or history.colours().get(b, []) == [0]


@given(st.integers(2, 30))
def test_round_robin_is_complete_and_balanced(n: int) -> None:
    entrants = list(range(100, 100 + n))
    rounds = berger_rounds(entrants)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    pairs = Counter(frozenset(p) for r in rounds for p in r if None not in p)
    assert len(pairs) == n * (n - 1) // 2 and set(pairs.values()) == {1}
    for r in rounds:
        people = [p for pair in r for p in pair if p is not None]
        assert len(people) == len(set(people))
    first = Counter(a for r in rounds for a, b in r if a is not None and b is not None)
    second = Counter(b for r in rounds for a, b in r if a is not None and b is not None)
    for p in entrants:
        assert abs(first[p] - second[p]) <= 1, (p, first[p], second[p])


@given(st.integers(1, 17))
def test_group_round_robin_seats_everyone_at_each_seat(n: int) -> None:
    rounds = group_rounds(list(range(n)), 4)
    assert len(rounds) == 4
    for person in range(n):
        seats = sorted(t.index(person) for r in rounds for t in r if person in t)
        assert seats == [0, 1, 2, 3]
    for table in rounds[0]:
        assert 0 < sum(s is not None for s in table) <= 4


@given(st.integers(2, 64))
def test_knockout_bracket_is_valid(n: int) -> None:
    entrants = list(range(1, n + 1))
    first = knockout_first_round(entrants)
    size = 1 << math.ceil(math.log2(n))
    assert len(first) == size // 2
    seated = [p for pair in first for p in pair if p is not None]
    assert sorted(seated) == entrants
    byes = sorted(a or b for a, b in first if a is None or b is None)  # type: ignore[type-var]
    assert byes == entrants[: size - n], "byes go to the top seeds"
    assert all(not (a is None and b is None) for a, b in first)
    for a, b in first:
        if a is not None and b is not None:
            assert a + b == size + 1, "1 v n, 2 v n-1, ..."
    # Play it out, the better seed always winning: seeds 1 and 2 meet in the final.
    winners = [min(p for p in pair if p is not None) for pair in first]
    rounds = 1
    while len(winners) > 1:
        pairs = knockout_round(winners)
        if len(pairs) == 1 and n >= 2:
            assert sorted(pairs[0]) == [1, 2]  # type: ignore[type-var]
        winners = [min(a, b) for a, b in pairs]  # type: ignore[type-var]
        rounds += 1
    assert (winners == [1] and rounds == math.ceil(math.log2(n))) or n == 1


def test_bracket_order() -> None:
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


@settings(max_examples=30, deadline=None)
@given(st.integers(3, 24), st.integers(0, 2**32))
def test_ludo_swiss_tables(n: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = list(range(1, n + 1))
    history = History()
    for round_index in range(3):
        pairing = swiss_tables(entrants, history, 4, round_index)
        people = [p for t in pairing.tables for p in t if p is not None]
        assert sorted(people) == entrants
        sizes = [sum(p is not None for p in t) for t in pairing.tables]
        assert max(sizes) - min(sizes) <= 1 and all(len(t) == 4 for t in pairing.tables)
        played = []
        for t in pairing.tables:
            order = [p for p in t if p is not None]
            rng.shuffle(order)
            played.append(Played(t, {p: float(3 - i) for i, p in enumerate(order)}))
        history = History(history.played + tuple(played))


def test_standings_tiebreaks() -> None:
    # 1 beats 2, 2 beats 3, 3 beats 1; 4 loses to everyone: 1, 2, 3 on 2 points.
    games = [((1, 2), 1), ((2, 3), 2), ((3, 1), 3), ((1, 4), 1), ((2, 4), 2), ((3, 4), 3)]
    played = [Played(s, {s[0]: float(w == s[0]), s[1]: float(w == s[1])}) for s, w in games]
    table = standings([1, 2, 3, 4], played)
    assert [r.score for r in table] == [2.0, 2.0, 2.0, 0.0]
    assert [r.buchholz for r in table] == [4.0, 4.0, 4.0, 6.0]
    assert table[-1].user_id == 4 and table[-1].place == 4
    # 1, 2 and 3 on one point: Buchholz puts 2 (who beat 4, on no points) last of them,
    # Sonneborn-Berger puts 1 (who beat 3) ahead of 3 (who beat 4).
    played = [
        Played((1, 3), {1: 1.0, 3: 0.0}),
        Played((2, 4), {2: 1.0, 4: 0.0}),
        Played((3, 4), {3: 1.0, 4: 0.0}),
    ]
    table = standings([2, 1, 3, 4], played)
    assert [r.user_id for r in table] == [1, 3, 2, 4]
    assert [(r.buchholz, r.sonneborn_berger) for r in table[:3]] == [(1, 1), (1, 0), (0, 0)]
