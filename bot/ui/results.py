"""How games end, in words: backgammon game and match results, Ludo places, the final line.

``match_game_result`` and ``match_end`` are for the board shown between the games of a
backgammon match; ``final_status`` is the last line of a finished game's board.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engines.backgammon import GameResult
from bot.engines.common import EndReason
from bot.i18n import tr
from bot.service.models import Game
from bot.ui.names import place_name, player_name, plural, seat_name

Names = Callable[[Game, int, str | None], str]


def game_result(
    game: Game, result: GameResult, locale: str | None = None, names: Names = player_name
) -> str:
    """One backgammon game's result: ``Alice wins a gammon × 2 = 4 points``."""
    winner = names(game, result.winner, locale)
    loser = names(game, 1 - result.winner, locale)
    points = plural("count.points", result.points, locale)
    if result.reason == EndReason.DROP:  # a dropped double is worth the cube, nothing else
        won = points
    else:
        kind = tr(f"result.{result.kind}", locale)
        if result.cube > 1:
            won = tr("result.cubed", locale, kind=kind, cube=result.cube, points=points)
        else:
            won = tr("result.plain", locale, kind=kind, points=points)
    key = {EndReason.RESIGN: "result.resign", EndReason.DROP: "result.drop"}.get(
        EndReason(result.reason), "result.normal"
    )
    return tr(key, locale, winner=winner, loser=loser, result=won)


def match_game_result(
    game: Game, result: GameResult, locale: str | None = None, *, number: int | None = None
) -> str:
    """A game of a match and the score after it: ``Game 2: Alice wins a gammon × 2 = 4 points
    · Match score Alice 4 – Bob 1 (to 5)``.

    ``result`` is one of ``game.state.games``; ``number`` (from 1) says which when the same
    result occurs twice and ``result`` is not the very object held there.
    """
    games = game.state.games
    if number is None:
        number = 1 + _index_of(games, result)
    score = [0, 0]
    for played in games[:number]:
        score[played.winner] += played.points
    return tr(
        "match.game_result",
        locale,
        number=number,
        result=game_result(game, result, locale),
        a_name=player_name(game, 0, locale),
        a=score[0],
        b_name=player_name(game, 1, locale),
        b=score[1],
        length=game.state.match_length,
    )


def _index_of(games: tuple[GameResult, ...], result: GameResult) -> int:
    for index in range(len(games) - 1, -1, -1):
        if games[index] is result:
            return index
    for index in range(len(games) - 1, -1, -1):
        if games[index] == result:
            return index
    raise ValueError(f"{result!r} is not a game of this match")


def match_end(game: Game, locale: str | None = None) -> str:
    """How a finished match ended: ``Alice wins the match 5–3``, ``Bob resigned the match at
    2–3`` (the resigner's score first, as it stood when they gave up)."""
    state = game.state
    outcome = state.outcome
    score = state.score
    if outcome is None or outcome.winner is None:
        return tr("match.abandoned", locale, a=score[0], b=score[1])
    winner = outcome.winner
    if outcome.reason == EndReason.RESIGN and state.games:
        before = score[winner] - state.games[-1].points
        loser = player_name(game, 1 - winner, locale)
        return tr("match.resigned", locale, loser=loser, l=score[1 - winner], w=before)
    name = player_name(game, winner, locale)
    return tr("match.won", locale, winner=name, w=score[winner], l=score[1 - winner])


def ranking(game: Game, locale: str | None = None) -> str:
    """Every seat with its colour and place: ``Places: 1st Alice (orange) · 2nd ...``."""
    outcome = game.state.outcome
    if outcome is None:
        return ""
    resigned = {s.seat for s in game.seats if s.resigned}
    resigned.update(getattr(game.state, "resigned", ()))
    entries = []
    for group in outcome.ranking:
        for seat in group:
            key = "text.ranked_resigned" if seat in resigned else "text.ranked"
            place = place_name(outcome.place_of(seat), locale)
            entries.append(tr(key, locale, place=place, name=seat_name(game, seat, locale)))
    return tr("text.ranking", locale, ranking=" · ".join(entries))


def final_status(game: Game, locale: str | None = None) -> str:
    """The last line(s) of a finished game's board: who won, and how."""
    state = game.state
    outcome = state.outcome
    if outcome is None:
        return tr("text.ended", locale)
    if outcome.reason == EndReason.ABANDON or outcome.winner is None:
        line = tr("text.abandoned", locale)
        return f"{line}\n{ranking(game, locale)}" if game.game == "ludo" else line
    winner = outcome.winner
    if game.game == "backgammon":
        if state.match_length > 1:
            return tr("text.finished", locale, result=match_end(game, locale))
        result = game_result(game, state.games[-1], locale, seat_name)
        return tr("text.finished", locale, result=result)
    name = seat_name(game, winner, locale)
    if game.game == "ludo":
        return f"{tr('text.won', locale, name=name)}\n{ranking(game, locale)}"
    if outcome.reason == EndReason.RESIGN:
        loser = seat_name(game, 1 - winner, locale)
        return tr("text.won_resign", locale, name=name, loser=loser)
    return tr("text.won", locale, name=name)
