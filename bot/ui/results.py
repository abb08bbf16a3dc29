"""How games end, in words: places for every seat where a game ranks by place, and the final
line of a finished game's board. A game that words its results its own way (backgammon's
gammons, cubes and matches) does so in its texts (``GameTexts.result``)."""

from __future__ import annotations

from bot.engines.common import EndReason
from bot.i18n import tr
from bot.service.models import Game
from bot.ui.names import Speaker, place_name, seat_name


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
    places = game.spec.ranked_by_place
    if outcome is None:
        return tr("text.ended", locale)
    if outcome.reason == EndReason.ABANDON or outcome.winner is None:
        line = tr("text.abandoned", locale)
        return f"{line}\n{ranking(game, locale)}" if places else line
    own = game.spec.texts.result(state, Speaker(game, locale))
    if own is not None:
        return own
    winner = outcome.winner
    name = seat_name(game, winner, locale)
    if places:
        return f"{tr('text.won', locale, name=name)}\n{ranking(game, locale)}"
    if outcome.reason in (EndReason.RESIGN, EndReason.TIMEOUT):
        loser = seat_name(game, 1 - winner, locale)
        key = "text.won_timeout" if outcome.reason == EndReason.TIMEOUT else "text.won_resign"
        return tr(key, locale, name=name, loser=loser)
    return tr("text.won", locale, name=name)
