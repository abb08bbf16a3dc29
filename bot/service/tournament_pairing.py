"""Tournament pairings and standings: pure functions of who played whom and how it ended.

Standard library only and no game names: a game enters as its number of seats (two, or a
table of four for Ludo). Entrants are ints (user ids) listed in seed order (best rating first);
``None`` in a table is an AI seat (a short Ludo table) or, in a two-seat pairing, a bye.

- :func:`swiss_pairs`: equal scores meet, no repeat pairing, at most one bye per round (to
  the lowest score, never twice to the same player), colours alternated.
- :func:`swiss_tables`: tables of ``seats`` grouped by score, AI seats filling short tables,
  repeat meetings kept as few as a local search finds.
- :func:`berger_rounds`: round robin by Berger tables (everyone meets everyone once, colours
  balanced to within one).
- :func:`knockout_round`: a bracket seeded 1 v n, 2 v n-1, ... with byes to the top seeds.
- :func:`standings`: score, Buchholz, Sonneborn-Berger, head to head, seed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

Seat = int | None

# Points a seat of a table of more than two earns by place (1st, 2nd, ...); a two-seat game
# is worth 1 to its winner. A bye is worth a win.
PLACE_POINTS: Mapping[int, tuple[float, ...]] = {2: (1.0, 0.0), 3: (2.0, 1.0, 0.0)}
BYE_POINTS = 1.0
SEARCH_BUDGET = 200_000  # nodes of the no-repeat search before repeats are allowed


def place_points(seats: int) -> tuple[float, ...]:
    """Points by place at a table of ``seats``: 1/0 for two, else seats-1, ..., 1, 0."""
    return PLACE_POINTS.get(seats) or tuple(float(seats - 1 - p) for p in range(seats))


def swiss_rounds(entrants: int) -> int:
    """Rounds enough for a winner: ceil(log2 n) (at least one)."""
    return max(1, math.ceil(math.log2(max(2, entrants))))


@dataclass(frozen=True, slots=True)
class Played:
    """One decided table of a past round: its seats (``None``: AI) and each person's points.
    A two-seat table with one seat ``None`` is a bye."""

    seats: tuple[Seat, ...]
    points: Mapping[int, float]

    @property
    def is_bye(self) -> bool:
        return len(self.seats) == 2 and None in self.seats

    def people(self) -> list[int]:
        return [s for s in self.seats if s is not None]


@dataclass(frozen=True, slots=True)
class History:
    """What the pairings of the next round must respect."""

    played: tuple[Played, ...] = ()

    def scores(self) -> dict[int, float]:
        total: dict[int, float] = {}
        for table in self.played:
            for person, points in table.points.items():
                total[person] = total.get(person, 0.0) + points
        return total

    def met(self) -> set[frozenset[int]]:
        pairs: set[frozenset[int]] = set()
        for table in self.played:
            people = table.people()
            if table.is_bye:
                continue
            pairs.update(frozenset((a, b)) for a in people for b in people if a < b)
        return pairs

    def byes(self) -> dict[int, int]:
        count: dict[int, int] = {}
        for table in self.played:
            if table.is_bye:
                for person in table.people():
                    count[person] = count.get(person, 0) + 1
        return count

    def colours(self) -> dict[int, list[int]]:
        """Each person's seats in two-seat games, in order (0: first colour)."""
        seen: dict[int, list[int]] = {}
        for table in self.played:
            if len(table.seats) == 2 and not table.is_bye:
                for seat, person in enumerate(table.seats):
                    if person is not None:
                        seen.setdefault(person, []).append(seat)
        return seen


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round: the tables (seat order is colour order) and the bye, if any."""

    tables: tuple[tuple[Seat, ...], ...]
    bye: int | None = None
    repeats: int = 0  # pairs meeting again (0 unless no other pairing exists)


# ---------------------------------------------------------------------------------- Swiss


def _order(entrants: Sequence[int], scores: Mapping[int, float]) -> list[int]:
    """Best score first, then seed order."""
    rank = {p: i for i, p in enumerate(entrants)}
    return sorted(entrants, key=lambda p: (-scores.get(p, 0.0), rank[p]))


def _match(
    players: list[int], met: set[frozenset[int]], budget: list[int]
) -> list[tuple[int, int]] | None:
    """Pair ``players`` (in score order) without repeats; the top player takes the nearest
    opponent in the order that leaves the rest pairable. None when impossible (or out of
    budget)."""
    if not players:
        return []
    first, rest = players[0], players[1:]
    for index, other in enumerate(rest):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if frozenset((first, other)) in met:
            continue
        tail = _match(rest[:index] + rest[index + 1 :], met, budget)
        if tail is not None:
            return [(first, other), *tail]
    return None


def _coloured(a: int, b: int, colours: Mapping[int, list[int]]) -> tuple[int, int]:
    """(first colour, second colour): the one who had the first colour more often, or
    last, takes the second; otherwise the higher-placed ``a`` takes the first."""

    def balance(p: int) -> tuple[int, int]:
        seats = colours.get(p, [])
        firsts = seats.count(0) - seats.count(1)
        last = 1 if seats and seats[-1] == 0 else (-1 if seats else 0)
        return firsts, last

    return (b, a) if balance(a) > balance(b) else (a, b)


def swiss_pairs(entrants: Sequence[int], history: History) -> Pairing:
    """The next Swiss round of a two-seat game (``entrants`` in seed order)."""
    scores, met, byes = history.scores(), history.met(), history.byes()
    ordered = _order(entrants, scores)
    candidates: list[int | None] = [None]
    if len(ordered) % 2:
        # The bye goes to the lowest score (lowest seed among equals) that has had none.
        fresh = [p for p in reversed(ordered) if not byes.get(p)]
        candidates = list(fresh or reversed(ordered))
    for allow_repeats in (False, True):
        for bye in candidates:
            players = [p for p in ordered if p != bye]
            pairs = _match(players, set() if allow_repeats else met, [SEARCH_BUDGET])
            if pairs is None:
                continue
            colours = history.colours()
            tables = tuple(_coloured(a, b, colours) for a, b in pairs)
            repeats = sum(frozenset(t) in met for t in tables)
            return Pairing(tables, bye, repeats)
    raise AssertionError("a pairing with repeats allowed always exists")


def swiss_tables(
    entrants: Sequence[int], history: History, seats: int, round_index: int = 0
) -> Pairing:
    """The next Swiss round at tables of ``seats`` (Ludo: four): entrants in score order
    split into tables as even as can be (sizes differ by one at most), AI seats filling the
    short ones; then swaps between neighbouring tables while they lower the number of pairs
    meeting again. Seats rotate with the round (``round_index``, from 0) so nobody keeps
    the first colour."""
    scores, met = history.scores(), history.met()
    ordered = _order(entrants, scores)
    count = max(1, math.ceil(len(ordered) / seats))
    sizes = [len(ordered) // count + (1 if i < len(ordered) % count else 0) for i in range(count)]
    groups: list[list[int]] = []
    start = 0
    for size in sizes:
        groups.append(ordered[start : start + size])
        start += size

    def repeats(group: list[int]) -> int:
        return sum(frozenset((a, b)) in met for a in group for b in group if a < b)

    improved = True
    while improved:
        improved = False
        for g in range(len(groups) - 1):
            for i in range(len(groups[g])):
                for j in range(len(groups[g + 1])):
                    a, b = groups[g], groups[g + 1]
                    before = repeats(a) + repeats(b)
                    a[i], b[j] = b[j], a[i]
                    if repeats(a) + repeats(b) < before:
                        improved = True
                    else:
                        a[i], b[j] = b[j], a[i]
    tables = []
    for group in groups:
        row: list[Seat] = [*group, *([None] * (seats - len(group)))]
        turn = round_index % seats
        tables.append(tuple(row[turn:] + row[:turn]))
    return Pairing(tuple(tables), None, sum(repeats(g) for g in groups))


# ---------------------------------------------------------------------------- round robin


def berger_rounds(entrants: Sequence[int]) -> list[list[tuple[Seat, Seat]]]:
    """Every round of a round robin by Berger tables: n-1 rounds for even n (n for odd, each
    with one bye, a pair with ``None``). Pairs are (first colour, second colour)."""
    players: list[Seat] = list(entrants)
    if len(players) % 2:
        players.append(None)
    n = len(players)
    if n < 2:
        return []
    rounds = []
    # The circle method: the last player stays, the others turn one place each round; the
    # fixed player's colour alternates, the others' follow the table position.
    ring = list(range(n - 1))
    for r in range(n - 1):
        pairs: list[tuple[Seat, Seat]] = []
        fixed, partner = players[n - 1], players[ring[0]]
        pairs.append((fixed, partner) if r % 2 else (partner, fixed))
        for k in range(1, n // 2):
            a, b = players[ring[k]], players[ring[n - 1 - k]]
            pairs.append((a, b))
        rounds.append(pairs)
        ring = ring[-1:] + ring[:-1]
    return rounds


def group_rounds(entrants: Sequence[int], seats: int) -> list[list[tuple[Seat, ...]]]:
    """Round robin for tables of ``seats``: entrants in groups of ``seats`` (snake order by
    seed, AI seats filling), each group at one table every round, the seats rotating so each
    person sits each seat once: ``seats`` rounds."""
    count = max(1, math.ceil(len(entrants) / seats))
    groups: list[list[Seat]] = [[] for _ in range(count)]
    for index, person in enumerate(entrants):
        lap, pos = divmod(index, count)
        groups[pos if lap % 2 == 0 else count - 1 - pos].append(person)
    for group in groups:
        group.extend([None] * (seats - len(group)))
    return [[tuple(g[r:] + g[:r]) for g in groups] for r in range(seats)]


# ------------------------------------------------------------------------------- knockout


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket slot order for a power-of-two ``size``: 1 meets
    ``size``, and seeds 1 and 2 can only meet in the final."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def knockout_first_round(entrants: Sequence[int]) -> list[tuple[Seat, Seat]]:
    """Round one of a knockout of ``entrants`` in seed order: pairs in bracket order, the
    seeds beyond the field being byes (``None``), which fall to the top seeds."""
    size = 1 << max(1, math.ceil(math.log2(max(2, len(entrants)))))
    order = bracket_order(size)
    slots: list[Seat] = [entrants[s - 1] if s <= len(entrants) else None for s in order]
    return [(slots[i], slots[i + 1]) for i in range(0, size, 2)]


def knockout_round(previous_winners: Sequence[Seat]) -> list[tuple[Seat, Seat]]:
    """A later round: the winners of the last round, in bracket order, meet in pairs."""
    return [
        (previous_winners[i], previous_winners[i + 1]) for i in range(0, len(previous_winners), 2)
    ]


def knockout_rounds(entrants: int) -> int:
    return max(1, math.ceil(math.log2(max(2, entrants))))


# ------------------------------------------------------------------------------ standings


@dataclass(frozen=True, slots=True)
class Standing:
    user_id: int
    score: float
    buchholz: float
    sonneborn_berger: float
    games: int
    place: int = 0
    wins: int = 0
    tiebreak_notes: tuple[str, ...] = field(default=())


def standings(entrants: Sequence[int], played: Iterable[Played]) -> list[Standing]:
    """Ranked standings: score, then Buchholz (the sum of the opponents' scores), then
    Sonneborn-Berger (the sum of the scores of the opponents one finished ahead of, plus
    half of those one tied with), then head to head (among those still level: the games
    between them), then seed. A bye counts its points but no opponent."""
    tables = list(played)
    scores = History(tuple(tables)).scores()
    opponents: dict[int, list[int]] = {p: [] for p in entrants}
    beaten: dict[int, float] = dict.fromkeys(entrants, 0.0)
    games: dict[int, int] = dict.fromkeys(entrants, 0)
    wins: dict[int, int] = dict.fromkeys(entrants, 0)
    for table in tables:
        people = table.people()
        for p in people:
            games[p] = games.get(p, 0) + 1
            if table.points.get(p, 0.0) >= max(table.points.values(), default=0.0) > 0:
                wins[p] = wins.get(p, 0) + 1
        if table.is_bye:
            continue
        for p in people:
            for q in people:
                if p == q:
                    continue
                opponents.setdefault(p, []).append(q)
                mine, theirs = table.points.get(p, 0.0), table.points.get(q, 0.0)
                if mine > theirs:
                    beaten[p] = beaten.get(p, 0.0) + scores.get(q, 0.0)
                elif mine == theirs:
                    beaten[p] = beaten.get(p, 0.0) + scores.get(q, 0.0) / 2
    seed = {p: i for i, p in enumerate(entrants)}
    rows = [
        Standing(
            p,
            scores.get(p, 0.0),
            sum(scores.get(q, 0.0) for q in opponents.get(p, [])),
            beaten.get(p, 0.0),
            games.get(p, 0),
            wins=wins.get(p, 0),
        )
        for p in entrants
    ]

    def level(row: Standing) -> tuple[float, float, float]:
        return (row.score, row.buchholz, row.sonneborn_berger)

    rows.sort(key=lambda r: (-r.score, -r.buchholz, -r.sonneborn_berger, seed[r.user_id]))
    ranked: list[Standing] = []
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and level(rows[j]) == level(rows[i]):
            j += 1
        group = rows[i:j]
        if len(group) > 1:
            members = {r.user_id for r in group}
            h2h = dict.fromkeys(members, 0.0)
            for table in tables:
                inside = [p for p in table.people() if p in members]
                for p in inside:
                    for q in inside:
                        if p != q and table.points.get(p, 0.0) > table.points.get(q, 0.0):
                            h2h[p] += 1
            group.sort(key=lambda r: (-h2h[r.user_id], seed[r.user_id]))
        ranked.extend(group)
        i = j
    out: list[Standing] = []
    for index, row in enumerate(ranked):
        same = index > 0 and level(ranked[index - 1]) == level(row)
        place = out[-1].place if same and _h2h_tie(ranked[index - 1], row, tables) else index + 1
        out.append(
            Standing(
                row.user_id,
                row.score,
                row.buchholz,
                row.sonneborn_berger,
                row.games,
                place,
                row.wins,
            )
        )
    return out


def _h2h_tie(a: Standing, b: Standing, tables: Sequence[Played]) -> bool:
    """Whether two players level on score and both tiebreaks also never decided between them
    head to head (then they share a place; the seed still orders the list)."""
    for table in tables:
        people = table.people()
        if (
            a.user_id in people
            and b.user_id in people
            and table.points.get(a.user_id, 0.0) != table.points.get(b.user_id, 0.0)
        ):
            return False
    return True
