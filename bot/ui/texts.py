"""The text that goes with a board image: who plays, what just happened, who is on turn.

A board is public, so it is written in the game's language (the server's when the game
started, see :func:`~bot.ui.names.game_locale`) unless a caller asks for another. Move lines
come from :mod:`bot.ui.move_lines`, results from :mod:`bot.ui.results`; what differs between
games (a match score, the cube, how dice are said) from the game's texts (``GameSpec.texts``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.engines.common import Phase
from bot.i18n import tr
from bot.service.models import Event, Game
from bot.service.time_control import format_seconds
from bot.ui.move_lines import describe_event, opening_line
from bot.ui.names import Speaker, game_locale, seat_name
from bot.ui.results import final_status
from bot.ui.summaries import summary_body

MAX_EVENTS = 8
SHOWN_HASH = 16  # hex digits of the dice seed's hash a board shows

__all__ = [
    "BoardText",
    "board_text",
    "event_lines",
    "game_message",
    "headline",
    "part_result",
    "seat_name",
    "status_line",
]


def clock_line(game: Game, locale: str | None = None) -> str:
    """A match clock: each player's reserve as of their turn's start, and when the player on
    turn runs out (a Discord timestamp counts down in the reader's client, no edits)."""
    timer = game.timer
    assert timer is not None
    locale = locale or game_locale(game)
    times = " · ".join(
        f"{seat_name(game, seat, locale)} {format_seconds(reserve)}"
        for seat, reserve in enumerate(timer.reserves)
    )
    flag = timer.flag_at()
    text = tr("text.clock", locale, times=times, delay=int(timer.delay))
    if flag is not None:
        text += " " + tr("text.clock_flag", locale, at=f"<t:{int(flag)}:R>")
    return text


def headline(game: Game, locale: str | None = None) -> str:
    locale = locale or game_locale(game)
    players = tr("text.vs", locale).join(seat_name(game, s.seat, locale) for s in game.seats)
    extras = game.spec.texts.headline(game.state, Speaker(game, locale))
    return " · ".join([f"**{game.spec.title}** · {players}", *extras])


def part_result(game: Game, part: Any, locale: str | None = None) -> str:
    """The result of one part of ``game`` that just ended (a game of a backgammon match):
    ``part`` is what the engine's ``finished_game`` returned."""
    locale = locale or game_locale(game)
    return game.spec.texts.part_result(game.state, part, Speaker(game, locale))


def status_line(game: Game, locale: str | None = None) -> str:
    locale = locale or game_locale(game)
    state = game.state
    if game.finished:
        return final_status(game, locale)
    who = seat_name(game, state.turn, locale)
    own = game.spec.texts.status(state, Speaker(game, locale))
    if own is not None:  # a phase of the game's own (backgammon's cube decision)
        return own
    if state.phase != Phase.MOVE:
        return tr("text.to_roll", locale, name=who)
    dice = game.spec.texts.dice(state.dice)  # as the move lines say it (Ur: the total)
    return tr("text.to_move", locale, name=who, dice=dice)


def event_lines(game: Game, events: Sequence[Event], locale: str | None = None) -> list[str]:
    """One line per event, in words; a 🤖 marks what the AI played."""
    locale = locale or game_locale(game)
    lines = []
    for event in events:
        by_ai = event.automatic and event.seat >= 0 and game.seats[event.seat].is_ai
        lines.append(describe_event(game, event, locale) + (" 🤖" if by_ai else ""))
    return lines


def move_number(game: Game) -> int:
    """The move under way in the game being played (a match's game counts its own), each
    player's turn one move (``MoveCount``: an extra roll is the same turn). The rolls drawn
    across a match, or the stored version, ran to hundreds and read as no move number."""
    return game.moves.move


def footer_line(game: Game, locale: str | None) -> str:
    """The game's id and the move under way, with the game of a match ("game 2 · move 3")."""
    part = game.spec.texts.part(game.state, Speaker(game, locale))
    if part is None:
        return tr("text.footer", locale, game_id=game.id, move=move_number(game))
    return tr("text.footer_part", locale, game_id=game.id, part=part, move=move_number(game))


def move_lines(game: Game, events: Sequence[Event], locale: str | None = None) -> list[str]:
    """What was played on a board, one line each, the latest :data:`MAX_EVENTS`; what came
    before them is not dropped but said in one line first, as a superseded board says it
    (an AI run as one phrase)."""
    locale = locale or game_locale(game)
    events = list(events)
    if len(events) <= MAX_EVENTS:
        return event_lines(game, events, locale)
    keep = MAX_EVENTS - 1
    earlier = summary_body(game, events[:-keep], locale)
    return [f"-# {earlier}", *event_lines(game, events[-keep:], locale)]


@dataclass(frozen=True, slots=True)
class BoardText:
    """A board's words in the parts a Components V2 board shows apart: the headline (players,
    score), what was just played, whose turn it is (with the time left where there is a
    clock) and the small print (game id, move, the dice seed's hash or the seed)."""

    headline: str
    moves: tuple[str, ...]
    status: str
    footer: tuple[str, ...]

    def plain(self) -> str:
        return "\n".join([self.headline, *self.moves, self.status, *self.footer])


def board_text(
    game: Game, events: Sequence[Event], locale: str | None = None, *, show_hash: bool = False
) -> BoardText:
    locale = locale or game_locale(game)
    moves = move_lines(game, events, locale)
    opening = None if events else opening_line(game, locale)
    if opening is not None:  # a new game's first board: the table rolled the opening dice
        moves.append(opening)
    status = status_line(game, locale)
    if game.timer is not None and not game.finished:  # both reserves, and when this one runs out
        status += "\n" + clock_line(game, locale)
    footer = [footer_line(game, locale)]
    if game.finished:  # the seed is no secret any more: anyone can check every roll
        footer.append(tr("text.seed_revealed", locale, seed=game.seed, game_id=game.id))
    elif show_hash:
        # The hash's first 16 hex digits: the full 64 wrapped over three lines on a phone;
        # /verify gives it whole (and checks it against the seed once the game is over).
        # In a match the seed stays secret until the last game: game 1's end is not enough.
        in_parts = game.spec.texts.part(game.state, Speaker(game, locale)) is not None
        key = "text.seed_hash_match" if in_parts else "text.seed_hash"
        footer.append(tr(key, locale, hash=game.seed_hash[:SHOWN_HASH] + "…"))
    return BoardText(headline(game, locale), tuple(moves), status, tuple(footer))


def game_message(
    game: Game, events: Sequence[Event], locale: str | None = None, *, show_hash: bool = False
) -> str:
    return board_text(game, events, locale, show_hash=show_hash).plain()
