"""Ratings: openskill (Plackett-Luce) per game, kept per server and globally.

Who is rated, and how:

* Only finished games marked ``rated`` count, and only their seats held by people: AI seats
  are left out of the match entirely (they are not rated players, and an AI finishing first
  in Ludo only decides the order of the people behind it). The service marks games against
  the bot unrated anyway, so a person alone with AIs changes nothing.
* A two-seat game is a match of two one-person teams; a four-seat Ludo game rates all its
  people at once by their ``place`` from the results (tied places are equal ranks). A person
  holding several seats of one game is rated once, at their best place.
* A game where every person shares one place (an abandoned Ur or backgammon game: nothing was
  decided) is not rated. An abandoned Ludo game ranks by progress, as the rulings say.
* Win: sole first place; loss: any worse place; a shared first place is a draw (it counts as
  a game and resets the streak).

Numbers: openskill's defaults (mu 25, sigma 25/3). Boards sort by the conservative ordinal
``mu - 3 sigma`` (0 for a newcomer), shown on an Elo-like scale as
``1500 + 40 * ordinal``: a newcomer shows 1500 and the number only climbs once the model is
confident. A player stays *provisional* until :data:`PROVISIONAL_GAMES` rated games.

Each game is rated in the global scope and, when played in a guild, in that guild's scope.
:func:`recompute` replays the whole results table with the same pure step that
:meth:`RatingService.record_game` applies one game at a time, so a rating bug can be fixed by
rebuilding from history (:meth:`RatingService.rebuild`); rated in finish order, the two agree
exactly.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any, Final

from openskill.models import PlackettLuce

from bot import games as registry
from bot import storage as store
from bot.storage import GLOBAL_SCOPE, RatingKey, RatingRow, ResultRow, scope_key
from bot.vocabulary.bounds import LEADERBOARD_PAGE

PROVISIONAL_GAMES: Final = 10
BASE_RATING: Final = 1500
RATING_SCALE: Final = 40  # display points per unit of ordinal
ORDINAL_Z: Final = 3.0  # sigmas below mu: the conservative estimate boards sort by
DEFAULT_PAGE_SIZE: Final = 10

MODEL: Final = PlackettLuce()
INITIAL_MU: Final[float] = float(MODEL.mu)
INITIAL_SIGMA: Final[float] = float(MODEL.sigma)

WIN: Final = 1
DRAW: Final = 0
LOSS: Final = -1


def ordinal(mu: float, sigma: float) -> float:
    return mu - ORDINAL_Z * sigma


def display_rating(mu: float, sigma: float) -> int:
    """The number players see: 1500 for a newcomer, rising as the model becomes confident."""
    return round(BASE_RATING + RATING_SCALE * ordinal(mu, sigma))


# ---------------------------------------------------------------------------------------------
# The pure rating step


@dataclass(frozen=True, slots=True)
class Placing:
    """One person's finish in a rated game. ``result`` is WIN, DRAW or LOSS."""

    user_id: int
    place: int
    result: int


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """A finished game reduced to what the ratings need."""

    game_id: str
    game: str
    guild_id: int | None
    finished_at: float
    placings: tuple[Placing, ...]

    @property
    def scopes(self) -> tuple[str, ...]:
        if self.guild_id is None:
            return (GLOBAL_SCOPE,)
        return (GLOBAL_SCOPE, scope_key(self.guild_id))

    def keys(self) -> list[RatingKey]:
        return [(scope, self.game, p.user_id) for scope in self.scopes for p in self.placings]


def match_from_results(rows: Sequence[ResultRow]) -> RatedMatch | None:
    """The rated match of one game's result rows; None when the game is not rated."""
    if not rows or not all(row.rated for row in rows):
        return None
    best: dict[int, int] = {}
    for row in rows:
        if row.user_id is not None:  # AI seats are not rated players
            best[row.user_id] = min(row.place, best.get(row.user_id, row.place))
    if len(best) < 2 or len(set(best.values())) == 1:
        return None  # nobody to rate against, or nothing decided between the people
    sole_winner = sum(1 for row in rows if row.place == 1) == 1
    placings = tuple(
        Placing(user, place, LOSS if place > 1 else WIN if sole_winner else DRAW)
        for user, place in sorted(best.items(), key=lambda item: (item[1], item[0]))
    )
    first = rows[0]
    return RatedMatch(first.game_id, first.game, first.guild_id, first.finished_at, placings)


def _streak(streak: int, result: int) -> int:
    if result == WIN:
        return streak + 1 if streak > 0 else 1
    if result == LOSS:
        return streak - 1 if streak < 0 else -1
    return 0


def rate_match(match: RatedMatch, current: Mapping[RatingKey, RatingRow]) -> list[RatingRow]:
    """The new rows of everyone in ``match``, in every scope it counts in.

    ``current`` holds the existing rows; a missing one is a newcomer at the model's defaults.
    """
    ranks = [float(p.place) for p in match.placings]
    updated: list[RatingRow] = []
    for scope in match.scopes:
        before = [
            current.get((scope, match.game, p.user_id))
            or RatingRow(
                scope,
                match.game,
                p.user_id,
                INITIAL_MU,
                INITIAL_SIGMA,
                ordinal(INITIAL_MU, INITIAL_SIGMA),
            )
            for p in match.placings
        ]
        teams = [[MODEL.rating(mu=row.mu, sigma=row.sigma)] for row in before]
        rated: list[list[Any]] = MODEL.rate(teams, ranks=ranks)
        for row, (after,), placing in zip(before, rated, match.placings, strict=True):
            mu, sigma = float(after.mu), float(after.sigma)
            updated.append(
                RatingRow(
                    scope=scope,
                    game=match.game,
                    user_id=placing.user_id,
                    mu=mu,
                    sigma=sigma,
                    ordinal=ordinal(mu, sigma),
                    games=row.games + 1,
                    wins=row.wins + (placing.result == WIN),
                    losses=row.losses + (placing.result == LOSS),
                    streak=_streak(row.streak, placing.result),
                    updated=match.finished_at,
                )
            )
    return updated


def recompute(
    results: Iterable[ResultRow],
) -> tuple[dict[RatingKey, RatingRow], list[RatedMatch]]:
    """Every rating from scratch: the rows, and the games rated, in the order rated.

    ``results`` are result rows of any games; they are grouped by game and the games rated
    in finish order (then by id), exactly as :meth:`RatingService.record_game` would have
    rated them one by one.
    """
    ordered = sorted(results, key=lambda r: (r.finished_at, r.game_id, r.place, r.seat))
    table: dict[RatingKey, RatingRow] = {}
    matches: list[RatedMatch] = []
    for _, game_rows in groupby(ordered, key=lambda r: r.game_id):
        match = match_from_results(list(game_rows))
        if match is None:
            continue
        for row in rate_match(match, table):
            table[row.key] = row
        matches.append(match)
    return table, matches


# ---------------------------------------------------------------------------------------------
# What the UI reads


Places = tuple[tuple[int, int], ...]
"""(place, games) pairs, best place first: how a person finished in a multi-seat game."""


def multi_seat(game: str) -> bool:
    """Games of more than two seats, where a record is a count of places, not wins/losses."""
    return registry.get(game).ranked_by_place


def _places(counts: Mapping[int, int] | None) -> Places:
    return tuple(sorted((counts or {}).items()))


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    user_id: int
    rating: int
    games: int
    wins: int
    losses: int
    provisional: bool
    places: Places = ()  # multi-seat games only


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """One page of a board. ``guild_id`` None: the global board. ``page`` counts from 1."""

    game: str
    guild_id: int | None
    page: int
    page_size: int
    total: int  # people on the whole board
    rows: tuple[LeaderboardRow, ...]

    @property
    def pages(self) -> int:
        return max(1, math.ceil(self.total / self.page_size))


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A person's record in one game and scope (rated games only)."""

    game: str
    rating: int
    mu: float
    sigma: float
    games: int
    wins: int
    losses: int
    streak: int  # +N: N wins in a row; -N: N losses in a row
    provisional: bool
    places: Places = ()  # multi-seat games only: how often each place was reached
    # How the games won and lost ended, for the outcome kinds the game counts (its
    # ``counted_endings``: backgammon's gammons and backgammons): kind -> (won, lost).
    endings: Mapping[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def draws(self) -> int:
        return self.games - self.wins - self.losses

    @property
    def streak_text(self) -> str:
        return f"{self.streak:+d}" if self.streak else "0"


class RatingService:
    """Rates finished games and answers leaderboard and stats questions."""

    def __init__(self, db: store.Database, *, provisional_games: int = PROVISIONAL_GAMES) -> None:
        self.db = db
        self.provisional_games = provisional_games

    async def record_game(self, game_id: str) -> bool:
        """Rate a finished game; True when ratings changed.

        Idempotent: the game is claimed in the same transaction that writes its ratings, so a
        second call (or a call racing the first) changes nothing. Unrated, running and
        abandoned games, and games with fewer than two people, are skipped.
        """
        game = await store.load_game(self.db, game_id)
        if game is None or not game.rated or game.status != store.GameStatus.FINISHED:
            return False
        match = match_from_results(await store.results_of_game(self.db, game_id))
        if match is None:
            return False
        return await store.rate_game(
            self.db,
            game_id,
            match.finished_at,
            match.keys(),
            lambda current: rate_match(match, current),
        )

    async def rebuild(self) -> int:
        """Recompute every rating from the results table; returns the rows written."""

        def rebuild(
            results: list[ResultRow],
        ) -> tuple[list[RatingRow], list[tuple[str, float]]]:
            table, matches = recompute(results)
            return list(table.values()), [(m.game_id, m.finished_at) for m in matches]

        return await store.rebuild_ratings(self.db, rebuild)

    async def leaderboard(
        self, game: str, guild_id: int | None, page: int = 1, page_size: int = DEFAULT_PAGE_SIZE
    ) -> Leaderboard:
        """Page ``page`` (from 1; smaller values read as 1, larger than
        :data:`~bot.vocabulary.bounds.LEADERBOARD_PAGE` allows as its highest: the offset
        must stay a number the database can hold) of the board, best first."""
        if game not in registry.kinds():
            raise ValueError(f"Unknown game {game!r}.")
        if page_size < 1:
            raise ValueError("page_size must be at least 1")
        page = min(max(LEADERBOARD_PAGE.low, page), LEADERBOARD_PAGE.high)
        offset = (page - 1) * page_size
        rows, total = await store.leaderboard_rows(
            self.db, scope_key(guild_id), game, offset=offset, limit=page_size
        )
        places: dict[int, dict[int, int]] = {}
        if multi_seat(game):
            users = [row.user_id for row in rows]
            places = await store.rated_places(self.db, users, game, guild_id)
        return Leaderboard(
            game=game,
            guild_id=guild_id,
            page=page,
            page_size=page_size,
            total=total,
            rows=tuple(
                LeaderboardRow(
                    rank=offset + index,
                    user_id=row.user_id,
                    rating=display_rating(row.mu, row.sigma),
                    games=row.games,
                    wins=row.wins,
                    losses=row.losses,
                    provisional=row.games < self.provisional_games,
                    places=_places(places.get(row.user_id)),
                )
                for index, row in enumerate(rows, start=1)
            ),
        )

    async def stats(self, user_id: int, guild_id: int | None) -> dict[str, PlayerStats]:
        """The user's stats per game they have rated games of, in the scope asked for."""
        stats: dict[str, PlayerStats] = {}
        for row in await store.ratings_of_user(self.db, user_id, scope_key(guild_id)):
            counted = registry.get(row.game).counted_endings
            kinds: dict[tuple[bool, str], int] = {}
            if counted:
                kinds = await store.rated_outcome_kinds(self.db, user_id, row.game, guild_id)
            places: dict[int, dict[int, int]] = {}
            if multi_seat(row.game):
                places = await store.rated_places(self.db, [user_id], row.game, guild_id)
            stats[row.game] = PlayerStats(
                game=row.game,
                rating=display_rating(row.mu, row.sigma),
                mu=row.mu,
                sigma=row.sigma,
                games=row.games,
                wins=row.wins,
                losses=row.losses,
                streak=row.streak,
                provisional=row.games < self.provisional_games,
                endings={k: (kinds.get((True, k), 0), kinds.get((False, k), 0)) for k in counted},
                places=_places(places.get(user_id)),
            )
        return stats
