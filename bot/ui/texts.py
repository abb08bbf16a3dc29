"""The text that goes with a board image: who plays, what just happened, who is on turn."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engines.common import Phase
from bot.i18n import tr
from bot.service.models import Event, Game

GAME_TITLES = {"backgammon": "Backgammon", "ur": "Royal Game of Ur", "ludo": "Ludo"}
MAX_EVENTS = 8


def seat_name(game: Game, seat: int) -> str:
    if seat < 0:
        return tr("text.table")
    info = game.seats[seat]
    colour = game.rules.SEATS[seat]
    label = info.name if not info.is_ai else tr("text.ai_name", level=info.ai_level or "medium")
    return f"{label} ({colour})"


def headline(game: Game, locale: str | None = None) -> str:
    players = tr("text.vs", locale).join(seat_name(game, s.seat) for s in game.seats)
    line = f"**{GAME_TITLES[game.game]}** · {players}"
    state = game.state
    if game.game == "backgammon":
        length = getattr(state, "match_length", 1)
        if length and length > 1:
            score = getattr(state, "score", (0, 0))
            line += " · " + tr("text.match", locale, length=length, a=score[0], b=score[1])
        value = getattr(state, "cube_value", 1)
        if value > 1:
            owner = getattr(state, "cube_owner", None)
            owner_name = seat_name(game, owner) if owner is not None else tr("text.centred")
            line += " · " + tr("text.cube", locale, value=value, owner=owner_name)
    return line


def status_line(game: Game, locale: str | None = None) -> str:
    state = game.state
    if game.finished:
        outcome = state.outcome
        if outcome is None or outcome.winner is None:
            return tr("text.ended", locale)
        name = seat_name(game, outcome.winner)
        if game.game == "backgammon":
            return tr(
                "text.won_points", locale, name=name, kind=outcome.kind, points=outcome.points
            )
        return tr("text.won", locale, name=name)
    who = seat_name(game, state.turn)
    if state.phase == Phase.CUBE:
        return tr("text.to_decide_double", locale, name=who)
    if state.phase in (Phase.ROLL, Phase.OPENING):
        return tr("text.to_roll", locale, name=who)
    dice = " ".join(str(d) for d in state.dice)
    return tr("text.to_move", locale, name=who, dice=dice)


def game_message(
    game: Game, events: Sequence[Event], locale: str | None = None, *, show_hash: bool = False
) -> str:
    lines = [headline(game, locale)]
    for event in list(events)[-MAX_EVENTS:]:
        mark = " 🤖" if event.automatic and event.seat >= 0 and game.seats[event.seat].is_ai else ""
        lines.append(f"{seat_name(game, event.seat)}: `{event.notation}`{mark}")
    lines.append(status_line(game, locale))
    lines.append(tr("text.footer", locale, game_id=game.id, version=game.version))
    if game.finished:  # the seed is no secret any more: anyone can check every roll
        lines.append(tr("text.seed_revealed", locale, seed=game.seed, game_id=game.id))
    elif show_hash:
        lines.append(tr("text.seed_hash", locale, hash=game.seed_hash))
    return "\n".join(lines)
